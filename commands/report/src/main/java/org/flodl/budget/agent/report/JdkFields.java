package org.flodl.budget.agent.report;

import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.findings.RecordedFields;

/** A JDK-consumer event as {@link org.flodl.budget.findings.Facts} reads it. */
final class JdkFields implements RecordedFields {
  private RecordedEvent e;

  /** Returns this view on {@code event} (one view reused over a recording). */
  JdkFields of(RecordedEvent event) {
    this.e = event;
    return this;
  }

  @Override
  public String type() {
    return e.getEventType().getName();
  }

  @Override
  public long startMillis() {
    return e.getStartTime().toEpochMilli();
  }

  @Override
  public long number(String field) {
    if (!e.hasField(field)) {
      return -1;
    }
    Object v = e.getValue(field);
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof java.time.Instant i) {
      return i.toEpochMilli();
    }
    if (v instanceof java.time.Duration d) {
      return d.toMillis();
    }
    return -1;
  }

  @Override
  public double fraction(String field) {
    if (!e.hasField(field)) {
      return Double.NaN;
    }
    Object v = e.getValue(field);
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  @Override
  public String text(String field) {
    if (!e.hasField(field)) {
      return null;
    }
    Object v = e.getValue(field);
    return v == null ? null : v.toString();
  }

  @Override
  public boolean flag(String field) {
    return e.hasField(field) && e.getValue(field) instanceof Boolean b && b;
  }
}
