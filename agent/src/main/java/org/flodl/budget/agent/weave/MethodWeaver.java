package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * Weaves one method as its code is copied: its entry, returns and end go to a {@link BodyInserter},
 * its calls to a {@link CallInserter}, both writing through the same {@link FrameSlots}, and the
 * method's max stack and locals make room for what they add.
 */
final class MethodWeaver extends MethodVisitor {
  /** The most the inserted code pushes past what the method's own code has there. */
  private static final int EXTRA_STACK = 8;

  /** Per rule woven in the method, what was woven (one phrase). */
  final Map<Rule, String> done = new LinkedHashMap<>();

  /** The rules the method or its calls refused, each with its line. */
  final List<Plan.Failure> failures = new ArrayList<>();

  private final FrameSlots frameSlots;
  private final BodyInserter body;
  private final CallInserter calls;

  /**
   * Returns the weaver of method {@code name}{@code descriptor}, copying it to {@code next} ({@code
   * analyzer} where the class has frames, else null) with {@code inserts} and the calls of {@code
   * calls}; {@code maxLocals} is the method's own, read ahead in a class without frames.
   */
  MethodWeaver(
      MethodVisitor next,
      AnalyzerAdapter analyzer,
      int access,
      String name,
      String descriptor,
      List<Plan.BodyInsert> inserts,
      List<Rule> calls,
      Weaver.Owners owners,
      int maxLocals) {
    super(Opcodes.ASM9, next);
    Type[] params = Type.getArgumentTypes(descriptor);
    int paramSlots = ((access & Opcodes.ACC_STATIC) != 0 ? 0 : 1) + FrameSlots.size(params);
    String methodText = name + "(" + typeList(params) + ")";
    this.frameSlots = new FrameSlots(next, analyzer, Math.max(maxLocals, paramSlots));
    this.body =
        new BodyInserter(
            next, frameSlots, access, name, descriptor, methodText, inserts, done, failures);
    this.calls = new CallInserter(next, frameSlots, calls, owners, methodText, failures);
  }

  @Override
  public void visitCode() {
    super.visitCode();
    body.atEntry();
  }

  @Override
  public void visitInsn(int opcode) {
    if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
      body.beforeReturn(opcode);
    }
    super.visitInsn(opcode);
  }

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    if (!calls.insert(opcode, owner, name, descriptor, isInterface)) {
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    body.atEnd();
    super.visitMaxs(maxStack + EXTRA_STACK, Math.max(maxLocals, frameSlots.extraLocals()));
  }

  @Override
  public void visitEnd() {
    calls.countsInto(done);
    super.visitEnd();
  }

  /** Returns the simple names of {@code types}, comma-separated. */
  private static String typeList(Type[] types) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < types.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      String n = types[i].getClassName();
      b.append(n.substring(n.lastIndexOf('.') + 1));
    }
    return b.toString();
  }
}
