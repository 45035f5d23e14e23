package org.flodl.budget.agent.library;

import org.flodl.budget.pricing.RetentionPricer;

/**
 * A framework adapter's code at the entry of one of the framework's methods ({@code adapter = dl4j}
 * on a cache-admit site, or a library's own hook, {@code Library.hooks()}): it reads and sets the
 * receiver's state so that what the site declined is taken again from where it came. It runs inside
 * the gate: what it calls that is woven passes through; a throw is caught and said once.
 */
public interface EntryHook {
  /** The method of the framework whose entry is hooked, as a sites-file method reference. */
  String method();

  /** Runs at the entry of {@link #method()} on {@code receiver}. */
  void enter(Object receiver);

  /**
   * Runs at the entry of {@link #method()} on {@code receiver} with the agent's pricer (its
   * releases of declined values); {@link #enter(Object)} unless overridden.
   */
  default void enter(Object receiver, RetentionPricer pricer) {
    enter(receiver);
  }

  /** Returns whether the hook reads the call's arguments ({@link #enter(Object, Object[])}). */
  default boolean readsArguments() {
    return false;
  }

  /** Runs at the entry of {@link #method()} on {@code receiver}, with the call's {@code args}. */
  default void enter(Object receiver, Object[] args) {
    enter(receiver);
  }
}
