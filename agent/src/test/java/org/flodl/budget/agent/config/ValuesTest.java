package org.flodl.budget.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hand-written checks that keep {@code java.util.regex} out of {@code premain} accept what the
 * regular expressions they replace accept, and nothing else: each is run against its expression as
 * the oracle, on chosen strings and on random ones made of the characters that matter.
 */
class ValuesTest {
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(NaN|Infinity)");
  private static final Pattern DURATION =
      Pattern.compile("(\\d{1,9})\\s*(ms|s|m)", Pattern.CASE_INSENSITIVE);
  private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}_.:-]{1,64}");

  private static String random(SplittableRandom r, String alphabet, int maxLength) {
    StringBuilder b = new StringBuilder();
    int n = r.nextInt(maxLength + 1);
    for (int i = 0; i < n; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  @Test
  void decimalsAreWhatTheExpressionAccepts() {
    for (String t :
        List.of(
            "0.5",
            "5",
            "5.",
            ".5",
            ".",
            "",
            "+",
            "-0.25",
            "1e-2",
            "1E+3",
            "1e",
            "e5",
            ".e1",
            "NaN",
            "-Infinity",
            "+NaN",
            "NaNa",
            "0x1",
            "1.2.3",
            " 1",
            "1 ",
            "٣")) {
      assertEquals(DECIMAL.matcher(t).matches(), Values.isDecimal(t), "'" + t + "'");
    }
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      String t = random(r, "0123456789.eE+-N", 8);
      assertEquals(DECIMAL.matcher(t).matches(), Values.isDecimal(t), "'" + t + "'");
    }
  }

  @Test
  void durationsAreWhatTheExpressionAccepts() {
    for (String t : List.of("1s", "500ms", "2 m", "10MS", "1\ts", "1  s", "59m")) {
      assertEquals(true, DURATION.matcher(t).matches(), t);
      Values.duration(t); // well formed and in range: no exception
    }
    for (String t : List.of("1h", "s", "", "1234567890s", "1sm", " 1s", "1s ", "1.5s", "-1s")) {
      assertEquals(false, DURATION.matcher(t).matches(), t);
      assertThrows(IllegalArgumentException.class, () -> Values.duration(t), "'" + t + "'");
    }
    IllegalArgumentException tooLong =
        assertThrows(
            IllegalArgumentException.class,
            () -> Values.duration("999999999ms"),
            "well formed, past an hour");
    assertEquals(true, tooLong.getMessage().contains("is longer"), tooLong.getMessage());
    assertEquals(Duration.ofMillis(500), Values.duration("500ms"));
    assertEquals(Duration.ofMinutes(2), Values.duration("2 M"));
  }

  @Test
  void siteNamesAndDevicesAreWhatTheExpressionsAccept() {
    for (String t :
        List.of(
            "samples",
            "a.b:c-d_e",
            "",
            "x".repeat(64),
            "x".repeat(65),
            "名前",
            "a b",
            "a/b",
            "٣٤",
            "Ⅻ",
            "\uD835\uDC00z",
            "tab\t")) {
      assertEquals(NAME.matcher(t).matches(), Text.isSiteName(t), "'" + t + "'");
    }
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 20_000; i++) {
      String t = random(r, "aZ9_.:- /é\u00a0", 6);
      assertEquals(NAME.matcher(t).matches(), Text.isSiteName(t), "'" + t + "'");
      String d = random(r, "0123456789a", 6);
      assertEquals(d.matches("\\d{1,4}"), Text.isDigits(d, 1, 4), "'" + d + "'");
      String w = random(r, "ab,: \t", 8);
      assertEquals(
          Arrays.stream(w.split("[,:\\s]+")).filter(s -> !s.isEmpty()).toList(),
          Text.words(w),
          "'" + w + "'");
    }
  }
}
