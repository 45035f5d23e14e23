package org.flodl.budget.agent.library;

import org.flodl.budget.pricing.ValuePricer;

/**
 * The pricer a library's {@code TypePricer} returns for one of its classes: it prices every value
 * of that class, so it supports every value it is given (the pricer never asks it per value).
 */
public abstract class TypeValuePricer implements ValuePricer {
  @Override
  public final boolean supports(Object value) {
    return true;
  }
}
