package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Scope;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Returns the methods of a class file that a sites file's method reference names: by name and by
 * the parameter types as a sites file may spell them, a javac bridge followed to the method it
 * calls.
 */
final class MethodMatcher {
  private MethodMatcher() {}

  /**
   * Returns the method of {@code info} that {@code ref} names, a bridge followed to the method it
   * calls, or null (adding a failure when the name is ambiguous, or, for {@code required}, when
   * there is none).
   */
  static ClassInfo.Method declared(
      ClassInfo info,
      MethodRef ref,
      byte[] bytes,
      List<Plan.Failure> failures,
      Rule r,
      boolean required) {
    List<ClassInfo.Method> found = new ArrayList<>();
    for (ClassInfo.Method m : info.methods()) {
      if (m.name().equals(ref.methodName())
          && parametersMatch(m.descriptor(), ref.parameterTypes())) {
        found.add(m);
      }
    }
    if (found.isEmpty()) {
      if (required) {
        failures.add(
            new Plan.Failure(
                r,
                "no "
                    + (ref.isConstructor() ? "constructor " : "method ")
                    + ref
                    + " declared in "
                    + Planner.dotted(info.name())));
      }
      return null;
    }
    List<ClassInfo.Method> declared = new ArrayList<>();
    for (ClassInfo.Method m : found) {
      if (!m.isBridge()) {
        declared.add(m);
      }
    }
    if (declared.size() == 1) {
      return declared.get(0);
    }
    if (declared.isEmpty() && found.size() == 1) {
      ClassInfo.Method target = bytes == null ? null : bridgeTarget(bytes, info, found.get(0));
      return target != null ? target : found.get(0);
    }
    List<String> shapes = new ArrayList<>();
    for (ClassInfo.Method m : found) {
      shapes.add(m.name() + m.descriptor());
    }
    failures.add(
        new Plan.Failure(
            r,
            ref
                + " matches "
                + found.size()
                + " methods of "
                + Planner.dotted(info.name())
                + ", give the parameter types: "
                + shapes));
    return null;
  }

  /** Returns the method {@code bridge} calls on its own class (javac's bridges call one). */
  private static ClassInfo.Method bridgeTarget(
      byte[] bytes, ClassInfo info, ClassInfo.Method bridge) {
    String[] target = new String[1];
    new ClassReader(bytes)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access,
                  String name,
                  String descriptor,
                  String signature,
                  String[] exceptions) {
                if (!name.equals(bridge.name()) || !descriptor.equals(bridge.descriptor())) {
                  return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                  @Override
                  public void visitMethodInsn(
                      int opcode, String owner, String mName, String mDesc, boolean itf) {
                    if (owner.equals(info.name())
                        && mName.equals(bridge.name())
                        && !mDesc.equals(bridge.descriptor())) {
                      target[0] = mDesc;
                    }
                  }
                };
              }
            },
            ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    if (target[0] == null) {
      return null;
    }
    for (ClassInfo.Method m : info.methods()) {
      if (m.name().equals(bridge.name()) && m.descriptor().equals(target[0])) {
        return m;
      }
    }
    return null;
  }

  /** Returns the method of {@code info}, not a bridge, that {@code ref} names, or null. */
  static ClassInfo.Method matching(ClassInfo info, MethodRef ref) {
    for (ClassInfo.Method m : info.methods()) {
      if (m.name().equals(ref.methodName())
          && !m.isBridge()
          && parametersMatch(m.descriptor(), ref.parameterTypes())) {
        return m;
      }
    }
    return null;
  }

  /** Returns whether {@code info} declares the method {@code scope} names. */
  static boolean declaresScopeMethod(ClassInfo info, Scope scope) {
    MethodRef m = scope.method();
    for (ClassInfo.Method d : info.methods()) {
      if (d.name().equals(m.methodName()) && parametersMatch(d.descriptor(), m.parameterTypes())) {
        return true;
      }
    }
    return false;
  }

  /** Returns whether the descriptor's parameters are {@code wanted} (null: any). */
  static boolean parametersMatch(String descriptor, List<String> wanted) {
    if (wanted == null) {
      return true;
    }
    Type[] params = Type.getArgumentTypes(descriptor);
    if (params.length != wanted.size()) {
      return false;
    }
    for (int i = 0; i < params.length; i++) {
      if (!names(params[i]).contains(wanted.get(i).trim())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The names a sites file may give a parameter type: {@code java.util.Map$Entry}, {@code
   * java.util.Map.Entry}, {@code Entry}, {@code byte[]}, {@code [B}.
   */
  private static List<String> names(Type t) {
    String name = t.getClassName(); // int, byte[], java.util.Map$Entry
    String canonical = name.replace('$', '.');
    String simple = canonical.substring(canonical.lastIndexOf('.') + 1);
    List<String> names = new ArrayList<>(List.of(name, canonical, simple));
    if (t.getSort() == Type.ARRAY) {
      names.add(t.getDescriptor().replace('/', '.')); // Class.getName(): [B, [Ljava.lang.String;
      String element = t.getElementType().getClassName().replace('$', '.');
      names.add(element.substring(element.lastIndexOf('.') + 1) + "[]".repeat(t.getDimensions()));
    }
    return names;
  }
}
