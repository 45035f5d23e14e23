package org.flodl.budget.agent.weave;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes the instructions by which inserted code makes one stack value: an int constant, a type's
 * default, a primitive's box in place of the primitive.
 */
final class Push {
  private Push() {}

  /** Pushes {@code value} in its shortest form. */
  static void constant(MethodVisitor mv, int value) {
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

  /** Pushes the default of {@code t}: nothing for void, else null, false or 0. */
  static void defaultOf(MethodVisitor mv, Type t) {
    switch (t.getSort()) {
      case Type.VOID:
        break;
      case Type.LONG:
        mv.visitInsn(Opcodes.LCONST_0);
        break;
      case Type.FLOAT:
        mv.visitInsn(Opcodes.FCONST_0);
        break;
      case Type.DOUBLE:
        mv.visitInsn(Opcodes.DCONST_0);
        break;
      case Type.OBJECT:
      case Type.ARRAY:
        mv.visitInsn(Opcodes.ACONST_NULL);
        break;
      default: // boolean, byte, char, short, int
        mv.visitInsn(Opcodes.ICONST_0);
    }
  }

  /**
   * Replaces the declined call's answer on top of the stack (an Object the gate checked to be an
   * instance of {@code t}, or null) with a {@code t}: nothing for void, the reference cast, a
   * boolean from its box, the default of another primitive.
   */
  static void answerAs(MethodVisitor mv, Type t) {
    switch (t.getSort()) {
      case Type.OBJECT:
      case Type.ARRAY:
        mv.visitTypeInsn(
            Opcodes.CHECKCAST, t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName());
        break;
      case Type.BOOLEAN:
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, Weaver.GATE, "asBoolean", "(Ljava/lang/Object;)Z", false);
        break;
      default:
        mv.visitInsn(Opcodes.POP);
        defaultOf(mv, t);
    }
  }

  /** Replaces the {@code t} on top of the stack with its box; a reference stays as it is. */
  static void box(MethodVisitor mv, Type t) {
    String box;
    switch (t.getSort()) {
      case Type.BOOLEAN:
        box = "java/lang/Boolean";
        break;
      case Type.BYTE:
        box = "java/lang/Byte";
        break;
      case Type.CHAR:
        box = "java/lang/Character";
        break;
      case Type.SHORT:
        box = "java/lang/Short";
        break;
      case Type.INT:
        box = "java/lang/Integer";
        break;
      case Type.FLOAT:
        box = "java/lang/Float";
        break;
      case Type.LONG:
        box = "java/lang/Long";
        break;
      case Type.DOUBLE:
        box = "java/lang/Double";
        break;
      default:
        return;
    }
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, box, "valueOf", "(" + t.getDescriptor() + ")L" + box + ";", false);
  }
}
