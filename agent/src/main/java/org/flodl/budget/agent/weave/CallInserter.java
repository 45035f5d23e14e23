package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes the gate's code around each call in one method that a call rule matches: the call's owner
 * as compiled a subtype of the rule's type (a constructor's the type itself), its name and
 * parameters the rule's. A matching call whose shape the rule's role does not fit ({@link
 * ShapeRules}), or that only a jump reaches, is copied as it is, the former failed.
 */
final class CallInserter {
  private static final String GATE = Weaver.GATE;
  private static final String OBJECT = FrameSlots.OBJECT;

  private final MethodVisitor mv;
  private final FrameSlots frameSlots;
  private final List<Rule> calls;
  private final Weaver.Owners owners;
  private final String methodText;
  private final List<Plan.Failure> failures;
  private final Map<Rule, Integer> callCounts = new HashMap<>();

  /**
   * Returns the inserter writing to {@code mv} the {@code calls} rules' code in method {@code
   * methodText}, adding to {@code failures} the calls it refuses.
   */
  CallInserter(
      MethodVisitor mv,
      FrameSlots frameSlots,
      List<Rule> calls,
      Weaver.Owners owners,
      String methodText,
      List<Plan.Failure> failures) {
    this.mv = mv;
    this.frameSlots = frameSlots;
    this.calls = calls;
    this.owners = owners;
    this.methodText = methodText;
    this.failures = failures;
  }

