package com.acme.it;

import org.flodl.budget.probes.JnaLoaders;

/**
 * An application with no JNA of its own, run with the agent jar on the boot class path: prints
 * which JNA the agent's GPU probes would use (its loader's name and JNA's version), and whether the
 * application itself can see any JNA class.
 */
public final class AgentJnaApp {
  public static void main(String[] args) {
    ClassLoader jna = JnaLoaders.defaultLoader();
    System.out.println("PROBE_JNA_LOADER=" + (jna == null ? "none" : jna.getName()));
    System.out.println("PROBE_JNA_VERSION=" + (jna == null ? "none" : JnaLoaders.version(jna)));
    boolean appSees;
    try {
      Class.forName("com.sun.jna.Native", false, AgentJnaApp.class.getClassLoader());
      appSees = true;
    } catch (ClassNotFoundException e) {
      appSees = false;
    }
    System.out.println("APP_SEES_JNA=" + appSees);
  }
}
