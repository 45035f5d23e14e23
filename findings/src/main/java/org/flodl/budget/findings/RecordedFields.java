package org.flodl.budget.findings;

/**
 * One recorded event as a reader sees it: the only thing {@link Facts} asks of a reader (the JDK's
 * {@code RecordedEvent}, Mission Control's {@code IItem}). A field the event's version lacks reads
 * -1, NaN, null or false.
 */
public interface RecordedFields {
  /** Returns the event type's name, e.g. {@code flodl.budget.SiteSummary}. */
  String type();

  /** Returns the event's start, milliseconds since the epoch. */
  long startMillis();

  /** Returns a whole-number field (a count, bytes, a depth), or -1 when absent. */
  long number(String field);

  /** Returns a fractional field (a usage cap, a share: 0..1), or NaN when absent. */
  double fraction(String field);

  /** Returns a text field, or null when absent. */
  String text(String field);

  /** Returns a flag, false when absent. */
  boolean flag(String field);
}
