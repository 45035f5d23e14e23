package org.flodl.budget.agent.weave;

import org.objectweb.asm.Type;

/**
 * Returns why a method's body or a call cannot carry a rule's role, or null when it can: one set of
 * checks, on the value or depth argument, the return type, the receiver a decline is called on and
 * the constructor a decline would skip, for bodies and calls alike; a body's refusal names the
 * method and the types it has, a call's says "the call". A body's executor argument and hook
 * receiver are checked too.
 */
final class ShapeRules {
  private ShapeRules() {}

  /** Returns why the body of {@code methodText} cannot carry {@code r}, or null. */
  static String bodyProblem(
      Rule r,
      Type[] params,
      Type returns,
      boolean isStatic,
      boolean constructor,
      String methodText) {
    String why = problem(r, params, returns, !isStatic, constructor, methodText);
    if (why != null) {
      return why;
    }
    int e = r.executor();
    if (r.role() == Rule.Role.DEPTH_ARG && e >= 0) {
      if (e >= params.length) {
        return outOfRange(e, "executor", params.length, methodText);
      }
      if (!isReference(params[e])) {
        return "executor argument "
            + e
            + " of "
            + methodText
            + " is a "
            + params[e].getClassName()
            + ", expected an object";
      }
    }
    if (r.role() == Rule.Role.HOOK && isStatic) {
      return "an adapter hook needs a receiver, and " + methodText + " is static";
    }
    return null;
  }

  /** Returns why a call, with a {@code receiver} or static, cannot carry {@code r}, or null. */
  static String callProblem(
      Rule r, Type[] args, Type returns, boolean receiver, boolean constructor) {
    return problem(r, args, returns, receiver, constructor, null);
  }

  /** Returns whether a value of type {@code t} is a reference. */
  static boolean isReference(Type t) {
    return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
  }

  /** The checks bodies and calls share; {@code method} names the body, null for a call. */
  private static String problem(
      Rule r, Type[] params, Type returns, boolean receiver, boolean constructor, String method) {
    switch (r.role()) {
      case ADMIT_ARG:
        {
          if (constructor) {
            return method == null
                ? "a constructor call cannot be skipped"
                : "cache-admit cannot skip a constructor; name the method that stores the value";
          }
          String bad = argumentProblem(r.argument(), true, params, method);
          return bad != null ? bad : declineProblem(r, params.length, receiver, method);
        }
      case ADMIT_RETURN:
        if (!isReference(returns)) {
          return returnProblem("value = return", "an object", returns, method);
        }
        return declineProblem(r, params.length, receiver, method);
      case DEPTH_ARG:
        return argumentProblem(r.argument(), false, params, method);
      case DEPTH_RETURN:
        return returns.getSort() == Type.INT
            ? null
            : returnProblem("depth = return", "int", returns, method);
      case BATCH:
        if (isReference(returns)) {
          return null;
        }
        if (method == null) {
          return "batch needs the call to return the batch object";
        }
        return "batch site "
            + method
            + " returns "
            + (returns.getSort() == Type.VOID
                ? "nothing to price"
                : "a " + returns.getClassName() + ", expected the batch object");
      default:
        return null;
    }
  }

  /** Returns why argument {@code i} is not the {@code value} (an object) or the depth (an int). */
  private static String argumentProblem(int i, boolean value, Type[] params, String method) {
    boolean there = i >= 0 && i < params.length;
    if (there && (value ? isReference(params[i]) : params[i].getSort() == Type.INT)) {
      return null;
    }
    if (method == null) {
      return "argument " + i + " of the call is not " + (value ? "an object" : "an int depth");
    }
    if (!there) {
      return outOfRange(i, value ? "value" : "depth", params.length, method);
    }
    return value
        ? "argument "
            + i
            + " of "
            + method
            + " is a "
            + params[i].getClassName()
            + ", not a retained value"
        : "depth argument "
            + i
            + " of "
            + method
            + " is a "
            + params[i].getClassName()
            + ", expected int";
  }

  private static String outOfRange(int i, String what, int count, String method) {
    return what
        + " argument index "
        + i
        + " is out of range for "
        + method
        + ", which takes "
        + count
        + " argument(s)";
  }

  private static String returnProblem(String role, String type, Type returns, String method) {
    return method == null
        ? role + " needs the call to return " + type
        : role
            + " needs "
            + method
            + " to return "
            + type
            + ", it returns "
            + returns.getClassName();
  }

  private static String declineProblem(Rule r, int count, boolean receiver, String method) {
    if (r.declineArgs() == null) {
      return null;
    }
    String where = method == null ? "the call" : method;
    if (!receiver) {
      return "decline is called on the receiver, and " + where + " is static";
    }
    for (int a : r.declineArgs()) {
      if (a == -1 && r.argument() == -1) {
        continue; // return, on a site of a returned value: the gate puts that value in
      }
      if (a < 0 || a >= count) {
        return "decline_args index " + a + " is out of range for " + where;
      }
    }
    return null;
  }
}
