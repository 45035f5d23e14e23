package org.flodl.budget.agent.weave;

import java.util.List;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Scope;

/**
 * One thing the weaver does for a site: at the bodies of {@code method} in its type and the
 * subtypes that declare one ({@code scope} null), or at the calls to it made in the code {@code
 * scope} names. {@code id} is the gate's point for it; a body declared in a supertype of the type
 * gets a point of its own, which decides only for receivers of the type ({@link PointBinder}).
 *
 * @param id the gate's point id
 * @param site the site's name, for messages and events
 * @param role what the woven code does
 * @param method the method whose bodies or calls are woven
 * @param scope where calls are woven, or null to weave bodies
 * @param argument the value or depth argument's index, -1 for the return value or none
 * @param declineArgs the arguments passed to the site's decline call, or null when it has none
 * @param executor the argument a depth of 0 nulls, or -1
 * @param contextArgs whether the gate is handed every argument (a framework adapter reads them)
 * @param key a cache admission's argument that is the entry's key (handed to the gate with the
 *     value), or -1
 * @param preset whether the rule comes from a preset (a library version without the method is
 *     skipped, not failed)
 */
public record Rule(
    int id,
    String site,
    Role role,
    MethodRef method,
    Scope scope,
    int argument,
    List<Integer> declineArgs,
    int executor,
    boolean contextArgs,
    int key,
    boolean preset) {

  /** What the woven code at a rule's point does. */
  public enum Role {
    /** Prices argument {@code argument}: passes it on (or its owned copy), or skips the call. */
    ADMIT_ARG,
    /** Prices the returned value; a declined one is evicted by the site's decline call. */
    ADMIT_RETURN,
    /** Hands back what the return value or the reference arguments retained. */
    RELEASE,
    /** Replaces {@code int} argument {@code argument} with the policy's depth. */
    DEPTH_ARG,
    /** Replaces the returned {@code int} with the policy's depth. */
    DEPTH_RETURN,
    /** Prices a returned batch for its prefetch site. */
    BATCH,
    /** Hands the receiver to a framework adapter at the method's entry. */
    HOOK;

    /** Returns what the role does, for the line that says what was woven. */
    public String label() {
      switch (this) {
        case ADMIT_ARG:
          return "cache admission";
        case ADMIT_RETURN:
          return "admission of the returned value";
        case RELEASE:
          return "release";
        case DEPTH_ARG:
        case DEPTH_RETURN:
          return "prefetch depth";
        case HOOK:
          return "adapter hook";
        default:
          return "batch pricing";
      }
    }

    /** Returns whether two roles would both decide on one value (one per method). */
    boolean admits() {
      return this == ADMIT_ARG || this == ADMIT_RETURN;
    }
  }

  /**
   * Returns the rule of {@code role} at the bodies of {@code method} for point {@code id} of site
   * {@code site}: no argument, no decline call, no executor, no adapter, not a preset's; the {@code
   * with} methods set the rest, each returning a new rule.
   */
  public static Rule of(int id, String site, Role role, MethodRef method) {
    return new Rule(id, site, role, method, null, -1, null, -1, false, -1, false);
  }

  /** Returns this rule woven at the calls made in {@code where} (null: at the bodies). */
  public Rule withScope(Scope where) {
    return new Rule(
        id, site, role, method, where, argument, declineArgs, executor, contextArgs, key, preset);
  }

  /** Returns this rule on argument {@code index} (-1: the return value). */
  public Rule withArgument(int index) {
    return new Rule(
        id, site, role, method, scope, index, declineArgs, executor, contextArgs, key, preset);
  }

  /** Returns this rule with the arguments its decline call is passed (null: none). */
  public Rule withDeclineArgs(List<Integer> args) {
    return new Rule(
        id, site, role, method, scope, argument, args, executor, contextArgs, key, preset);
  }

  /** Returns this rule with the argument a depth of 0 nulls (-1: none). */
  public Rule withExecutor(int index) {
    return new Rule(
        id, site, role, method, scope, argument, declineArgs, index, contextArgs, key, preset);
  }

  /** Returns this rule handing the gate every argument (a framework adapter reads them). */
  public Rule withContextArgs(boolean all) {
    return new Rule(
        id, site, role, method, scope, argument, declineArgs, executor, all, key, preset);
  }

  /** Returns this rule as a preset's (a library version without the method is skipped). */
  public Rule withPreset(boolean fromPreset) {
    return new Rule(
        id,
        site,
        role,
        method,
        scope,
        argument,
        declineArgs,
        executor,
        contextArgs,
        key,
        fromPreset);
  }

  /** Returns this rule handing the gate argument {@code index} as the entry's key (-1: none). */
  public Rule withKey(int index) {
    return new Rule(
        id, site, role, method, scope, argument, declineArgs, executor, contextArgs, index, preset);
  }

  /** Returns whether the rule weaves calls rather than bodies. */
  public boolean calls() {
    return scope != null;
  }

  /** Returns the named type's internal name. */
  String type() {
    return method.internalClassName();
  }

  /**
   * Equal when every component is, written out: the record's generated {@code equals} and {@code
   * hashCode} bootstrap method handles at their first call (tens of milliseconds of start-up on JDK
   * 17), and the weaver keys maps by rules while premain weaves.
   */
  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Rule)) {
      return false;
    }
    Rule r = (Rule) o;
    return id == r.id
        && argument == r.argument
        && executor == r.executor
        && contextArgs == r.contextArgs
        && preset == r.preset
        && role == r.role
        && java.util.Objects.equals(site, r.site)
        && java.util.Objects.equals(method, r.method)
        && java.util.Objects.equals(scope, r.scope)
        && java.util.Objects.equals(declineArgs, r.declineArgs);
  }

  /** Returns the rule's id: ids are unique within an agent, so equal rules share it. */
  @Override
  public int hashCode() {
    return id;
  }
}
