package org.flodl.budget.jmc;

import java.util.HashMap;
import java.util.Map;
import org.flodl.budget.findings.RecordedFields;
import org.openjdk.jmc.common.IDisplayable;
import org.openjdk.jmc.common.item.IAccessorKey;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.IType;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.KindOfQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.JfrAttributes;

/**
 * Mission Control's items of one event type as {@link org.flodl.budget.findings.Facts} reads them:
 * each field found by its name among the type's accessor keys, whatever content type the parser
 * gave it (a plain {@code long} is a raw number since JMC 9.1, a {@code @DataAmount} a memory
 * quantity, a fraction a number or a percentage).
 */
final class JmcFields implements RecordedFields {
  private final String typeName;
  private final Map<String, IMemberAccessor<?, IItem>> accessors = new HashMap<>();
  private final IMemberAccessor<IQuantity, IItem> start;
  private IItem item;

  JmcFields(IType<IItem> type) {
    this.typeName = type.getIdentifier();
    for (IAccessorKey<?> key : type.getAccessorKeys().keySet()) {
      IMemberAccessor<?, IItem> a = type.getAccessor(key);
      if (a != null) {
        accessors.put(key.getIdentifier(), a);
      }
    }
    this.start = JfrAttributes.START_TIME.getAccessor(type);
  }

  /** Returns this view on {@code i}, an item of this view's type. */
  JmcFields of(IItem i) {
    this.item = i;
    return this;
  }

  @Override
  public String type() {
    return typeName;
  }

  @Override
  public long startMillis() {
    if (start == null) {
      return -1;
    }
    IQuantity q = start.getMember(item);
    return q == null ? -1 : q.clampedLongValueIn(UnitLookup.EPOCH_MS);
  }

  private Object value(String field) {
    IMemberAccessor<?, IItem> a = accessors.get(field);
    return a == null ? null : a.getMember(item);
  }

  @Override
  public long number(String field) {
    Object v = value(field);
    if (v instanceof IQuantity q) {
      KindOfQuantity<?> kind = q.getUnit().getContentType();
      if (kind == UnitLookup.MEMORY) {
        return q.clampedLongValueIn(UnitLookup.BYTE);
      }
      if (kind == UnitLookup.TIMESTAMP) {
        return q.clampedLongValueIn(UnitLookup.EPOCH_MS);
      }
      if (kind == UnitLookup.TIMESPAN) {
        return q.clampedLongValueIn(UnitLookup.MILLISECOND);
      }
      return q.longValue();
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    return -1;
  }

  @Override
  public double fraction(String field) {
    Object v = value(field);
    if (v instanceof IQuantity q) {
      return q.getUnit().getContentType() == UnitLookup.PERCENTAGE
          ? q.doubleValueIn(UnitLookup.PERCENT_UNITY)
          : q.doubleValue();
    }
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  @Override
  public String text(String field) {
    Object v = value(field);
    if (v == null) {
      return null;
    }
    return v instanceof IDisplayable d && !(v instanceof String)
        ? d.displayUsing(IDisplayable.EXACT)
        : v.toString();
  }

  @Override
  public boolean flag(String field) {
    return value(field) instanceof Boolean b && b;
  }
}
