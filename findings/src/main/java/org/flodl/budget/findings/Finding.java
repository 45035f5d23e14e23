package org.flodl.budget.findings;

/**
 * One rule's finding about one recording: its severity, a one-line summary with the numbers, an
 * explanation and a solution a user can act on (empty when there is nothing to do).
 */
public record Finding(
    Findings.Rule rule, Severity severity, String summary, String explanation, String solution) {

  /** Returns the finding as the report prints it: {@code [WARNING] Budget declines: ...}. */
  public String line() {
    return "[" + severity + "] " + rule.title() + ": " + summary;
  }
}
