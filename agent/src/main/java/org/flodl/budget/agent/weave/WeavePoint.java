package org.flodl.budget.agent.weave;

import java.util.List;

/**
 * One method the weaver must instrument: the site it belongs to, the constant id its code passes to
 * the gate, and what that code does there.
 *
 * @param id the gate's index for this point
 * @param site the site's name in the sites file
 * @param role what the woven code does
 * @param className the binary class name, {@code com.acme.data.SampleCache}
 * @param methodName the method, {@code <init>} for constructors
 * @param parameterTypes the parameter type names, or null to match the name alone (one overload)
 * @param argumentIndex the argument the woven code reads or replaces, -1 for none or the return
 */
public record WeavePoint(
    int id,
    String site,
    Role role,
    String className,
    String methodName,
    List<String> parameterTypes,
    int argumentIndex) {

  /** What the woven code at a point does. */
  public enum Role {
    /** Prices the value argument; replaces it with its owned copy or skips the call. */
    CACHE_ADMIT,
    /** Replaces an {@code int} argument with the policy's depth. */
    DEPTH_ARGUMENT,
    /** Replaces an {@code int} return value with the policy's depth. */
    DEPTH_RETURN,
    /** Hands back, by identity, what the arguments or the return value retained. */
    RELEASE,
    /** Prices a returned batch for its prefetch site. */
    BATCH
  }

  /** Returns the class name in the JVM's internal form, {@code com/acme/data/SampleCache}. */
  public String internalClassName() {
    return className.replace('.', '/');
  }

  /** Returns {@code Class#method(params)} as the sites file would write it. */
  public String methodText() {
    return className + "#" + methodName
        + (parameterTypes == null ? "" : "(" + String.join(",", parameterTypes) + ")");
  }
}
