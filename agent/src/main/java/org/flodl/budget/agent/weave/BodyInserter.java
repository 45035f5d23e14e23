package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes one method's body inserts as its code is copied: the gate's calls at entry and before each
 * return, and, where an admission counts the woven bodies a thread is in, a handler that gives that
 * count back when the method throws. An insert the method's shape refuses ({@link ShapeRules}) is
 * not woven but failed.
 */
final class BodyInserter {
  private static final String GATE = Weaver.GATE;
  private static final String OBJECT = FrameSlots.OBJECT;

  private final MethodVisitor mv;
  private final FrameSlots frameSlots;
  private final boolean isStatic;
  private final Type[] params;

  /** Each parameter's local slot. */
  private final int[] paramSlot;

  private final Type returns;
  private final int paramSlots;
  private final List<Plan.BodyInsert> inserts;
  private Label tryStart;
  private int guardPoint = -1;

  /**
   * Returns the inserter writing to {@code mv} the inserts of {@code all} that method {@code
   * name}{@code descriptor} allows, each put in {@code done}; the others go to {@code failures}.
   */
  BodyInserter(
      MethodVisitor mv,
      FrameSlots frameSlots,
      int access,
      String name,
      String descriptor,
      String methodText,
      List<Plan.BodyInsert> all,
      Map<Rule, String> done,
      List<Plan.Failure> failures) {
    this.mv = mv;
    this.frameSlots = frameSlots;
    this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
    this.params = Type.getArgumentTypes(descriptor);
    this.returns = Type.getReturnType(descriptor);
    this.paramSlot = new int[params.length];
    int slots = isStatic ? 0 : 1;
    for (int i = 0; i < params.length; i++) {
      paramSlot[i] = slots;
      slots += params[i].getSize();
    }
    this.paramSlots = slots;
    List<Plan.BodyInsert> ok = new ArrayList<>();
    for (Plan.BodyInsert b : all) {
      String why =
          ShapeRules.bodyProblem(
              b.rule(), params, returns, isStatic, name.equals("<init>"), methodText);
      if (why == null) {
        ok.add(b);
        done.put(b.rule(), b.rule().role().label() + " at " + methodText);
      } else {
        failures.add(new Plan.Failure(b.rule(), why));
      }
    }
    this.inserts = ok;
  }

