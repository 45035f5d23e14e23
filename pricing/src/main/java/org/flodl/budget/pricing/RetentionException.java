package org.flodl.budget.pricing;

/**
 * A value could not be prepared for retention (its materializing copy failed, e.g. direct memory is
 * exhausted). The caller declines the admission: unpriced bytes are never retained.
 */
public final class RetentionException extends Exception {
  private static final long serialVersionUID = 1L;

  public RetentionException(String message, Throwable cause) {
    super(message, cause);
  }
}
