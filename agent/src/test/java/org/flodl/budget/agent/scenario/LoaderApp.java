package org.flodl.budget.agent.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.it.ChildJvm;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.agent.it.LoaderEpoch;

/**
 * The custom-loader app (test-apps/loader-app) as the scenarios run it: its packaged jar, which
 * knows nothing of the agent, in a child JVM on JDK 17, with or without {@code -javaagent}; the
 * sites files beside it ({@code sites.properties}, {@code sites-rig.properties}).
 */
final class LoaderApp {
  static final Path JAR =
      Path.of(
          System.getProperty(
              "flodl.it.loaderApp",
              "../test-apps/loader-app/target/flodl-budget-loader-app-0.1.0-SNAPSHOT.jar"));
  static final Path SITES_DIR =
      Path.of(System.getProperty("flodl.it.loaderSites", "../test-apps/loader-app"));
  static final String MAIN = "com.acme.train.TrainMain";

  private LoaderApp() {}

  /** Returns the sites file {@code name} beside the app, as an absolute path. */
  static Path sites(String name) {
    Path p = SITES_DIR.resolve(name).toAbsolutePath();
    if (!Files.isRegularFile(p)) {
      throw new AssertionError("no sites file " + p);
    }
    return p;
  }

  /** Returns a child named {@code name} running the app's jar with {@code jvmOptions}. */
  static ChildJvm child(String name, String... jvmOptions) throws Exception {
    if (!Files.isRegularFile(JAR)) {
      throw new AssertionError(
          "the loader app is not built: "
              + JAR.toAbsolutePath()
              + " (mvn -pl agent -am verify builds it)");
    }
    return ChildJvm.on("scenario-" + name, Jdk.JDK17).jvm(jvmOptions).classPath(JAR).timeout(90);
  }

  /** Returns {@code common} followed by {@code extra}, as app arguments. */
  static String[] args(List<String> common, String... extra) {
    List<String> all = new ArrayList<>(common);
    all.addAll(List.of(extra));
    return all.toArray(new String[0]);
  }

  /** Returns the {@code epoch=N} line's fields of {@code r} as a small lookup. */
  static LoaderEpoch epoch(ChildJvm.Result r, int n) {
    return LoaderEpoch.of(r, n);
  }
}
