package org.flodl.budget.events;

/** Why admitted bytes came back, as {@code flodl.budget.Release} records it in {@code cause}. */
public enum ReleaseCause {
  /** A release site (an evict or remove the sites file names) saw the value. */
  RELEASE_SITE,
  /** The value was garbage collected. */
  COLLECTED,
  /**
   * The call that admitted it threw (a put the library refused after the value was admitted): the
   * cache stored nothing, and the bytes came back at once.
   */
  CALL_THREW;

  /** Returns the cause named {@code name} (any case), or null. */
  public static ReleaseCause of(String name) {
    if (name == null) {
      return null;
    }
    for (ReleaseCause c : values()) {
      if (c.name().equalsIgnoreCase(name)) {
        return c;
      }
    }
    return null;
  }
}
