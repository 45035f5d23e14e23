package org.flodl.budget.agent.ehcache;

import java.util.List;
import org.flodl.budget.agent.library.PresetLibrary;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.agent.library.Witnesses;

/**
 * Ehcache 3, budgeted by preset {@code ehcache} ({@code docs/presets/ehcache.md}), and each cache's
 * loader-writer and event listeners read by {@link EhcacheWitnesses}.
 */
public final class EhcacheSupport extends PresetLibrary {

  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public EhcacheSupport() {
    super("ehcache", "every Ehcache 3 cache's put", "org/ehcache/", "org/ehcache/Cache");
  }

  @Override
  public List<String> uncoveredDoors() {
    return List.of("org.ehcache.Cache#getAll");
  }

  @Override
  public Witnesses witnesses(Class<?> c) {
    return Types.supertypeNamed(c, "org.ehcache.core.EhcacheBase") != null ? Lazy.WITNESSES : null;
  }

  /** The witnesses' reader, made at the first cache that asks (none at start). */
  private static final class Lazy {
    static final Witnesses WITNESSES = new EhcacheWitnesses();
  }
}
