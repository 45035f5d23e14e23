package org.flodl.budget.agent.config;

import static org.flodl.budget.agent.config.SitesFile.METHOD;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fields of a site block that take more than a word: method references, argument indices,
 * devices; each returns its value or says in {@code problems} what was expected.
 */
final class BlockFields {
  private BlockFields() {}

  /**
   * Adds a problem when {@code ref} would weave what is never woven: a JDK type's bodies (reached
   * only as calls, with {@code in}), the agent's own classes.
   */
  static void woven(String field, MethodRef ref, Scope in, List<String> problems) {
    String type = ref.className();
    if (JdkTypes.isAgent(type)) {
      problems.add(field + " '" + ref + "' is in the agent itself, whose classes are never woven");
      return;
    }
    boolean called = field.equals(METHOD) ? in != null : in != null;
    if (JdkTypes.isJdk(type) && !called) {
      problems.add(
          field
              + " '"
              + ref
              + "' is a JDK method, whose bodies are never woven: "
              + "budget its calls with in = the code that makes them");
    }
  }

  /** Returns whether two references name the same method (same type, name and parameters). */
  static boolean sameMethod(MethodRef a, MethodRef b) {
    return a.className().equals(b.className())
        && a.methodName().equals(b.methodName())
        && (a.parameterTypes() == null
            || b.parameterTypes() == null
            || a.parameterTypes().equals(b.parameterTypes()));
  }

  static MethodRef methodRef(
      Map<String, String> fields, String field, boolean required, List<String> problems) {
    String text = fields.get(field);
    if (text == null || text.isEmpty()) {
      if (required || text != null) {
        problems.add(field + " is missing: " + MethodRef.EXPECTED);
      }
      return null;
    }
    try {
      return MethodRef.parse(text);
    } catch (IllegalArgumentException e) {
      problems.add(field + " '" + Text.clip(text, 80) + "': " + e.getMessage());
      return null;
    }
  }

  /**
   * Returns the comma-separated argument indices of {@code text}, checked against the method;
   * {@code return} ({@link SiteSpec#RETURN}: the value the call returned) where {@code
   * returnAllowed}.
   */
  static List<Integer> indices(
      String text, MethodRef method, boolean returnAllowed, List<String> problems) {
    List<Integer> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String p = part.trim();
      if (returnAllowed && p.equals("return")) {
        out.add(SiteSpec.RETURN);
        continue;
      }
      int i;
      try {
        i = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        i = -1;
      }
      int n =
          method == null || method.parameterTypes() == null
              ? Integer.MAX_VALUE
              : method.parameterTypes().size();
      if (i < 0 || i >= n) {
        problems.add(
            "decline_args '"
                + Text.clip(text, 40)
                + "': expected comma-separated "
                + "0-based argument indices of the site's method"
                + (returnAllowed ? ", or return" : "")
                + (n == Integer.MAX_VALUE ? "" : " (0 to " + (n - 1) + ")"));
        return null;
      }
      out.add(i);
    }
    return out;
  }

  /** Returns the argument index of {@code field} ({@code return} when allowed), or -2. */
  static int index(
      Map<String, String> fields,
      String field,
      boolean allowReturn,
      MethodRef method,
      List<String> problems) {
    String expected =
        allowReturn
            ? "expected a 0-based argument index or return"
            : "expected a 0-based argument index";
    String text = fields.get(field);
    if (text == null || text.isEmpty()) {
      problems.add(field + " is missing: " + expected);
      return -2;
    }
    if (allowReturn && text.equalsIgnoreCase("return")) {
      return SiteSpec.RETURN;
    }
    int index;
    try {
      index = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      index = -1;
    }
    if (index < 0) {
      problems.add(field + " '" + Text.clip(text, 40) + "': " + expected);
      return -2;
    }
    if (method != null
        && method.parameterTypes() != null
        && index >= method.parameterTypes().size()) {
      int n = method.parameterTypes().size();
      String expectedHere;
      if (n == 0) {
        expectedHere = allowReturn ? "expected return" : "expected a method with arguments";
      } else {
        expectedHere = "expected an index from 0 to " + (n - 1) + (allowReturn ? " or return" : "");
      }
      problems.add(
          field
              + " '"
              + text
              + "': the method takes "
              + n
              + " argument"
              + (n == 1 ? "" : "s")
              + ": "
              + expectedHere);
      return -2;
    }
    return index;
  }

  /** Returns {@code cpu} or {@code cuda:N} canonical, or null when {@code text} is neither. */
  static String device(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("cpu")) {
      return lower;
    }
    if (lower.startsWith("cuda:")) {
      String n = lower.substring("cuda:".length());
      if (Text.isDigits(n, 1, 4)) {
        return "cuda:" + Integer.parseInt(n);
      }
    }
    return null;
  }
}
