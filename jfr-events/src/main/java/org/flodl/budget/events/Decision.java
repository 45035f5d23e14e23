package org.flodl.budget.events;

/**
 * The decisions a cache-admit site takes, as {@code flodl.budget.CacheAdmission} records them in
 * its {@code decision} field: the one spelling the gate, the report and the rules share.
 */
public enum Decision {
  /** Admitted: the value's charge was reserved against its tier's budget. */
  ADMIT,
  /** Admitted as an owned copy of an over-slack view, charged the copy. */
  ADMIT_MATERIALIZED,
  /** Declined: the call was skipped (or its value evicted); the sample still reached training. */
  DECLINE,
  /** Would have been declined: observe mode, or a returned value with no way to evict it. */
  WOULD_DECLINE,
  /** The same object is held already: charged nothing more. */
  ALREADY_HELD;

  /** Returns whether the value was admitted (plain or materialized). */
  public boolean admitted() {
    return this == ADMIT || this == ADMIT_MATERIALIZED;
  }

  /** Returns whether the value was declined (or would have been). */
  public boolean declined() {
    return this == DECLINE || this == WOULD_DECLINE;
  }

  /** Returns the decision named {@code name} (any case), or null. */
  public static Decision of(String name) {
    if (name == null) {
      return null;
    }
    for (Decision d : values()) {
      if (d.name().equalsIgnoreCase(name)) {
        return d;
      }
    }
    return null;
  }
}
