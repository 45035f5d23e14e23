package org.flodl.budget.agent.weave;

import java.util.List;

/**
 * What to weave into one class: inserts into method bodies, the call rules whose calls are woven in
 * its methods, and the rules that could not apply (each with its one line).
 *
 * @param info the class as its file describes it
 * @param body the body inserts, in rule order
 * @param calls the call rules whose scope covers the class
 * @param failures the rules that could not apply here
 */
record Plan(ClassInfo info, List<BodyInsert> body, List<Rule> calls, List<Failure> failures) {

  /** One rule's insert into one declared method. */
  record BodyInsert(Rule rule, int point, ClassInfo.Method method, String receiverType) {}

  /** A rule that could not apply to the class, and why. */
  record Failure(Rule rule, String reason) {}

  boolean isEmpty() {
    return body.isEmpty() && calls.isEmpty() && failures.isEmpty();
  }
}
