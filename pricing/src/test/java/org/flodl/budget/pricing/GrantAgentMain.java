package org.flodl.budget.pricing;

import java.lang.instrument.Instrumentation;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Child JVM for {@link GrantJdkAccessTest}, started the way the agent is: {@code -javaagent} with
 * this class as its {@code Premain-Class} and no JDK flags. {@code premain} keeps the
 * Instrumentation; {@code main} makes the standard pricer with it (which grants itself the JDK
 * access) and prints what it sees.
 */
public final class GrantAgentMain {
  private static volatile Instrumentation inst;

  private GrantAgentMain() {}

  public static void premain(String args, Instrumentation instrumentation) {
    inst = instrumentation;
  }

  public static void main(String[] args) throws Exception {
    System.out.println(
        "exported.before="
            + Object.class.getModule().isExported("sun.nio.ch", GrantAgentMain.class.getModule()));
    RetentionPricer pricer = RetentionPricer.standard(inst, GrantAgentMain.class.getClassLoader());
    System.out.println("limitation=" + pricer.limitation());
    System.out.println("shallowLimitation=" + pricer.shallowSizeLimitation());
    Priced direct = pricer.estimate(ByteBuffer.allocateDirect(1 << 20).slice(0, 4096));
    System.out.println(
        "direct="
            + direct.storageBytes()
            + ","
            + direct.chargedBytes()
            + ","
            + direct.materialize());
    Priced readOnly = pricer.estimate(ByteBuffer.allocate(1 << 16).asReadOnlyBuffer().slice(0, 64));
    System.out.println(
        "readonly="
            + readOnly.storageBytes()
            + ","
            + readOnly.chargedBytes()
            + ","
            + readOnly.materialize());
    Path file = Files.createTempFile("grant", ".bin");
    try {
      Files.write(file, new byte[1 << 16]);
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, 1 << 16);
        Priced m = pricer.estimate(mapped.slice(0, 64));
        System.out.println(
            "mapped=" + m.tier().label() + "," + m.chargedBytes() + "," + m.materialize());
      }
    } finally {
      Files.deleteIfExists(file);
    }
    System.out.println(
        "shallow="
            + pricer.estimate(new Object()).chargedBytes()
            + ","
            + inst.getObjectSize(new Object()));
  }
}
