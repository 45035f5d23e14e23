package org.flodl.budget.pricing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The seed's {@code retain_rows} answer: the rows to keep (each the original or its materialized
 * copy, in order, nulls kept) and what keeping them all charges.
 */
public record RetainedRows(List<Object> values, long chargedBytes, boolean materialized) {

  public RetainedRows {
    values = Collections.unmodifiableList(new ArrayList<>(values));
  }
}
