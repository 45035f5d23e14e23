package org.flodl.budget.agent.config;

/**
 * Where a call site's calls are woven ({@code in =}): one method ({@code
 * com.acme.Dataset#get(int)}, with the lambdas declared in it), every method of one class ({@code
 * com.acme.Dataset}), every class of a package ({@code com.acme.data.*}) or of a package and its
 * subpackages ({@code com.acme.**}).
 *
 * @param kind what the scope covers
 * @param name the class's binary name, or the package's name (dotted, without the wildcard)
 * @param method the one method, for {@link Kind#METHOD}; null otherwise
 */
public record Scope(Kind kind, String name, MethodRef method) {

  /** What a scope covers. */
  public enum Kind {
    /** One method of one class, and the lambda bodies javac compiled out of it. */
    METHOD,
    /** Every method of one class. */
    CLASS,
    /** Every class directly in one package. */
    PACKAGE,
    /** Every class in a package and its subpackages. */
    PACKAGE_TREE
  }

  static final String EXPECTED =
      "expected Class#method(types), Class, package.* or package.**,"
          + " e.g. com.acme.data.Dataset#get(int)";

  /** Returns the scope {@code text} names, or throws saying what was expected. */
  public static Scope parse(String text) {
    String t = text.trim();
    if (t.indexOf('#') >= 0) {
      MethodRef m;
      try {
        m = MethodRef.parse(t);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(EXPECTED);
      }
      return new Scope(Kind.METHOD, m.className(), m);
    }
    if (t.endsWith(".**")) {
      String pkg = t.substring(0, t.length() - 3);
      if (!MethodRef.dottedName(pkg)) {
        throw new IllegalArgumentException(EXPECTED);
      }
      return new Scope(Kind.PACKAGE_TREE, pkg, null);
    }
    if (t.endsWith(".*")) {
      String pkg = t.substring(0, t.length() - 2);
      if (!MethodRef.dottedName(pkg)) {
        throw new IllegalArgumentException(EXPECTED);
      }
      return new Scope(Kind.PACKAGE, pkg, null);
    }
    if (!MethodRef.dottedName(t)) {
      throw new IllegalArgumentException(EXPECTED);
    }
    return new Scope(Kind.CLASS, t, null);
  }

  /** Returns whether the class of internal name {@code internalName} is in this scope. */
  public boolean covers(String internalName) {
    String binary = internalName.replace('/', '.');
    switch (kind) {
      case METHOD:
      case CLASS:
        return binary.equals(name);
      case PACKAGE:
        {
          int dot = binary.lastIndexOf('.');
          return dot > 0 && binary.substring(0, dot).equals(name);
        }
      default:
        return binary.startsWith(name + ".");
    }
  }

  /**
   * Returns whether method {@code methodName} of a covered class is in this scope: every method for
   * a class or package, else the named method and the lambda bodies javac compiled out of it
   * ({@code lambda$get$0}). Parameter types are checked by the weaver.
   */
  public boolean coversMethod(String methodName) {
    if (kind != Kind.METHOD) {
      return true;
    }
    String m = method.methodName();
    if (methodName.equals(m)) {
      return true;
    }
    String enclosing = m.equals(MethodRef.CONSTRUCTOR) ? "new" : m;
    return methodName.startsWith("lambda$" + enclosing + "$");
  }

  /** Returns the scope as the sites file writes it. */
  @Override
  public String toString() {
    switch (kind) {
      case METHOD:
        return method.toString();
      case CLASS:
        return name;
      case PACKAGE:
        return name + ".*";
      default:
        return name + ".**";
    }
  }
}
