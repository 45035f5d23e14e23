package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.EntryHook;

/**
 * What one point of woven code is, for the engine: the site it belongs to and what it does there.
 * Points are bound once per weaving rule, and once more for each body found in a supertype of a
 * site's type (those decide only for receivers of that type).
 */
sealed interface Point permits Point.Admit, Point.Release, Point.Depth, Point.Batch, Point.Hook {

  /**
   * A cache admission: of an argument, or of the value returned ({@code returned}); at a method
   * body, or around a call ({@code call}); deciding for every receiver, or only for receivers of
   * {@code receivers} (null: every); {@code decline} evicts by key, or is null; {@code wraps}
   * (null: none) wraps the argument, whose stores it decides, instead of pricing it; {@code copies}
   * false ({@code views = keep}): a view past the slack is kept uncopied, charged its storage.
   */
  record Admit(
      CacheSite site,
      boolean returned,
      boolean call,
      Receivers receivers,
      Decline decline,
      ArgumentAdapter wraps,
      boolean copies)
      implements Point {
    /** Returns whether this point decides for {@code receiver}. */
    boolean decidesFor(Object receiver) {
      return receivers == null || receivers.includes(receiver);
    }
  }

  /** A release of what a cache-admit site's values retained. */
  record Release(CacheSite site) implements Point {}

  /** A prefetch depth. */
  record Depth(DepthSite site) implements Point {}

  /** A batch passing, priced for its prefetch site. */
  record Batch(DepthSite site) implements Point {}

  /** An adapter's hook at a method's entry, handed the receiver (for cache site {@code site}). */
  record Hook(CacheSite site, EntryHook hook) implements Point {}

  /**
   * The receivers a body in a supertype of a site's type decides for: instances of the type, named
   * here and found by name in each receiver class's supertypes (the supertype's own loader may not
   * see the type, so its code never names it).
   */
  final class Receivers {
    private final String typeName;
    private final ClassValue<Boolean> includes =
        new ClassValue<>() {
          @Override
          protected Boolean computeValue(Class<?> c) {
            return isA(c);
          }
        };

    Receivers(String typeName) {
      this.typeName = typeName;
    }

    boolean includes(Object receiver) {
      return receiver != null && includes.get(receiver.getClass());
    }

    private boolean isA(Class<?> c) {
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        if (k.getName().equals(typeName) || implementsIt(k.getInterfaces())) {
          return true;
        }
      }
      return false;
    }

    private boolean implementsIt(Class<?>[] interfaces) {
      for (Class<?> i : interfaces) {
        if (i.getName().equals(typeName) || implementsIt(i.getInterfaces())) {
          return true;
        }
      }
      return false;
    }

    String typeName() {
      return typeName;
    }
  }
}
