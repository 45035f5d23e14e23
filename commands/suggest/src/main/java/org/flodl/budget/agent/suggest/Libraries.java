package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.flodl.budget.agent.library.Library;

/**
 * The libraries {@code suggest} knows: those it never scans for sites (their classes are no
 * application's), and those a preset covers (their presence on the class path, or an application
 * class calling into them, becomes a {@code presets} line).
 */
final class Libraries {
  private Libraries() {}

  /**
   * A library the agent knows: its name, the package its API is in, whether a preset budgets it
   * (one without, Arrow's or Netty's, is priced wherever a site admits its values), and the doors
   * into its caches the preset does not cover (internal owner, {@code #}, method name).
   */
  record Preset(
      String name,
      String apiPackage,
      String marker,
      String covers,
      boolean hasPreset,
      List<String> uncovered) {}

  /** Every library, as {@link Library#all} finds them. */
  static final List<Preset> PRESETS = presets();

  private static List<Preset> presets() {
    List<Preset> out = new ArrayList<>();
    for (Library l : Library.all()) {
      List<String> uncovered = new ArrayList<>();
      for (String door : l.uncoveredDoors()) {
        uncovered.add(door.replace('.', '/'));
      }
      out.add(
          new Preset(
              l.name(),
              l.apiPackage(),
              l.marker(),
              l.covers(),
              l.hasPreset(),
              List.copyOf(uncovered)));
    }
    return List.copyOf(out);
  }

  /** Package prefixes (internal form) of libraries, never an application's own. */
  private static final List<String> KNOWN =
      List.of(
          "java/",
          "javax/",
          "jdk/",
          "sun/",
          "com/sun/",
          "jakarta/",
          "org/w3c/",
          "org/xml/",
          "org/ietf/",
          "org/omg/",
          "kotlin/",
          "kotlinx/",
          "scala/",
          "groovy/",
          "org/codehaus/",
          "clojure/",
          "org/apache/",
          "org/eclipse/",
          "org/glassfish/",
          "org/jboss/",
          "org/osgi/",
          "org/slf4j/",
          "ch/qos/",
          "org/jetbrains/",
          "org/intellij/",
          "org/checkerframework/",
          "com/google/",
          "com/github/benmanes/",
          "org/ehcache/",
          "org/terracotta/",
          "ai/djl/",
          "org/nd4j/",
          "org/deeplearning4j/",
          "org/bytedeco/",
          "org/datavec/",
          "io/netty/",
          "com/fasterxml/",
          "org/json4s/",
          "org/json/",
          "com/ctc/",
          "org/objectweb/",
          "net/bytebuddy/",
          "org/junit/",
          "org/opentest4j/",
          "org/apiguardian/",
          "org/hamcrest/",
          "org/mockito/",
          "org/assertj/",
          "org/testng/",
          "junit/",
          "org/openjdk/",
          "org/flodl/budget/",
          "com/esotericsoftware/",
          "org/objenesis/",
          "org/xerial/",
          "org/lz4/",
          "net/jpountz/",
          "com/github/luben/",
          "org/roaringbitmap/",
          "io/dropwizard/",
          "com/codahale/",
          "org/antlr/",
          "com/twitter/",
          "org/rocksdb/",
          "io/airlift/",
          "org/joda/",
          "org/threeten/",
          "javassist/",
          "com/jcraft/",
          "org/tukaani/",
          "org/iq80/",
          "net/razorvine/",
          "py4j/",
          "com/ning/",
          "org/jvnet/",
          "com/thoughtworks/",
          "com/univocity/",
          "com/clearspring/",
          "org/sparkproject/",
          "org/spark_project/",
          "oshi/",
          "com/sun/jna/",
          "org/fusesource/",
          "io/opentelemetry/",
          "io/micrometer/",
          "io/prometheus/",
          "org/yaml/",
          "com/zaxxer/",
          "org/hibernate/",
          "org/springframework/",
          "reactor/",
          "io/reactivex/",
          "com/typesafe/",
          "akka/",
          "org/typelevel/",
          "cats/",
          "shapeless/",
          "breeze/",
          "spire/",
          "org/scalactic/",
          "org/scalatest/",
          "com/lmax/",
          "org/HdrHistogram/",
          "org/LatencyUtils/",
          "io/grpc/",
          "io/perfmark/",
          "com/squareup/",
          "okhttp3/",
          "okio/",
          "org/bouncycastle/",
          "org/conscrypt/",
          "com/amazonaws/",
          "software/amazon/",
          "com/microsoft/",
          "org/postgresql/",
          "com/mysql/",
          "org/h2/",
          "org/sqlite/",
          "org/hsqldb/",
          "org/apache_/",
          "net/sf/",
          "net/minidev/",
          "com/jayway/",
          "org/javatuples/",
          "it/unimi/",
          "org/ejml/",
          "gnu/",
          "org/jblas/",
          "com/github/fommil/",
          "dev/ludovic/",
          "org/netlib/",
          "com/jogamp/",
          "jogamp/",
          "org/lwjgl/",
          "com/google/flatbuffers/",
          "org/tensorflow/",
          "com/microsoft/onnxruntime/",
          "ml/dmlc/",
          "smile/",
          "weka/",
          "org/knowm/",
          "com/beust/",
          "picocli/",
          "io/swagger/",
          "org/everit/",
          "com/networknt/",
          "org/mozilla/",
          "org/python/",
          "jline/",
          "org/jline/",
          "net/java/",
          "com/carrotsearch/",
          "org/agrona/",
          "uk/co/real_logic/",
          "io/vertx/",
          "org/reactivestreams/",
          "org/jctools/",
          "org/conscrypt/",
          "com/aayushatharva/",
          "com/github/oshi/",
          "io/jsonwebtoken/",
          "org/jdom/",
          "org/jdom2/",
          "nu/xom/",
          "org/dom4j/",
          "org/kohsuke/",
          "com/jcabi/",
          "org/immutables/",
          "lombok/",
          "com/oracle/",
          "org/graalvm/");

  /** Markers of code shaded into a library's own namespace. */
  private static final Set<String> SHADED =
      Set.of("/shaded/", "/shade/", "/relocated/", "/repackaged/", "/thirdparty/", "/vendor/");

  /** Returns whether internal class name {@code name} belongs to a library. */
  static boolean isLibrary(String name) {
    for (String k : KNOWN) {
      if (name.startsWith(k)) {
        return true;
      }
    }
    for (String s : SHADED) {
      if (name.contains(s)) {
        return true;
      }
    }
    for (Preset p : PRESETS) {
      if (name.startsWith(p.apiPackage())) {
        return true;
      }
    }
    return false;
  }

  /** Returns whether {@code name} is in one of {@code packages} (dotted), or a subpackage. */
  static boolean inPackages(String name, List<String> packages) {
    for (String p : packages) {
      String prefix = p.replace('.', '/');
      if (name.startsWith(prefix.endsWith("/") ? prefix : prefix + "/")) {
        return true;
      }
    }
    return false;
  }

  /** Returns the packages (dotted) of {@code names}, in order, once each. */
  static List<String> packagesOf(Iterable<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      int slash = n.lastIndexOf('/');
      String p = slash < 0 ? "(default package)" : n.substring(0, slash).replace('/', '.');
      if (!out.contains(p)) {
        out.add(p);
      }
    }
    return out;
  }
}
