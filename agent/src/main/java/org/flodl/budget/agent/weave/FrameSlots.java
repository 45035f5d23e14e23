package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * The fresh local slots one method's inserted code keeps values in, and the stack-map frames at the
 * branches it inserts: slots start past every local live at the insert, frames are what the
 * method's {@link AnalyzerAdapter} tracks there (none in a class without frames, whose fresh slots
 * start past the method's own).
 */
final class FrameSlots {
  static final String OBJECT = "java/lang/Object";

  private final MethodVisitor mv;
  private final AnalyzerAdapter analyzer;
  private final int spillBase;
  private int extraLocals;

  /**
   * Returns the slots and frames of code written to {@code mv}; {@code analyzer} is null in a class
   * without frames, where fresh slots start at {@code spillBase}.
   */
  FrameSlots(MethodVisitor mv, AnalyzerAdapter analyzer, int spillBase) {
    this.mv = mv;
    this.analyzer = analyzer;
    this.spillBase = spillBase;
  }

  /** Returns whether the analyzer has no frame here (code that only a jump could reach). */
  boolean unknown() {
    return analyzer != null && analyzer.locals == null;
  }

  /** Returns the analyzer's locals here (one entry a slot), or null in a class without frames. */
  List<Object> analyzerLocals() {
    return analyzer == null ? null : analyzer.locals;
  }

  /** Returns the first local slot nothing live uses here. */
  int freeSlot() {
    return analyzer != null ? analyzer.locals.size() : spillBase;
  }

  /** Returns a slot per argument from {@code base} on, reserved. */
  int[] slots(Type[] args, int base) {
    int[] slots = new int[args.length];
    int s = base;
    for (int i = 0; i < args.length; i++) {
      slots[i] = s;
      s += args[i].getSize();
    }
    reserve(s);
    return slots;
  }

  /** Reserves the local slots below {@code slotsEnd}. */
  void reserve(int slotsEnd) {
    extraLocals = Math.max(extraLocals, slotsEnd);
  }

  /** Returns the end of the slots reserved, for the method's max locals. */
  int extraLocals() {
    return extraLocals;
  }