  /** Returns whether it wrote the call with a rule's code; false: the caller copies it as is. */
  boolean insert(
      int opcode, String callOwner, String name, String descriptor, boolean isInterface) {
    Rule r = calls.isEmpty() ? null : matchingCall(callOwner, name, descriptor, opcode);
    if (r == null || frameSlots.unknown()) {
      return false;
    }
    Type[] args = Type.getArgumentTypes(descriptor);
    Type returns = Type.getReturnType(descriptor);
    boolean receiver = opcode != Opcodes.INVOKESTATIC;
    String problem = ShapeRules.callProblem(r, args, returns, receiver, name.equals("<init>"));
    if (problem != null) {
      failures.add(new Plan.Failure(r, problem + " (a call in " + methodText + ")"));
      return false;
    }
    Integer n = callCounts.get(r);
    callCounts.put(r, n == null ? 1 : n + 1);
    switch (r.role()) {
      case ADMIT_ARG:
        admitCall(r, opcode, callOwner, name, descriptor, isInterface, args, returns, receiver);
        break;
      case ADMIT_RETURN:
        returnedCall(r, opcode, callOwner, name, descriptor, isInterface, args, returns, receiver);
        break;
      case DEPTH_ARG:
        depthCall(r, opcode, callOwner, name, descriptor, isInterface, args);
        break;
      case DEPTH_RETURN:
        mv.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
        Push.constant(mv, r.id());
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depthCall", "(II)I", false);
        break;
      case RELEASE:
        releaseCall(r, opcode, callOwner, name, descriptor, isInterface, args, returns);
        break;
      default: // BATCH
        mv.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
        mv.visitInsn(Opcodes.DUP);
        Push.constant(mv, r.id());
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, GATE, "batchCall", "(Ljava/lang/Object;I)V", false);
    }
    return true;
  }

  /** Puts in {@code done}, for each rule whose calls it wove, how many and where. */
  void countsInto(Map<Rule, String> done) {
    for (Map.Entry<Rule, Integer> e : callCounts.entrySet()) {
      done.put(
          e.getKey(),
          e.getValue() + " call(s) to " + e.getKey().method().methodName() + " in " + methodText);
    }
  }

  private Rule matchingCall(String callOwner, String name, String descriptor, int opcode) {
    if (callOwner.startsWith("[") || opcode == Opcodes.INVOKEDYNAMIC) {
      return null;
    }
    for (Rule r : calls) {
      if (r.method().methodName().equals(name)
          && MethodMatcher.parametersMatch(descriptor, r.method().parameterTypes())
          && (name.equals("<init>")
              ? callOwner.equals(r.type())
              : owners.isSubtype(callOwner, r.type()))) {
        return r;
      }
    }
    return null;
  }

  /**
   * {@code [recv, args]}: the arguments into fresh slots; {@code r = Gate.admitCall(value, point)};
   * declined: {@code (R) Gate.declinedCall(recv, args, point, "R")} (the call's answer from its
   * decline call) or {@code pop recv} and the default; else the call with {@code value = r}.
   */
  private void admitCall(
      Rule r,
      int opcode,
      String callOwner,
      String name,
      String descriptor,
      boolean itf,
      Type[] args,
      Type returns,
      boolean receiver) {
    Object[] locals0 = frameSlots.frameLocals(List.of());
    int base = frameSlots.freeSlot();
    int[] slots = frameSlots.slots(args, base);
    List<Object> spilled = FrameSlots.spilledTypes(args);
    Object[] belowArgs = frameSlots.frameStack(FrameSlots.size(args), List.of());
    Object[] belowAll =
        frameSlots.frameStack(FrameSlots.size(args) + (receiver ? 1 : 0), List.of());
    frameSlots.storeArguments(args, slots);
    mv.visitVarInsn(Opcodes.ALOAD, slots[r.argument()]);
    Push.constant(mv, r.id());
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, GATE, "admitCall", "(Ljava/lang/Object;I)Ljava/lang/Object;", false);
    mv.visitInsn(Opcodes.DUP);
    mv.visitFieldInsn(Opcodes.GETSTATIC, GATE, "DECLINED", "Ljava/lang/Object;");
    Label admitted = new Label();
    Label after = new Label();
    mv.visitJumpInsn(Opcodes.IF_ACMPNE, admitted);
    mv.visitInsn(Opcodes.POP);
    if (receiver) {
      if (r.declineArgs() != null) {
        // the call answers as if stored and evicted at once: from the decline call
        slotArray(r.declineArgs(), args, slots);
        Push.constant(mv, r.id());
        mv.visitLdcInsn(returns.getClassName());
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            GATE,
            "declinedCall",
            "(Ljava/lang/Object;[Ljava/lang/Object;ILjava/lang/String;)Ljava/lang/Object;",
            false);
        Push.answerAs(mv, returns);
      } else {
        mv.visitInsn(Opcodes.POP);
        Push.defaultOf(mv, returns);
      }
    } else {
      Push.defaultOf(mv, returns);
    }
    mv.visitJumpInsn(Opcodes.GOTO, after);
    mv.visitLabel(admitted);
    Object[] withSpills = FrameSlots.concat(locals0, spilled);
    Object[] stackR = FrameSlots.concat(belowArgs, List.of(OBJECT));
    frameSlots.frame(withSpills, stackR);
    frameSlots.storeChecked(args[r.argument()], slots[r.argument()], withSpills, stackR);
    frameSlots.loadArguments(args, slots);
    mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
    mv.visitLabel(after);
    frameSlots.frame(
        withSpills,
        returns.getSort() == Type.VOID
            ? belowAll
            : FrameSlots.concat(belowAll, List.of(FrameSlots.frameType(returns))));
    mv.visitInsn(Opcodes.NOP);
  }

  /**
   * The call as written, then {@code if (Gate.returnedCall(v, point)) Gate.declineCall(recv, args,
   * point)} (the receiver and arguments kept in fresh slots for that).
   */
  private void returnedCall(
      Rule r,
      int opcode,
      String callOwner,
      String name,
      String descriptor,
      boolean itf,
      Type[] args,
      Type returns,
      boolean receiver) {
    if (r.declineArgs() == null || !receiver) {
      mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
      mv.visitInsn(Opcodes.DUP);
      Push.constant(mv, r.id());
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC, GATE, "returnedCall", "(Ljava/lang/Object;I)Z", false);
      mv.visitInsn(Opcodes.POP);
      return;
    }
    Object[] locals0 = frameSlots.frameLocals(List.of());
    Object receiverType = frameSlots.stackEntry(FrameSlots.size(args));
    int base = frameSlots.freeSlot();
    int[] slots = frameSlots.slots(args, base);
    int recvSlot = base + FrameSlots.size(args);
    List<Object> spilled = new ArrayList<>(FrameSlots.spilledTypes(args));
    spilled.add(receiverType);
    frameSlots.reserve(recvSlot + 1);
    Object[] belowAll = frameSlots.frameStack(FrameSlots.size(args) + 1, List.of());
    frameSlots.storeArguments(args, slots);
    mv.visitInsn(Opcodes.DUP);
    mv.visitVarInsn(Opcodes.ASTORE, recvSlot);
    frameSlots.loadArguments(args, slots);
    mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
    mv.visitInsn(Opcodes.DUP);
    Push.constant(mv, r.id());
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "returnedCall", "(Ljava/lang/Object;I)Z", false);
    Label kept = new Label();
    mv.visitJumpInsn(Opcodes.IFEQ, kept);
    mv.visitVarInsn(Opcodes.ALOAD, recvSlot);
    slotArray(r.declineArgs(), args, slots);
    Push.constant(mv, r.id());
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC,
        GATE,
        "declineCall",
        "(Ljava/lang/Object;[Ljava/lang/Object;I)V",
        false);
    mv.visitLabel(kept);
    frameSlots.frame(
        FrameSlots.concat(locals0, spilled),
        FrameSlots.concat(belowAll, List.of(FrameSlots.frameType(returns))));
    mv.visitInsn(Opcodes.NOP);
  }

  /** The arguments above the depth into fresh slots, the depth through the gate, back. */
  private void depthCall(
      Rule r,
      int opcode,
      String callOwner,
      String name,
      String descriptor,
      boolean itf,
      Type[] args) {
    int k = r.argument();
    int base = frameSlots.freeSlot();
    int[] slots = frameSlots.slots(args, base);
    for (int i = args.length - 1; i > k; i--) {
      mv.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), slots[i]);
    }
    Push.constant(mv, r.id());
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depthCall", "(II)I", false);
    for (int i = k + 1; i < args.length; i++) {
      mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slots[i]);
    }
    mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
  }

  /** The call, then {@code Gate.releaseCall(returned, args, point)}. */
  private void releaseCall(
      Rule r,
      int opcode,
      String callOwner,
      String name,
      String descriptor,
      boolean itf,
      Type[] args,
      Type returns) {
    List<Integer> refs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (ShapeRules.isReference(args[i])) {
        refs.add(i);
      }
    }
    int[] slots = null;
    if (!refs.isEmpty()) {
      slots = frameSlots.slots(args, frameSlots.freeSlot());
      frameSlots.storeArguments(args, slots);
      frameSlots.loadArguments(args, slots);
    }
    mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
    if (ShapeRules.isReference(returns)) {
      mv.visitInsn(Opcodes.DUP);
    } else {
      mv.visitInsn(Opcodes.ACONST_NULL);
    }
    if (refs.isEmpty()) {
      mv.visitInsn(Opcodes.ACONST_NULL);
    } else {
      slotArray(refs, args, slots);
    }
    Push.constant(mv, r.id());
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC,
        GATE,
        "releaseCall",
        "(Ljava/lang/Object;[Ljava/lang/Object;I)V",
        false);
  }

  /** Pushes {@code new Object[] {slot values of indices, boxed}}. */
  private void slotArray(List<Integer> indices, Type[] args, int[] slots) {
    frameSlots.boxedArray(indices, args, slots, null);
  }
}
