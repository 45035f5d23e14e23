package org.flodl.budget.agent.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A method named in the sites file: {@code com.acme.Foo#put(java.lang.Object,int)}, {@code
 * com.acme.Foo#<init>}, {@code com.acme.Foo#evict}. {@code className} may name a class, an abstract
 * class or an interface: the method is matched in the type and its subtypes. {@code parameterTypes}
 * is null when no parameter list was written and empty for {@code ()}.
 *
 * @param className the binary name of the type, {@code java.util.Map} or {@code a.B$C}
 * @param methodName the method's name, {@code <init>} for a constructor
 * @param parameterTypes the parameter types as written ({@code int}, {@code byte[]}), or null
 */
public record MethodRef(String className, String methodName, List<String> parameterTypes) {

  static final String EXPECTED =
      "expected Class#method or Class#method(type,...), e.g. "
          + "com.acme.data.SampleCache#put(java.lang.Object,java.lang.Object) "
          + "or com.acme.data.Loader#<init>";

  public MethodRef {
    parameterTypes = parameterTypes == null ? null : List.copyOf(parameterTypes);
  }

  /** Returns the method {@code text} names, or throws saying what was expected. */
  public static MethodRef parse(String text) {
    int hash = text.indexOf('#');
    if (hash < 0 || hash != text.lastIndexOf('#')) {
      throw new IllegalArgumentException(EXPECTED);
    }
    String className = text.substring(0, hash).trim();
    String rest = text.substring(hash + 1).trim();
    List<String> params = null;
    int open = rest.indexOf('(');
    String methodName = open < 0 ? rest : rest.substring(0, open).trim();
    if (open >= 0) {
      if (!rest.endsWith(")") || rest.indexOf(')') != rest.length() - 1) {
        throw new IllegalArgumentException(EXPECTED);
      }
      String inside = rest.substring(open + 1, rest.length() - 1).trim();
      params = new ArrayList<>();
      if (!inside.isEmpty()) {
        for (String p : inside.split(",", -1)) {
          String type = typeName(p.trim());
          if (type == null) {
            throw new IllegalArgumentException(
                "'" + p.trim() + "' is not a type name: " + EXPECTED);
          }
          params.add(type);
        }
      }
    }
    if (!dottedName(className)) {
      throw new IllegalArgumentException("'" + className + "' is not a class name: " + EXPECTED);
    }
    if (methodName.equals("<clinit>")) {
      throw new IllegalArgumentException("a static initializer cannot be a site: " + EXPECTED);
    }
    if (!methodName.equals(CONSTRUCTOR) && !identifier(methodName)) {
      throw new IllegalArgumentException("'" + methodName + "' is not a method name: " + EXPECTED);
    }
    return new MethodRef(className, methodName, params);
  }

  /** The method name of a constructor. */
  public static final String CONSTRUCTOR = "<init>";

  /** Returns whether this names a constructor. */
  public boolean isConstructor() {
    return CONSTRUCTOR.equals(methodName);
  }

  /** Returns the type's name in the JVM's internal form, {@code java/util/Map}. */
  public String internalClassName() {
    return className.replace('.', '/');
  }

  /** Returns {@code class#method} with {@code (params)} when given, as the sites file writes it. */
  @Override
  public String toString() {
    return format(className, methodName, parameterTypes);
  }

  /** Returns {@code class#method} with {@code (params)} when given. */
  static String format(String className, String methodName, List<String> params) {
    String list = params == null ? "" : "(" + String.join(",", params) + ")";
    return className + "#" + methodName + list;
  }

  /** Returns {@code text} as a type name ({@code int}, {@code byte[]}, {@code a.B$C}), or null. */
  private static String typeName(String text) {
    String base = text;
    String dims = "";
    if (base.endsWith("...")) {
      base = base.substring(0, base.length() - 3).trim();
      dims = "[]";
    }
    while (base.endsWith("]")) {
      int open = base.lastIndexOf('[');
      if (open < 0 || !base.substring(open + 1, base.length() - 1).isBlank()) {
        return null;
      }
      base = base.substring(0, open).trim();
      dims = "[]" + dims;
    }
    return dottedName(base) ? base + dims : null;
  }

  static boolean dottedName(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (String part : text.split("\\.", -1)) {
      if (!identifier(part)) {
        return false;
      }
    }
    return true;
  }

  static boolean identifier(String text) {
    if (text.isEmpty() || !Character.isJavaIdentifierStart(text.charAt(0))) {
      return false;
    }
    for (int i = 1; i < text.length(); i++) {
      if (!Character.isJavaIdentifierPart(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
