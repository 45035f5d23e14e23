package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import org.flodl.budget.agent.gate.Gate;

/**
 * Weaves the points of the sites file into one class file: at each point's method, a call to
 * {@link Gate} and nothing else, written straight into the method's code with the ASM that
 * ByteBuddy ships (relocated with it), not through ByteBuddy's {@code Advice}. What it inserts is
 * what the advice used to be, instruction for instruction: for cache-admit, at entry, the value
 * argument goes to {@link Gate#admit} and comes back as the value to retain (stored over the
 * argument) or as {@link Gate#DECLINED} (the method returns its default: nothing, null, false or
 * 0); for a depth argument, at entry, the argument is replaced by {@link Gate#depth}; for an
 * {@code int} depth return, a release or a batch, before each return instruction, the gate sees
 * the value returned (and, for a release, the reference arguments).
 *
 * <p>Why not {@code Advice}: it meets issue #6's start-up figure only without it. The first weave
 * through ByteBuddy loads about 680 of its classes and takes about 200 ms of a small JVM's start;
 * this weaver loads a few dozen ASM classes (docs/BENCHMARKS.md, start-up). The built-in DJL
 * site, woven only in a JVM that starts DJL, keeps ByteBuddy's {@code Advice}.
 *
 * <p>The class keeps its format: no member is added or removed, so a class already loaded can be
 * retransformed (attach). The inserted code never throws into the method: the gate catches what
 * it meets, and a copy the gate returns that the argument's declared type cannot hold is not
 * stored (the original value goes on). Only the cache-admit entry branches; it writes its own
 * stack-map frames, which need nothing but the method's own parameters, so no class is loaded to
 * compute them. A point that cannot be woven (no such method, an ambiguous overload, a bad
 * argument index or type) is reported and skipped; the other points of the class still apply.
 */
final class Weaver {
  private static final String GATE = Gate.class.getName().replace('.', '/');
  private static final String OBJECT = "java/lang/Object";

  private Weaver() {}

  /** Returns the woven class file, or null when no point could be woven. */
  static byte[] weave(
      String internalName,
      byte[] original,
      List<WeavePoint> points,
      WeaveListener listener) {
    String binaryName = internalName.replace('/', '.');
    ClassReader reader;
    List<Method> methods = new ArrayList<>();
    int[] version = new int[1];
    try {
      reader = new ClassReader(original);
      reader.accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public void visit(int v, int access, String name, String signature, String superName,
            String[] interfaces) {
          version[0] = v & 0xFFFF;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor,
            String signature, String[] exceptions) {
          methods.add(new Method(access, name, descriptor));
          return null;
        }
      }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      for (WeavePoint p : points) {
        listener.failed(binaryName, p, "its class file could not be read (" + e + ")");
      }
      return null;
    }

    Map<String, List<Insert>> plans = new LinkedHashMap<>();
    List<WeavePoint> planned = new ArrayList<>();
    for (WeavePoint point : points) {
      try {
        Method m = method(binaryName, methods, point);
        Insert insert = plan(m, point);
        List<Insert> inserts = plans.get(m.key());
        if (inserts == null) {
          inserts = new ArrayList<>();
          plans.put(m.key(), inserts);
        }
        inserts.add(insert);
        planned.add(point);
      } catch (WeaveException e) {
        listener.failed(binaryName, point, e.getMessage());
      }
    }
    if (planned.isEmpty()) {
      return null;
    }

