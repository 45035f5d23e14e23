package org.flodl.budget.pricing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.flodl.budget.policy.Tier;

/** Runs a main class of these tests in a child JVM with the given flags and returns its output. */
final class ChildJvm {
  private ChildJvm() {}

  record Result(int exit, String stdout, String stderr) {}

  static Result run(Class<?> main, String... jvmFlags) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath =
        Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI())
            + File.pathSeparator
            + Path.of(RetentionPricer.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            + File.pathSeparator
            + Path.of(Tier.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(List.of(jvmFlags));
    command.add("-cp");
    command.add(classpath);
    command.add(main.getName());
    Process p = new ProcessBuilder(command).start();
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish: " + command);
    }
    return new Result(p.exitValue(), out.get(), err.get());
  }

  private static String read(java.io.InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "<unreadable: " + e + ">";
    }
  }
}
