package org.flodl.budget.agent.suggest;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * Where a stack value came from, as far as the bytecode shows: a field, a parameter, a call, a
 * {@code new}, a constant or unknown, in words for the evidence, with the instruction that made it.
 * {@link #of} follows a value back through copies, casts and local variables, a few hops at most,
 * on the frames ASM's {@link org.objectweb.asm.tree.analysis.SourceInterpreter} gives.
 *
 * @param kind {@code field}, {@code param}, {@code call}, {@code new}, {@code constant} or {@code
 *     unknown}
 * @param text the origin in words, e.g. {@code argument 0 ('key')}
 * @param insn the instruction that made the value, or null when unknown
 */
record Origin(String kind, String text, AbstractInsnNode insn) {
  static final Origin UNKNOWN = new Origin("unknown", "a value", null);

  /** Returns where {@code v}, a value on one of {@code m}'s {@code frames}, came from. */
  static Origin of(MethodNode m, Frame<SourceValue>[] frames, SourceValue v) {
    return trace(m, frames, v, 0);
  }

  /** Returns the value {@code fromTop} entries below the top of {@code frame}'s stack. */
  static SourceValue top(Frame<SourceValue> frame, int fromTop) {
    return frame.getStack(frame.getStackSize() - 1 - fromTop);
  }

  /** Follows {@code v} back to where it was made: a field, a parameter, a call, a constant. */
  private static Origin trace(MethodNode m, Frame<SourceValue>[] frames, SourceValue v, int hops) {
    if (v == null || v.insns.size() != 1 || hops > 6) {
      return UNKNOWN;
    }
    AbstractInsnNode p = v.insns.iterator().next();
    Frame<SourceValue> at = frames[m.instructions.indexOf(p)];
    int op = p.getOpcode();
    if (p instanceof FieldInsnNode f && (op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC)) {
      return new Origin("field", "the field '" + f.name + "'", f);
    }
    if (op == Opcodes.DUP || op == Opcodes.CHECKCAST) {
      return at == null ? UNKNOWN : trace(m, frames, top(at, 0), hops + 1);
    }
    if (p instanceof VarInsnNode load && op >= Opcodes.ILOAD && op <= Opcodes.ALOAD) {
      int param = parameterOf(m, load.var);
      if (at == null) {
        return UNKNOWN;
      }
      SourceValue stored = at.getLocal(load.var);
      if (param >= 0 && stored.insns.isEmpty()) {
        return new Origin(
            "param", "argument " + param + " ('" + localName(m, load.var) + "')", load);
      }
      if (stored.insns.size() == 1 && stored.insns.iterator().next() instanceof VarInsnNode store) {
        Frame<SourceValue> before = frames[m.instructions.indexOf(store)];
        return before == null ? UNKNOWN : trace(m, frames, top(before, 0), hops + 1);
      }
      return UNKNOWN;
    }
    if (p instanceof MethodInsnNode c) {
      String what =
          c.owner.equals("java/nio/ByteBuffer")
                  && (c.name.equals("slice") || c.name.equals("duplicate"))
              ? "a slice of a buffer (a view of what it pins)"
              : "the result of "
                  + (c.name.equals("<init>") ? "new " + SiteFinder.simpleName(c.owner) : c.name)
                  + "("
                  + SiteFinder.params(c.desc)
                  + ")";
      return new Origin("call", what, c);
    }
    if (p instanceof TypeInsnNode n && op == Opcodes.NEW) {
      return new Origin("new", "a new " + SiteFinder.simpleName(n.desc), n);
    }
    if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5
        || p instanceof IntInsnNode && op != Opcodes.NEWARRAY
        || p instanceof LdcInsnNode) {
      return new Origin("constant", "a constant", p);
    }
    if (op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY) {
      return new Origin("new", "a new array", p);
    }
    return UNKNOWN;
  }

  /** Returns the 0-based parameter index that local slot {@code slot} holds, or -1. */
  private static int parameterOf(MethodNode m, int slot) {
    int s = (m.access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
    Type[] args = Type.getArgumentTypes(m.desc);
    for (int i = 0; i < args.length; i++) {
      if (s == slot) {
        return i;
      }
      s += args[i].getSize();
    }
    return -1;
  }

  /** Returns the name of local slot {@code slot}: from the debug tables, else {@code argN}. */
  private static String localName(MethodNode m, int slot) {
    if (m.localVariables != null) {
      for (LocalVariableNode l : m.localVariables) {
        if (l.index == slot) {
          return l.name;
        }
      }
    }
    int p = parameterOf(m, slot);
    if (m.parameters != null && p >= 0 && p < m.parameters.size()) {
      return m.parameters.get(p).name;
    }
    return "arg" + p;
  }
}