  /** [args] -> []: the arguments on the stack into their slots. */
  void storeArguments(Type[] args, int[] slots) {
    for (int i = args.length - 1; i >= 0; i--) {
      mv.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), slots[i]);
    }
  }

  /** [] -> [args]: the arguments back from their slots. */
  void loadArguments(Type[] args, int[] slots) {
    for (int i = 0; i < args.length; i++) {
      mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slots[i]);
    }
  }

  /** [r] -> slot = r if the slot's type holds it, else the slot keeps its value. */
  void storeChecked(Type type, int slot, Object[] locals, Object[] stackWithR) {
    String internal = type.getSort() == Type.ARRAY ? type.getDescriptor() : type.getInternalName();
    if (!internal.equals(OBJECT)) {
      Label store = new Label();
      mv.visitInsn(Opcodes.DUP);
      mv.visitTypeInsn(Opcodes.INSTANCEOF, internal);
      mv.visitJumpInsn(Opcodes.IFNE, store);
      mv.visitInsn(Opcodes.POP);
      mv.visitVarInsn(Opcodes.ALOAD, slot);
      mv.visitLabel(store);
      frame(locals, stackWithR);
      mv.visitTypeInsn(Opcodes.CHECKCAST, internal);
    }
    mv.visitVarInsn(Opcodes.ASTORE, slot);
  }

  /**
   * Pushes {@code new Object[] {the values of indices, boxed}}, each of its type in its slot; where
   * the locals {@code now} (null: not looked at) show a slot holding something else (the method
   * reassigned a parameter), null.
   */
  void boxedArray(List<Integer> indices, Type[] types, int[] slots, List<Object> now) {
    Push.constant(mv, indices.size());
    mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
    for (int j = 0; j < indices.size(); j++) {
      int i = indices.get(j);
      mv.visitInsn(Opcodes.DUP);
      Push.constant(mv, j);
      if (i < 0) {
        mv.visitInsn(Opcodes.ACONST_NULL); // the returned value: the gate puts it in
      } else if (now != null && !holds(now, slots[i], types[i])) {
        mv.visitInsn(Opcodes.ACONST_NULL);
      } else {
        mv.visitVarInsn(types[i].getOpcode(Opcodes.ILOAD), slots[i]);
        Push.box(mv, types[i]);
      }
      mv.visitInsn(Opcodes.AASTORE);
    }
  }

  private static boolean holds(List<Object> locals, int slot, Type t) {
    if (slot >= locals.size()) {
      return false;
    }
    Object v = locals.get(slot);
    if (ShapeRules.isReference(t)) {
      return v instanceof String || Opcodes.NULL.equals(v);
    }
    return frameType(t).equals(v);
  }

  // ------------------------------------------------------------------------------ frames

  /** Emits an expanded frame, in a class that has frames. */
  void frame(Object[] locals, Object[] stack) {
    if (analyzer != null) {
      mv.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    }
  }

  /** Returns the analyzer's locals in frame form (a long or double one entry), plus extra. */
  Object[] frameLocals(List<Object> extra) {
    if (analyzer == null || analyzer.locals == null) {
      return new Object[0];
    }
    return concat(compact(analyzer.locals, 0), extra);
  }

  /** Returns the analyzer's stack without its top {@code dropSlots} slots, in frame form. */
  Object[] frameStack(int dropSlots, List<Object> extra) {
    if (analyzer == null || analyzer.stack == null) {
      return new Object[0];
    }
    return concat(compact(analyzer.stack, dropSlots), extra);
  }

  /** Returns the type of the stack entry {@code slotsFromTop} slots below the top. */
  Object stackEntry(int slotsFromTop) {
    if (analyzer == null || analyzer.stack == null) {
      return OBJECT;
    }
    List<Object> s = analyzer.stack;
    int i = s.size() - 1 - slotsFromTop;
    return i >= 0 ? s.get(i) : OBJECT;
  }

  private static Object[] compact(List<Object> list, int dropSlots) {
    List<Object> out = new ArrayList<>();
    int n = list.size() - dropSlots;
    for (int i = 0; i < n; i++) {
      Object t = list.get(i);
      out.add(t);
      if (Opcodes.LONG.equals(t) || Opcodes.DOUBLE.equals(t)) {
        i++; // the TOP half that follows
      }
    }
    return out.toArray();
  }

  /** Returns the frame types of {@code args}, as kept in their slots. */
  static List<Object> spilledTypes(Type[] args) {
    List<Object> out = new ArrayList<>();
    for (Type t : args) {
      out.add(frameType(t));
    }
    return out;
  }

  /** Returns {@code a} followed by {@code b}. */
  static Object[] concat(Object[] a, List<Object> b) {
    Object[] out = new Object[a.length + b.size()];
    System.arraycopy(a, 0, out, 0, a.length);
    for (int i = 0; i < b.size(); i++) {
      out[a.length + i] = b.get(i);
    }
    return out;
  }

  /** Returns the frame entry of a value of type {@code t}. */
  static Object frameType(Type t) {
    switch (t.getSort()) {
      case Type.BOOLEAN:
      case Type.BYTE:
      case Type.CHAR:
      case Type.SHORT:
      case Type.INT:
        return Opcodes.INTEGER;
      case Type.FLOAT:
        return Opcodes.FLOAT;
      case Type.LONG:
        return Opcodes.LONG;
      case Type.DOUBLE:
        return Opcodes.DOUBLE;
      case Type.ARRAY:
        return t.getDescriptor();
      default:
        return t.getInternalName();
    }
  }

  /** Returns the slots {@code args} take. */
  static int size(Type[] args) {
    int n = 0;
    for (Type t : args) {
      n += t.getSize();
    }
    return n;
  }
}
