package org.flodl.budget.jmc;

import org.flodl.budget.findings.Findings.Rule;

/** The rules, one class each (Mission Control's service loader makes each by its class). */
public final class Rules {
  private Rules() {}

  /** A site declining a large share of its admissions, and what bound its budget. */
  public static final class Declines extends FlodlRule {
    public Declines() {
      super(Rule.DECLINES);
    }
  }

  /** Views materialized: the bytes copied and what they let go. */
  public static final class Materialized extends FlodlRule {
    public Materialized() {
      super(Rule.MATERIALIZED);
    }
  }

  /** A prefetch depth below what the application asked, and why. */
  public static final class PrefetchDepth extends FlodlRule {
    public PrefetchDepth() {
      super(Rule.DEPTH);
    }
  }

  /** Sites that wove nothing or decided nothing, and weave failures. */
  public static final class Weaving extends FlodlRule {
    public Weaving() {
      super(Rule.WEAVING);
    }
  }

  /** Values priced estimated, or not at all. */
  public static final class Pricing extends FlodlRule {
    public Pricing() {
      super(Rule.PRICING);
    }
  }

  /** A budget that shrank below what is held, container reclaims, a container near its limit. */
  public static final class Memory extends FlodlRule {
    public Memory() {
      super(Rule.MEMORY);
    }
  }

  /** Recording problems, a dropped start, and what is exact and what is sampled. */
  public static final class Recording extends FlodlRule {
    public Recording() {
      super(Rule.RECORDING);
    }
  }
}
