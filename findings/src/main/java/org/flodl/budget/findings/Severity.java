package org.flodl.budget.findings;

/**
 * How much a finding matters, on Mission Control's scale: {@code NA} (nothing to judge by), {@code
 * OK}, {@code INFO} (worth knowing), {@code WARNING} (worth acting on), with JMC's scores.
 */
public enum Severity {
  NA(-1),
  OK(0),
  INFO(50),
  WARNING(90);

  private final int score;

  Severity(int score) {
    this.score = score;
  }

  /** Returns the score JMC shows for it (0..100; -1 for NA). */
  public int score() {
    return score;
  }
}
