package org.flodl.budget.pricing;

import org.flodl.budget.policy.Tier;

/** A container being walked: its children one at a time, then what to keep. */
abstract class Frame {
  /** What {@link #next} returns when the frame has no child left. */
  static final Object PUSHED = new Object();

  final Walk walk;
  final Object container;
  long chargedAfterSelf;
  long examined;
  long budget;
  long spent;
  long largest;
  Tier tier = Tier.HEAP;

  Frame(Walk walk, Object container) {
    this.walk = walk;
    this.container = container;
  }

  /** Returns the next child (null for a null slot), or {@link #PUSHED} when there is none. */
  abstract Object next();

  /**
   * Returns how many children are left unexamined; throws {@link PricingException} when more are
   * left than the container's size says.
   */
  abstract long remaining();

  /** Returns about how many children are left, for splitting the walk; never throws. */
  long left() {
    try {
      return Math.max(0, remaining());
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** Returns whether the children may be copied (this container can be rebuilt). */
  boolean copiesChildren() {
    return false;
  }

  /** Takes the kept value of the child just examined. */
  void childDone(Object child, Object kept) {
    examined++;
  }

  /** Returns what to keep of the container. */
  Object result() {
    return container;
  }
}
