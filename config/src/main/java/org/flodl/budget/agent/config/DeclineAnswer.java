package org.flodl.budget.agent.config;

/**
 * What a declined (skipped) call returns, taken from its site's decline call on the same receiver:
 * the call answers as if its value had been stored and evicted at once.
 */
public enum DeclineAnswer {
  /**
   * The decline call evicts the key and returns what it evicted ({@code remove(key)}, {@code
   * getAndRemove(key)}), or nothing: that is released, and the skipped call returns it where its
   * type fits ({@code put}'s previous value), else null, false or zero.
   */
  EVICTED,
  /**
   * The decline call looks the key up and returns the value present ({@code get(key)}), which stays
   * cached: the skipped call returns it ({@code putIfAbsent} returning the value present).
   */
  PRESENT,
  /**
   * The decline call says whether the key is present ({@code containsKey(key)}): the skipped call
   * returns the opposite ({@code putIfAbsent} returning true when it would have stored).
   */
  ABSENT,
  /** The skipped call returns null, false or zero; what the decline call returned is released. */
  DEFAULT;

  /** The values as a sites file spells them, for messages. */
  static final String EXPECTED = "evicted, present, absent or default";

  /** Returns the answer spelled {@code text} (any case), or null. */
  static DeclineAnswer parse(String text) {
    for (DeclineAnswer a : values()) {
      if (a.name().equalsIgnoreCase(text.trim())) {
        return a;
      }
    }
    return null;
  }
}