  /** Writes what goes at the method's entry, before its own code. */
  void atEntry() {
    for (Plan.BodyInsert b : inserts) {
      switch (b.rule().role()) {
        case DEPTH_ARG:
          depthAtEntry(b);
          break;
        case ADMIT_ARG:
          admitAtEntry(b);
          guardPoint = b.point();
          break;
        case ADMIT_RETURN:
          Push.constant(mv, b.point());
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "enter", "(I)V", false);
          guardPoint = b.point();
          break;
        case HOOK:
          Push.constant(mv, b.point());
          loadReceiver();
          if (b.rule().contextArgs()) { // a hook that reads the call's arguments
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < params.length; i++) {
              all.add(i);
            }
            parameterArray(all, null);
            mv.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                GATE,
                "hook",
                "(ILjava/lang/Object;[Ljava/lang/Object;)V",
                false);
          } else {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "hook", "(ILjava/lang/Object;)V", false);
          }
          break;
        default:
          break;
      }
    }
    if (guardPoint >= 0) {
      tryStart = new Label();
      mv.visitLabel(tryStart);
    }
  }

  /**
   * {@code Object r = Gate.admit(point, this, value); if (r == DECLINED) { return [(R)
   * Gate.declined(point, this, args, "R")] | <default>; } if (r instanceof T) value = (T) r;}, with
   * {@code Gate.admitEntry(point, this, key, value)} where the rule names the entry's key.
   */
  private void admitAtEntry(Plan.BodyInsert b) {
    int slot = paramSlot[b.rule().argument()];
    Type type = params[b.rule().argument()];
    Object[] locals = frameSlots.frameLocals(List.of());
    Push.constant(mv, b.point());
    loadReceiver();
    int key = b.rule().key();
    if (key >= 0) { // the entry's key too: a cache that keeps a copy holds the charge by its entry
      mv.visitVarInsn(params[key].getOpcode(Opcodes.ILOAD), paramSlot[key]);
      Push.box(mv, params[key]);
    }
    mv.visitVarInsn(Opcodes.ALOAD, slot);
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC,
        GATE,
        key >= 0 ? "admitEntry" : "admit",
        key >= 0
            ? "(ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"
            : "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
        false);
    mv.visitInsn(Opcodes.DUP);
    mv.visitFieldInsn(Opcodes.GETSTATIC, GATE, "DECLINED", "Ljava/lang/Object;");
    Label admitted = new Label();
    mv.visitJumpInsn(Opcodes.IF_ACMPNE, admitted);
    mv.visitInsn(Opcodes.POP);
    if (b.rule().declineArgs() != null) {
      // the call answers as if stored and evicted at once: from the decline call
      Push.constant(mv, b.point());
      loadReceiver();
      parameterArray(b.rule().declineArgs(), null);
      mv.visitLdcInsn(returns.getClassName());
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC,
          GATE,
          "declined",
          "(ILjava/lang/Object;[Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;",
          false);
      Push.answerAs(mv, returns);
      mv.visitInsn(returns.getOpcode(Opcodes.IRETURN));
    } else {
      returnDefault(returns);
    }
    mv.visitLabel(admitted);
    frameSlots.frame(locals, new Object[] {OBJECT});
    frameSlots.storeChecked(type, slot, locals, new Object[] {OBJECT});
  }

  /**
   * {@code depth = Gate.depth(point, depth)}, or with every argument for an adapter; with an
   * executor: a depth of 0 nulls the executor and keeps the requested depth.
   */
  private void depthAtEntry(Plan.BodyInsert b) {
    Rule r = b.rule();
    int slot = paramSlot[r.argument()];
    Push.constant(mv, b.point());
    mv.visitVarInsn(Opcodes.ILOAD, slot);
    if (r.contextArgs()) {
      List<Integer> all = new ArrayList<>();
      for (int i = 0; i < params.length; i++) {
        all.add(i);
      }
      parameterArray(all, null);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depth", "(II[Ljava/lang/Object;)I", false);
    } else {
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depth", "(II)I", false);
    }
    if (r.executor() < 0) {
      mv.visitVarInsn(Opcodes.ISTORE, slot);
      return;
    }
    int decided = paramSlots; // free at entry: nothing has been stored past the parameters
    frameSlots.reserve(paramSlots + 1);
    mv.visitVarInsn(Opcodes.ISTORE, decided);
    int exec = paramSlot[r.executor()];
    mv.visitVarInsn(Opcodes.ALOAD, exec);
    mv.visitVarInsn(Opcodes.ILOAD, slot);
    mv.visitVarInsn(Opcodes.ILOAD, decided);
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, GATE, "executor", "(Ljava/lang/Object;II)Ljava/lang/Object;", false);
    Type execType = params[r.executor()];
    mv.visitTypeInsn(
        Opcodes.CHECKCAST,
        execType.getSort() == Type.ARRAY ? execType.getDescriptor() : execType.getInternalName());
    mv.visitVarInsn(Opcodes.ASTORE, exec);
    mv.visitVarInsn(Opcodes.ILOAD, slot);
    mv.visitVarInsn(Opcodes.ILOAD, decided);
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "prefetch", "(II)I", false);
    mv.visitVarInsn(Opcodes.ISTORE, slot);
  }

  /** Writes what goes before return instruction {@code opcode}, its value on the stack. */
  void beforeReturn(int opcode) {
    for (Plan.BodyInsert b : inserts) {
      if (b.rule().role() == Rule.Role.DEPTH_RETURN) {
        Push.constant(mv, b.point());
        mv.visitInsn(Opcodes.SWAP);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depth", "(II)I", false);
      }
    }
    for (Plan.BodyInsert b : inserts) {
      atReturn(b, opcode);
    }
  }

  private void atReturn(Plan.BodyInsert b, int opcode) {
    switch (b.rule().role()) {
      case ADMIT_ARG:
        Push.constant(mv, b.point());
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "leave", "(I)V", false);
        break;
      case ADMIT_RETURN:
        returnedAtExit(b);
        break;
      case BATCH:
        // [batch] -> [batch], Gate.batch(batch, point, this)
        mv.visitInsn(Opcodes.DUP);
        Push.constant(mv, b.point());
        loadReceiver();
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, GATE, "batch", "(Ljava/lang/Object;ILjava/lang/Object;)V", false);
        break;
      case RELEASE:
        releaseAtExit(b, opcode);
        break;
      default:
        break;
    }
  }

  /** [v] -> [v]; {@code if (Gate.returned(v, point, this)) Gate.decline(point, this, args)}. */
  private void returnedAtExit(Plan.BodyInsert b) {
    Object[] locals = frameSlots.frameLocals(List.of());
    Object[] stack = frameSlots.frameStack(0, List.of());
    mv.visitInsn(Opcodes.DUP);
    Push.constant(mv, b.point());
    loadReceiver();
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, GATE, "returned", "(Ljava/lang/Object;ILjava/lang/Object;)Z", false);
    if (b.rule().declineArgs() == null) {
      mv.visitInsn(Opcodes.POP);
      return;
    }
    Label kept = new Label();
    mv.visitJumpInsn(Opcodes.IFEQ, kept);
    Push.constant(mv, b.point());
    loadReceiver();
    parameterArray(b.rule().declineArgs(), frameSlots.analyzerLocals());
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, GATE, "decline", "(ILjava/lang/Object;[Ljava/lang/Object;)V", false);
    mv.visitLabel(kept);
    frameSlots.frame(locals, stack);
  }

  /** {@code Gate.release(returned, point, new Object[] {reference arguments})}. */
  private void releaseAtExit(Plan.BodyInsert b, int opcode) {
    if (opcode == Opcodes.ARETURN) {
      mv.visitInsn(Opcodes.DUP);
    } else {
      mv.visitInsn(Opcodes.ACONST_NULL);
    }
    Push.constant(mv, b.point());
    List<Integer> refs = new ArrayList<>();
    for (int p = 0; p < params.length; p++) {
      if (ShapeRules.isReference(params[p])) {
        refs.add(p);
      }
    }
    if (refs.isEmpty()) {
      mv.visitInsn(Opcodes.ACONST_NULL);
    } else {
      parameterArray(refs, frameSlots.analyzerLocals());
    }
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, GATE, "release", "(Ljava/lang/Object;I[Ljava/lang/Object;)V", false);
  }

  /**
   * Writes, after the method's own code, the handler that gives back the count of woven bodies the
   * thread is in when the method throws (where an admission counts them), and what it admitted.
   */
  void atEnd() {
    if (guardPoint >= 0) {
      Label end = new Label();
      Label handler = new Label();
      mv.visitLabel(end);
      mv.visitLabel(handler);
      frameSlots.frame(new Object[0], new Object[] {"java/lang/Throwable"});
      Push.constant(mv, guardPoint);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "threw", "(I)V", false);
      mv.visitInsn(Opcodes.ATHROW);
      mv.visitTryCatchBlock(tryStart, end, handler, null);
    }
  }

  /**
   * Pushes {@code new Object[] {parameters at indices, boxed}}; where the locals {@code now} show a
   * parameter's slot holding something else (the method reassigned it), null.
   */
  private void parameterArray(List<Integer> indices, List<Object> now) {
    frameSlots.boxedArray(indices, params, paramSlot, now);
  }

  private void loadReceiver() {
    if (isStatic) {
      mv.visitInsn(Opcodes.ACONST_NULL);
    } else {
      mv.visitVarInsn(Opcodes.ALOAD, 0);
    }
  }

  private void returnDefault(Type returns) {
    Push.defaultOf(mv, returns);
    mv.visitInsn(returns.getOpcode(Opcodes.IRETURN));
  }
}