    byte[] woven;
    try {
      ClassWriter writer = new ClassWriter(reader, 0);
      boolean frames = version[0] >= Opcodes.V1_6;
      reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor,
            String signature, String[] exceptions) {
          MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
          List<Insert> inserts = plans.get(name + descriptor);
          return inserts == null || mv == null ? mv : new Inserting(mv, inserts, frames);
        }
      }, 0);
      woven = writer.toByteArray();
    } catch (RuntimeException | LinkageError e) {
      for (WeavePoint p : planned) {
        listener.failed(binaryName, p, "weaving its class failed (" + e + ")");
      }
      return null;
    }
    for (WeavePoint p : planned) {
      listener.woven(binaryName, p);
    }
    return woven;
  }

  /** Returns the one method the point names, or throws saying why there is none. */
  private static Method method(String className, List<Method> methods, WeavePoint point)
      throws WeaveException {
    boolean constructor = "<init>".equals(point.methodName());
    List<Method> candidates = new ArrayList<>();
    for (Method m : methods) {
      boolean nameMatches = constructor
          ? m.name.equals("<init>")
          : !m.name.startsWith("<") && m.name.equals(point.methodName());
      if (nameMatches && m.isCode() && parametersMatch(m, point.parameterTypes())) {
        candidates.add(m);
      }
    }
    if (candidates.isEmpty()) {
      for (Method m : methods) {
        if (m.name.equals(point.methodName()) && !m.isCode()
            && parametersMatch(m, point.parameterTypes())) {
          throw new WeaveException(
              point.methodText() + " has no body to advise (abstract or native)");
        }
      }
      throw new WeaveException("no method " + point.methodText() + " declared in " + className);
    }
    if (candidates.size() > 1) {
      // A covariant override comes with a bridge of the same name and parameters: the override
      // is the method the site means (the bridge calls it).
      List<Method> declared = new ArrayList<>();
      for (Method m : candidates) {
        if ((m.access & Opcodes.ACC_BRIDGE) == 0) {
          declared.add(m);
        }
      }
      if (declared.size() == 1) {
        return declared.get(0);
      }
      List<String> found = new ArrayList<>();
      for (Method m : candidates) {
        found.add(m.text(className));
      }
      throw new WeaveException(point.methodText() + " matches " + candidates.size()
          + " overloads, give the parameter types: " + found);
    }
    return candidates.get(0);
  }

  private static boolean parametersMatch(Method m, List<String> wanted) {
    if (wanted == null) {
      return true;
    }
    Type[] params = m.parameters();
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
      names.add(element.substring(element.lastIndexOf('.') + 1)
          + "[]".repeat(t.getDimensions()));
    }
    return names;
  }

  /** Returns what to insert for the point in {@code m}, checking what the JVM would refuse. */
  private static Insert plan(Method m, WeavePoint point) throws WeaveException {
    Type returns = Type.getReturnType(m.descriptor);
    switch (point.role()) {
      case CACHE_ADMIT: {
        if (m.name.equals("<init>")) {
          throw new WeaveException(
              "cache-admit cannot skip a constructor; name the method that stores the value");
        }
        Type value = argument(m, point);
        if (value.getSort() != Type.OBJECT && value.getSort() != Type.ARRAY) {
          throw new WeaveException("argument " + point.argumentIndex() + " of "
              + point.methodText() + " is a " + value.getClassName() + ", not a retained value");
        }
        return new Insert(point, true, m.slot(point.argumentIndex()), value, returns, m);
      }
      case DEPTH_ARGUMENT: {
        Type depth = argument(m, point);
        if (depth.getSort() != Type.INT) {
          throw new WeaveException("depth argument " + point.argumentIndex() + " of "
              + point.methodText() + " is a " + depth.getClassName() + ", expected int");
        }
        return new Insert(point, true, m.slot(point.argumentIndex()), depth, returns, m);
      }
      case DEPTH_RETURN:
        if (returns.getSort() != Type.INT) {
          throw new WeaveException("depth=return needs " + point.methodText()
              + " to return int, it returns " + returns.getClassName());
        }
        return new Insert(point, false, -1, null, returns, m);
      case RELEASE:
        return new Insert(point, false, -1, null, returns, m);
      case BATCH:
        if (m.name.equals("<init>") || returns.getSort() == Type.VOID) {
          throw new WeaveException(
              "batch site " + point.methodText() + " returns nothing to price");
        }
        if (returns.getSort() != Type.OBJECT && returns.getSort() != Type.ARRAY) {
          throw new WeaveException("batch site " + point.methodText() + " returns a "
              + returns.getClassName() + ", expected the batch object");
        }
        return new Insert(point, false, -1, null, returns, m);
      default:
        throw new WeaveException("unknown role " + point.role());
    }
  }

  private static Type argument(Method m, WeavePoint point) throws WeaveException {
    int index = point.argumentIndex();
    Type[] params = m.parameters();
    if (index < 0 || index >= params.length) {
      throw new WeaveException("argument index " + index + " is out of range for "
          + point.methodText() + ", which takes " + params.length + " argument(s)");
    }
    return params[index];
  }

  /** A method of the class being woven, as its class file declares it. */
  private static final class Method {
    final int access;
    final String name;
    final String descriptor;
    private Type[] parameters;

    Method(int access, String name, String descriptor) {
      this.access = access;
      this.name = name;
      this.descriptor = descriptor;
    }

    String key() {
      return name + descriptor;
    }

    boolean isCode() {
      return (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
    }

    boolean isStatic() {
      return (access & Opcodes.ACC_STATIC) != 0;
    }

    /** Returns the parameter types, read from the descriptor once for all the points here. */
    Type[] parameters() {
      if (parameters == null) {
        parameters = Type.getArgumentTypes(descriptor);
      }
      return parameters;
    }

    /** Returns the local variable slot of parameter {@code index}. */
    int slot(int index) {
      int slot = isStatic() ? 0 : 1;
      Type[] params = parameters();
      for (int i = 0; i < index; i++) {
        slot += params[i].getSize();
      }
      return slot;
    }

    String text(String className) {
      List<String> params = new ArrayList<>();
      for (Type t : parameters()) {
        params.add(t.getClassName());
      }
      return className + "#" + name + "(" + String.join(",", params) + ")";
    }
  }

  /** What one point inserts into its method: at entry, or before each return. */
  private static final class Insert {
    final WeavePoint point;
    final boolean atEntry;
    final int slot;
    final Type argument;
    final Type returns;
    final Method method;

    Insert(WeavePoint point, boolean atEntry, int slot, Type argument, Type returns,
        Method method) {
      this.point = point;
      this.atEntry = atEntry;
      this.slot = slot;
      this.argument = argument;
      this.returns = returns;
      this.method = method;
    }
  }

  /** Inserts the gate calls of one method's points as its code is copied. */
  private static final class Inserting extends MethodVisitor {
    /** The most each insert pushes on top of what the method's own code has there. */
    private static final int EXTRA_STACK = 6;

    private final List<Insert> inserts;
    private final boolean frames;

    Inserting(MethodVisitor writer, List<Insert> inserts, boolean frames) {
      super(Opcodes.ASM9, writer);
      this.inserts = inserts;
      this.frames = frames;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      for (Insert i : inserts) {
        if (!i.atEntry) {
          continue;
        }
        if (i.point.role() == WeavePoint.Role.CACHE_ADMIT) {
          cacheAdmit(i);
        } else {
          // slot = Gate.depth(site, slot)
          push(i.point.id());
          mv.visitVarInsn(Opcodes.ILOAD, i.slot);
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depth", "(II)I", false);
          mv.visitVarInsn(Opcodes.ISTORE, i.slot);
        }
      }
    }

    /**
     * {@code Object r = Gate.admit(site, value); if (r == DECLINED) return <default>; if (r
     * instanceof T) value = (T) r;} (a copy the parameter cannot hold leaves the value as it was).
     */
    private void cacheAdmit(Insert i) {
      push(i.point.id());
      mv.visitVarInsn(Opcodes.ALOAD, i.slot);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "admit",
          "(ILjava/lang/Object;)Ljava/lang/Object;", false);
      mv.visitInsn(Opcodes.DUP);
      mv.visitFieldInsn(Opcodes.GETSTATIC, GATE, "DECLINED", "Ljava/lang/Object;");
      Label admitted = new Label();
      mv.visitJumpInsn(Opcodes.IF_ACMPNE, admitted);
      mv.visitInsn(Opcodes.POP);
      returnDefault(i.returns);
      mv.visitLabel(admitted);
      sameLocalsOneObject();
      String type = i.argument.getInternalName();
      if (!type.equals(OBJECT)) {
        Label store = new Label();
        mv.visitInsn(Opcodes.DUP);
        mv.visitTypeInsn(Opcodes.INSTANCEOF, type);
        mv.visitJumpInsn(Opcodes.IFNE, store);
        mv.visitInsn(Opcodes.POP);
        mv.visitVarInsn(Opcodes.ALOAD, i.slot);
        mv.visitLabel(store);
        sameLocalsOneObject();
        mv.visitTypeInsn(Opcodes.CHECKCAST, type);
      }
      mv.visitVarInsn(Opcodes.ASTORE, i.slot);
    }

    /** A frame at the method's entry locals with one object on the stack. */
    private void sameLocalsOneObject() {
      if (frames) {
        mv.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {OBJECT});
      }
    }

    private void returnDefault(Type returns) {
      switch (returns.getSort()) {
        case Type.VOID:
          mv.visitInsn(Opcodes.RETURN);
          break;
        case Type.LONG:
          mv.visitInsn(Opcodes.LCONST_0);
          mv.visitInsn(Opcodes.LRETURN);
          break;
        case Type.FLOAT:
          mv.visitInsn(Opcodes.FCONST_0);
          mv.visitInsn(Opcodes.FRETURN);
          break;
        case Type.DOUBLE:
          mv.visitInsn(Opcodes.DCONST_0);
          mv.visitInsn(Opcodes.DRETURN);
          break;
        case Type.OBJECT:
        case Type.ARRAY:
          mv.visitInsn(Opcodes.ACONST_NULL);
          mv.visitInsn(Opcodes.ARETURN);
          break;
        default: // boolean, byte, char, short, int
          mv.visitInsn(Opcodes.ICONST_0);
          mv.visitInsn(Opcodes.IRETURN);
      }
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
        for (Insert i : inserts) {
          if (!i.atEntry) {
            beforeReturn(i, opcode);
          }
        }
      }
      super.visitInsn(opcode);
    }

    private void beforeReturn(Insert i, int opcode) {
      switch (i.point.role()) {
        case DEPTH_RETURN:
          // [depth] -> [Gate.depth(site, depth)]
          push(i.point.id());
          mv.visitInsn(Opcodes.SWAP);
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depth", "(II)I", false);
          break;
        case BATCH:
          // [batch] -> [batch], Gate.batch(site, batch)
          mv.visitInsn(Opcodes.DUP);
          push(i.point.id());
          mv.visitInsn(Opcodes.SWAP);
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "batch", "(ILjava/lang/Object;)V",
              false);
          break;
        case RELEASE:
          release(i, opcode);
          break;
        default:
          break;
      }
    }

    /** {@code Gate.release(returned, site, new Object[] {reference arguments})}. */
    private void release(Insert i, int opcode) {
      if (opcode == Opcodes.ARETURN) {
        mv.visitInsn(Opcodes.DUP);
      } else {
        mv.visitInsn(Opcodes.ACONST_NULL);
      }
      push(i.point.id());
      Type[] params = i.method.parameters();
      boolean anyReference = false;
      for (Type t : params) {
        anyReference |= t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
      }
      if (!anyReference) {
        mv.visitInsn(Opcodes.ACONST_NULL);
      } else {
        push(params.length);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
        for (int p = 0; p < params.length; p++) {
          int sort = params[p].getSort();
          if (sort == Type.OBJECT || sort == Type.ARRAY) {
            mv.visitInsn(Opcodes.DUP);
            push(p);
            mv.visitVarInsn(Opcodes.ALOAD, i.method.slot(p));
            mv.visitInsn(Opcodes.AASTORE);
          }
        }
      }
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "release",
          "(Ljava/lang/Object;I[Ljava/lang/Object;)V", false);
    }

    private void push(int value) {
      if (value >= -1 && value <= 5) {
        mv.visitInsn(Opcodes.ICONST_0 + value);
      } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
        mv.visitIntInsn(Opcodes.BIPUSH, value);
      } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
        mv.visitIntInsn(Opcodes.SIPUSH, value);
      } else {
        mv.visitLdcInsn(value);
      }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      super.visitMaxs(maxStack + EXTRA_STACK, maxLocals);
    }
  }

  /** A point the weaver refuses, with the one line that says why. */
  static final class WeaveException extends Exception {
    private static final long serialVersionUID = 1L;

    WeaveException(String message) {
      super(message, null, false, false);
    }
  }
}
