package org.flodl.budget.pricing;

import java.nio.file.Path;
import java.util.List;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.testing.ChildProcess;

/** Runs a main class of these tests in a child JVM with the given flags ({@link ChildProcess}). */
final class ChildJvm {
  private static final Path WORK = Path.of("target", "child-jvms");

  private ChildJvm() {}

  static ChildProcess.Output run(Class<?> main, String... jvmFlags) throws Exception {
    return ChildProcess.run(
        main.getSimpleName(),
        ChildProcess.javaCommand(
            List.of(jvmFlags),
            ChildProcess.classPathOf(main, RetentionPricer.class, Tier.class),
            main.getName(),
            List.of()),
        WORK,
        120);
  }
}
