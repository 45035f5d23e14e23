package org.flodl.budget.agent.config;

import java.util.HashSet;
import java.util.Set;

/**
 * Which types the agent never weaves: the JDK's ({@code java.*}, {@code jdk.*}, {@code sun.*},
 * {@code com.sun.*} and the packages of the JDK's own modules, such as {@code javax.management}; a
 * library's {@code javax.cache} is no JDK type) and the agent's own ({@code org.flodl.budget.*},
 * its relocated ASM included: the packages of the agent jar). Their methods are reached only as
 * calls from application code ({@code in = ...}).
 */
public final class JdkTypes {
  /** The packages of the agent jar (the policy, the events, the agent, its relocated ASM). */
  private static final String[] AGENT = {
    "org.flodl.budget.agent.",
    "org.flodl.budget.policy.",
    "org.flodl.budget.events.",
    "org.flodl.budget.shaded."
  };

  private static volatile Set<String> jdkPackages;

  private JdkTypes() {}

  /** Returns whether {@code binaryName} ({@code java.util.HashMap}) is a JDK type. */
  public static boolean isJdk(String binaryName) {
    if (binaryName.startsWith("java.")
        || binaryName.startsWith("jdk.")
        || binaryName.startsWith("sun.")
        || binaryName.startsWith("com.sun.")) {
      return true;
    }
    int dot = binaryName.lastIndexOf('.');
    return dot > 0 && jdkPackages().contains(binaryName.substring(0, dot));
  }

  /** Returns whether {@code binaryName} is one of the agent's own classes. */
  public static boolean isAgent(String binaryName) {
    for (String p : AGENT) {
      if (binaryName.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** Returns whether the internal name ({@code org/flodl/budget/agent/Gate}) is the agent's. */
  public static boolean isAgentInternal(String internalName) {
    return internalName.startsWith("org/flodl/budget/") && isAgent(internalName.replace('/', '.'));
  }

  /** Returns whether the internal name ({@code java/util/Map}) is a JDK type, by prefix alone. */
  public static boolean isJdkInternalByPrefix(String internalName) {
    return internalName.startsWith("java/")
        || internalName.startsWith("jdk/")
        || internalName.startsWith("sun/")
        || internalName.startsWith("com/sun/");
  }

  /** Returns the packages of the JDK's modules (defined to the boot or platform loader). */
  private static Set<String> jdkPackages() {
    Set<String> p = jdkPackages;
    if (p == null) {
      Set<String> found = new HashSet<>();
      ClassLoader platform = ClassLoader.getPlatformClassLoader();
      for (Module m : ModuleLayer.boot().modules()) {
        ClassLoader l = m.getClassLoader();
        if (l == null || l == platform) {
          found.addAll(m.getPackages());
        }
      }
      p = Set.copyOf(found);
      jdkPackages = p;
    }
    return p;
  }
}
