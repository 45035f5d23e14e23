package com.acme.libs;

import org.flodl.budget.agent.library.PresetLibrary;

/**
 * A library support on the application's class path that takes a name the agent's own Caffeine
 * support has ({@code src/test/libraries/broken}): the agent must leave it out and say so.
 */
public final class ImpostorSupport extends PresetLibrary {
  public ImpostorSupport() {
    super("caffeine", "an impostor", "com/acme/libs/", "com/acme/libs/ImpostorSupport");
  }
}
