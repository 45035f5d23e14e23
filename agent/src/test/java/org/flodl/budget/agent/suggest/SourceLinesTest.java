package org.flodl.budget.agent.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Class-file line numbers mapped back to the source through a class's SMAP. */
class SourceLinesTest {
  /** What kotlinc 2.x writes for test-apps/kotlin-app's Dataset, whose line 11 calls getOrPut. */
  private static final String KOTLIN =
      "SMAP\nDataset.kt\nKotlin\n*S Kotlin\n*F\n+ 1 Dataset.kt\ncom/acme/kotlin/Dataset\n"
          + "+ 2 Maps.kt\nkotlin/collections/MapsKt__MapsKt\n*L\n1#1,41:1\n382#2,7:42\n"
          + "*S KotlinDebug\n*F\n+ 1 Dataset.kt\ncom/acme/kotlin/Dataset\n*L\n11#1:42,7\n*E\n";

  @Test
  void inlinedLinesAreTheCallsLineAndTheClassesOwnStayAsTheyAre() {
    assertEquals(11, SourceLines.of(KOTLIN, "Dataset.kt", 45), "getOrPut's put, inlined at 11");
    assertEquals(11, SourceLines.of(KOTLIN, "Dataset.kt", 42));
    assertEquals(11, SourceLines.of(KOTLIN, "Dataset.kt", 48));
    assertEquals(30, SourceLines.of(KOTLIN, "Dataset.kt", 30), "the file's own line");
    assertEquals(49, SourceLines.of(KOTLIN, "Dataset.kt", 49), "past every entry: as it is");
  }

  @Test
  void aClassWithoutAReadableMapKeepsItsNumbers() {
    assertEquals(12, SourceLines.of(null, "Dataset.scala", 12));
    assertEquals(12, SourceLines.of("SMAP\nX.kt\nKotlin\n*S Kotlin\n*L\nbanana\n", "X.kt", 12));
    assertEquals(12, SourceLines.of("not a map", "X.kt", 12));
  }
}
