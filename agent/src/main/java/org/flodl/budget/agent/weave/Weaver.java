package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * Writes a {@link Plan} into one class file with ASM: a call to {@code Gate} at each body insert
 * and around each matching call instruction, nothing else. The class keeps its format (no member
 * is added or removed), so a class already loaded can be retransformed.
 *
 * <p>Bodies: a value argument goes to {@code Gate.admit} at entry and comes back as the value to
 * retain or as {@code Gate.DECLINED} (the method then returns its default: nothing, null, false or
 * 0, after the site's decline call); a returned value goes to {@code Gate.returned} before each
 * return (a declined one is evicted by the decline call); both count, per thread, the woven
 * bodies of their site the thread is in, so that when they nest (an override calling {@code
 * super}) the outermost decides: an exception handler of its own, after the method's own, keeps
 * that count right when the method throws. Depth arguments and returns, releases and batches are
 * single calls.
 *
 * <p>Calls: the arguments are kept in fresh local slots (past every local live at the call), the
 * gate decides, and the call runs with the admitted value or the policy's depth, or, declined, is
 * skipped: its receiver and arguments dropped and its return type's default pushed. Where the
 * inserted code branches, its stack-map frames are the ones ASM's {@link AnalyzerAdapter} tracks
 * through the method, so no class is loaded to compute them; a class file older than Java 6 has
 * no frames and gets none.
 */
final class Weaver {
  static final String GATE = "org/flodl/budget/agent/gate/Gate";
  private static final String OBJECT = "java/lang/Object";
  private static final String OBJECTS = "[Ljava/lang/Object;";
  private static final int FRAMES_SINCE = Opcodes.V1_6;

  private Weaver() {}

  /** Answers whether a call's owner as compiled is a site's type or one of its subtypes. */
  interface Owners {
    boolean isSubtype(String owner, String type);
  }

  /**
   * What weaving one class gave.
   *
   * @param bytes the woven class file, null when nothing was woven
   * @param woven per site, what was woven there (one phrase per method or per call rule)
   * @param failures the rules that could not be woven, each with its line
   */
  record Result(byte[] bytes, Map<String, List<String>> woven, java.util.Set<Integer> wovenRules,
      List<Plan.Failure> failures) {}

  /** Returns {@code original} with {@code plan} woven in; never throws. */
  static Result weave(byte[] original, Plan plan, Owners owners) {
    List<Plan.Failure> failures = new ArrayList<>(plan.failures());
    Map<String, List<String>> woven = new LinkedHashMap<>();
    String owner = plan.info().name();
    try {
      ClassReader reader = new ClassReader(original);
      boolean frames = plan.info().version() >= FRAMES_SINCE;
      Map<String, Integer> maxLocals = frames || plan.calls().isEmpty()
          ? Map.of() : maxLocals(reader);
      Map<String, List<Plan.BodyInsert>> byMethod = new HashMap<>();
      for (Plan.BodyInsert b : plan.body()) {
        String key = b.method().name() + b.method().descriptor();
        List<Plan.BodyInsert> inserts = byMethod.get(key); // no lambda: premain weaves (start-up)
        if (inserts == null) {
          inserts = new ArrayList<>();
          byMethod.put(key, inserts);
        }
        inserts.add(b);
      }
      ClassWriter writer = new ClassWriter(reader, 0);
      List<Inserting> methods = new ArrayList<>();
      reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor,
            String signature, String[] exceptions) {
          MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
          List<Plan.BodyInsert> inserts = byMethod.getOrDefault(name + descriptor, List.of());
          List<Rule> calls = new ArrayList<>();
          for (Rule r : plan.calls()) {
            if (inScope(r, name, descriptor)) {
              calls.add(r);
            }
          }
          if (mv == null || inserts.isEmpty() && calls.isEmpty()
              || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return mv;
          }
          AnalyzerAdapter analyzer = frames
              ? new AnalyzerAdapter(owner, access, name, descriptor, mv) : null;
          Inserting in = new Inserting(analyzer != null ? analyzer : mv, analyzer, owner, access,
              name, descriptor, inserts, calls, owners, maxLocals.getOrDefault(name + descriptor, 0));
          methods.add(in);
          return in;
        }
      }, frames ? ClassReader.EXPAND_FRAMES : 0);
      boolean any = false;
      java.util.Set<Integer> rules = new java.util.HashSet<>();
      for (Inserting m : methods) {
        for (Map.Entry<Rule, String> e : m.done.entrySet()) {
          List<String> done = woven.get(e.getKey().site());
          if (done == null) {
            done = new ArrayList<>();
            woven.put(e.getKey().site(), done);
          }
          done.add(e.getValue());
          rules.add(e.getKey().id());
          any = true;
        }
        failures.addAll(m.failures);
      }
      for (Rule r : plan.calls()) {
        boolean wove = false;
        for (Inserting m : methods) {
          wove |= m.done.containsKey(r);
        }
        if (!wove && (r.scope().kind() == org.flodl.budget.agent.config.Scope.Kind.METHOD)) {
          failures.add(new Plan.Failure(r, "no call to " + r.method() + " in " + r.scope()));
        }
      }
      return new Result(any ? writer.toByteArray() : null, woven, rules, failures);
    } catch (RuntimeException | LinkageError e) {
      for (Plan.BodyInsert b : plan.body()) {
        failures.add(new Plan.Failure(b.rule(), "weaving the class failed (" + e + ")"));
      }
      for (Rule r : plan.calls()) {
        failures.add(new Plan.Failure(r, "weaving the class failed (" + e + ")"));
      }
      return new Result(null, Map.of(), java.util.Set.of(), failures);
    }
  }

  /** Returns whether method {@code name}{@code descriptor} is in the call rule's scope. */
  private static boolean inScope(Rule r, String name, String descriptor) {
    if (name.equals("<clinit>") || !r.scope().coversMethod(name)) {
      return false;
    }
    if (r.scope().method() == null || !name.equals(r.scope().method().methodName())) {
      return true; // a class or package scope, or a lambda body of the named method
    }
    return MethodMatcher.parametersMatch(descriptor, r.scope().method().parameterTypes());
  }

  /** Returns each method's max locals (a class without frames: spill slots start past them). */
  private static Map<String, Integer> maxLocals(ClassReader reader) {
    Map<String, Integer> out = new HashMap<>();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMaxs(int maxStack, int maxLocals) {
            out.put(name + descriptor, maxLocals);
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return out;
  }

  /** Inserts one method's gate calls as its code is copied. */
  private static final class Inserting extends MethodVisitor {
    /** The most the inserted code pushes past what the method's own code has there. */
    private static final int EXTRA_STACK = 8;

    private final AnalyzerAdapter analyzer;
    private final String owner;
    private final boolean isStatic;
    private final String methodText;
    private final Type[] params;
    private final Type returns;
    private final int paramSlots;
    private final List<Plan.BodyInsert> inserts;
    private final List<Rule> calls;
    private final Owners owners;
    private int spillBase;
    private int extraLocals;
    private Label tryStart;
    private int guardPoint = -1;
    final Map<Rule, String> done = new LinkedHashMap<>();
    final List<Plan.Failure> failures = new ArrayList<>();
    private final Map<Rule, Integer> callCounts = new HashMap<>();

    Inserting(MethodVisitor next, AnalyzerAdapter analyzer, String owner, int access, String name,
        String descriptor, List<Plan.BodyInsert> inserts, List<Rule> calls, Owners owners,
        int maxLocals) {
      super(Opcodes.ASM9, next);
      this.analyzer = analyzer;
      this.owner = owner;
      this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
      this.params = Type.getArgumentTypes(descriptor);
      this.returns = Type.getReturnType(descriptor);
      int slots = isStatic ? 0 : 1;
      for (Type t : params) {
        slots += t.getSize();
      }
      this.paramSlots = slots;
      this.methodText = name + "(" + typeList(params) + ")";
      this.inserts = checked(inserts, name);
      this.calls = calls;
      this.owners = owners;
      this.spillBase = Math.max(maxLocals, slots);
    }

    /** Returns the inserts the method's shape allows; the others become failures. */
    private List<Plan.BodyInsert> checked(List<Plan.BodyInsert> all, String name) {
      List<Plan.BodyInsert> ok = new ArrayList<>();
      for (Plan.BodyInsert b : all) {
        String why = ShapeRules.bodyProblem(b.rule(), params, returns, isStatic,
            name.equals("<init>"), methodText);
        if (why == null) {
          ok.add(b);
          done.put(b.rule(), b.rule().role().label() + " at " + methodText);
        } else {
          failures.add(new Plan.Failure(b.rule(), why));
        }
      }
      return ok;
    }

    // ------------------------------------------------------------------------------ bodies

    @Override
    public void visitCode() {
      super.visitCode();
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
            push(b.point());
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "enter", "(I)V", false);
            guardPoint = b.point();
            break;
          case HOOK:
            push(b.point());
            loadReceiver();
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "hook", "(ILjava/lang/Object;)V",
                false);
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
     * {@code Object r = Gate.admit(point, this, value); if (r == DECLINED) { [Gate.decline(point,
     * this, args)]; return <default>; } if (r instanceof T) value = (T) r;}
     */
    private void admitAtEntry(Plan.BodyInsert b) {
      int slot = slot(b.rule().argument());
      Type type = params[b.rule().argument()];
      Object[] locals = frameLocals(List.of());
      push(b.point());
      loadReceiver();
      mv.visitVarInsn(Opcodes.ALOAD, slot);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "admit",
          "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", false);
      mv.visitInsn(Opcodes.DUP);
      mv.visitFieldInsn(Opcodes.GETSTATIC, GATE, "DECLINED", "Ljava/lang/Object;");
      Label admitted = new Label();
      mv.visitJumpInsn(Opcodes.IF_ACMPNE, admitted);
      mv.visitInsn(Opcodes.POP);
      if (b.rule().declineArgs() != null) {
        push(b.point());
        loadReceiver();
        parameterArray(b.rule().declineArgs(), null);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "decline",
            "(ILjava/lang/Object;[Ljava/lang/Object;)V", false);
      }
      returnDefault(returns);
      mv.visitLabel(admitted);
      frame(locals, new Object[] {OBJECT});
      storeChecked(type, slot, locals, new Object[] {OBJECT});
    }

    /** [r] -> slot = r if the slot's type holds it, else the slot keeps its value. */
    private void storeChecked(Type type, int slot, Object[] locals, Object[] stackWithR) {
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
     * {@code depth = Gate.depth(point, depth)}, or with every argument for an adapter; with an
     * executor: a depth of 0 nulls the executor and keeps the requested depth.
     */
    private void depthAtEntry(Plan.BodyInsert b) {
      Rule r = b.rule();
      int slot = slot(r.argument());
      push(b.point());
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
      extraLocals = Math.max(extraLocals, paramSlots + 1);
      mv.visitVarInsn(Opcodes.ISTORE, decided);
      int exec = slot(r.executor());
      mv.visitVarInsn(Opcodes.ALOAD, exec);
      mv.visitVarInsn(Opcodes.ILOAD, slot);
      mv.visitVarInsn(Opcodes.ILOAD, decided);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "executor",
          "(Ljava/lang/Object;II)Ljava/lang/Object;", false);
      Type execType = params[r.executor()];
      mv.visitTypeInsn(Opcodes.CHECKCAST,
          execType.getSort() == Type.ARRAY ? execType.getDescriptor() : execType.getInternalName());
      mv.visitVarInsn(Opcodes.ASTORE, exec);
      mv.visitVarInsn(Opcodes.ILOAD, slot);
      mv.visitVarInsn(Opcodes.ILOAD, decided);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "prefetch", "(II)I", false);
      mv.visitVarInsn(Opcodes.ISTORE, slot);
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
        for (Plan.BodyInsert b : inserts) {
          if (b.rule().role() == Rule.Role.DEPTH_RETURN) {
            push(b.point());
            mv.visitInsn(Opcodes.SWAP);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depth", "(II)I", false);
          }
        }
        for (Plan.BodyInsert b : inserts) {
          beforeReturn(b, opcode);
        }
      }
      super.visitInsn(opcode);
    }

    private void beforeReturn(Plan.BodyInsert b, int opcode) {
      switch (b.rule().role()) {
        case ADMIT_ARG:
          push(b.point());
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "leave", "(I)V", false);
          break;
        case ADMIT_RETURN:
          returnedAtExit(b);
          break;
        case BATCH:
          // [batch] -> [batch], Gate.batch(batch, point, this)
          mv.visitInsn(Opcodes.DUP);
          push(b.point());
          loadReceiver();
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "batch",
              "(Ljava/lang/Object;ILjava/lang/Object;)V", false);
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
      Object[] locals = frameLocals(List.of());
      Object[] stack = frameStack(0, List.of());
      mv.visitInsn(Opcodes.DUP);
      push(b.point());
      loadReceiver();
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "returned",
          "(Ljava/lang/Object;ILjava/lang/Object;)Z", false);
      if (b.rule().declineArgs() == null) {
        mv.visitInsn(Opcodes.POP);
        return;
      }
      Label kept = new Label();
      mv.visitJumpInsn(Opcodes.IFEQ, kept);
      push(b.point());
      loadReceiver();
      parameterArray(b.rule().declineArgs(), analyzer == null ? null : analyzer.locals);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "decline",
          "(ILjava/lang/Object;[Ljava/lang/Object;)V", false);
      mv.visitLabel(kept);
      frame(locals, stack);
    }

    /** {@code Gate.release(returned, point, new Object[] {reference arguments})}. */
    private void releaseAtExit(Plan.BodyInsert b, int opcode) {
      if (opcode == Opcodes.ARETURN) {
        mv.visitInsn(Opcodes.DUP);
      } else {
        mv.visitInsn(Opcodes.ACONST_NULL);
      }
      push(b.point());
      List<Integer> refs = new ArrayList<>();
      for (int p = 0; p < params.length; p++) {
        if (isReference(params[p])) {
          refs.add(p);
        }
      }
      if (refs.isEmpty()) {
        mv.visitInsn(Opcodes.ACONST_NULL);
      } else {
        parameterArray(refs, analyzer == null ? null : analyzer.locals);
      }
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "release",
          "(Ljava/lang/Object;I[Ljava/lang/Object;)V", false);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      if (guardPoint >= 0) {
        // The count of woven bodies this thread is in is given back when the method throws too.
        Label end = new Label();
        Label handler = new Label();
        mv.visitLabel(end);
        mv.visitLabel(handler);
        frame(new Object[0], new Object[] {"java/lang/Throwable"});
        push(guardPoint);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "leave", "(I)V", false);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitTryCatchBlock(tryStart, end, handler, null);
      }
      super.visitMaxs(maxStack + EXTRA_STACK, Math.max(maxLocals, extraLocals));
    }

    @Override
    public void visitEnd() {
      for (Map.Entry<Rule, Integer> e : callCounts.entrySet()) {
        done.put(e.getKey(), e.getValue() + " call(s) to " + e.getKey().method().methodName()
            + " in " + methodText);
      }
      super.visitEnd();
    }

    // ------------------------------------------------------------------------------ calls

    @Override
    public void visitMethodInsn(int opcode, String callOwner, String name, String descriptor,
        boolean isInterface) {
      Rule r = calls.isEmpty() ? null : matchingCall(callOwner, name, descriptor, opcode);
      if (r == null || analyzer != null && analyzer.locals == null) {
        super.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
        return;
      }
      Type[] args = Type.getArgumentTypes(descriptor);
      Type returns = Type.getReturnType(descriptor);
      boolean receiver = opcode != Opcodes.INVOKESTATIC;
      String problem = ShapeRules.callProblem(r, args, returns, receiver, name.equals("<init>"));
      if (problem != null) {
        failures.add(new Plan.Failure(r, problem + " (a call in " + methodText + ")"));
        super.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
        return;
      }
      Integer calls = callCounts.get(r);
      callCounts.put(r, calls == null ? 1 : calls + 1);
      switch (r.role()) {
        case ADMIT_ARG:
          admitCall(r, opcode, callOwner, name, descriptor, isInterface, args, returns, receiver);
          break;
        case ADMIT_RETURN:
          returnedCall(r, opcode, callOwner, name, descriptor, isInterface, args, returns,
              receiver);
          break;
        case DEPTH_ARG:
          depthCall(r, opcode, callOwner, name, descriptor, isInterface, args);
          break;
        case DEPTH_RETURN:
          super.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
          push(r.id());
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depthCall", "(II)I", false);
          break;
        case RELEASE:
          releaseCall(r, opcode, callOwner, name, descriptor, isInterface, args, returns);
          break;
        default: // BATCH
          super.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
          mv.visitInsn(Opcodes.DUP);
          push(r.id());
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "batchCall", "(Ljava/lang/Object;I)V",
              false);
      }
    }

    private Rule matchingCall(String callOwner, String name, String descriptor, int opcode) {
      if (callOwner.startsWith("[") || opcode == Opcodes.INVOKEDYNAMIC) {
        return null;
      }
      for (Rule r : calls) {
        if (r.method().methodName().equals(name)
            && MethodMatcher.parametersMatch(descriptor, r.method().parameterTypes())
            && (name.equals("<init>") ? callOwner.equals(r.type())
                : owners.isSubtype(callOwner, r.type()))) {
          return r;
        }
      }
      return null;
    }

    /**
     * {@code [recv, args]}: the arguments into fresh slots; {@code r = Gate.admitCall(value,
     * point)}; declined: {@code [Gate.declineCall(recv, args, point)] | pop recv}, push the
     * default; else the call with {@code value = r}.
     */
    private void admitCall(Rule r, int opcode, String callOwner, String name, String descriptor,
        boolean itf, Type[] args, Type returns, boolean receiver) {
      Object[] locals0 = frameLocals(List.of());
      int base = freeSlot();
      int[] slots = slots(args, base);
      List<Object> spilled = spilledTypes(args);
      Object[] belowArgs = frameStack(size(args), List.of());
      Object[] belowAll = frameStack(size(args) + (receiver ? 1 : 0), List.of());
      storeArguments(args, slots);
      mv.visitVarInsn(Opcodes.ALOAD, slots[r.argument()]);
      push(r.id());
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "admitCall",
          "(Ljava/lang/Object;I)Ljava/lang/Object;", false);
      mv.visitInsn(Opcodes.DUP);
      mv.visitFieldInsn(Opcodes.GETSTATIC, GATE, "DECLINED", "Ljava/lang/Object;");
      Label admitted = new Label();
      Label after = new Label();
      mv.visitJumpInsn(Opcodes.IF_ACMPNE, admitted);
      mv.visitInsn(Opcodes.POP);
      if (receiver) {
        if (r.declineArgs() != null) {
          slotArray(r.declineArgs(), args, slots);
          push(r.id());
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "declineCall",
              "(Ljava/lang/Object;[Ljava/lang/Object;I)V", false);
        } else {
          mv.visitInsn(Opcodes.POP);
        }
      }
      pushDefault(returns);
      mv.visitJumpInsn(Opcodes.GOTO, after);
      mv.visitLabel(admitted);
      Object[] withSpills = concat(locals0, spilled);
      Object[] stackR = concat(belowArgs, List.of(OBJECT));
      frame(withSpills, stackR);
      storeChecked(args[r.argument()], slots[r.argument()], withSpills, stackR);
      loadArguments(args, slots);
      mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
      mv.visitLabel(after);
      frame(withSpills, returns.getSort() == Type.VOID ? belowAll
          : concat(belowAll, List.of(frameType(returns))));
      mv.visitInsn(Opcodes.NOP);
    }

    /**
     * The call as written, then {@code if (Gate.returnedCall(v, point)) Gate.declineCall(recv,
     * args, point)} (the receiver and arguments kept in fresh slots for that).
     */
    private void returnedCall(Rule r, int opcode, String callOwner, String name,
        String descriptor, boolean itf, Type[] args, Type returns, boolean receiver) {
      if (r.declineArgs() == null || !receiver) {
        mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
        mv.visitInsn(Opcodes.DUP);
        push(r.id());
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "returnedCall", "(Ljava/lang/Object;I)Z",
            false);
        mv.visitInsn(Opcodes.POP);
        return;
      }
      Object[] locals0 = frameLocals(List.of());
      Object receiverType = stackEntry(size(args));
      int base = freeSlot();
      int[] slots = slots(args, base);
      int recvSlot = base + size(args);
      List<Object> spilled = new ArrayList<>(spilledTypes(args));
      spilled.add(receiverType);
      reserve(recvSlot + 1);
      Object[] belowAll = frameStack(size(args) + 1, List.of());
      storeArguments(args, slots);
      mv.visitInsn(Opcodes.DUP);
      mv.visitVarInsn(Opcodes.ASTORE, recvSlot);
      loadArguments(args, slots);
      mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
      mv.visitInsn(Opcodes.DUP);
      push(r.id());
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "returnedCall", "(Ljava/lang/Object;I)Z",
          false);
      Label kept = new Label();
      mv.visitJumpInsn(Opcodes.IFEQ, kept);
      mv.visitVarInsn(Opcodes.ALOAD, recvSlot);
      slotArray(r.declineArgs(), args, slots);
      push(r.id());
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "declineCall",
          "(Ljava/lang/Object;[Ljava/lang/Object;I)V", false);
      mv.visitLabel(kept);
      frame(concat(locals0, spilled), concat(belowAll, List.of(frameType(returns))));
      mv.visitInsn(Opcodes.NOP);
    }

    /** The arguments above the depth into fresh slots, the depth through the gate, back. */
    private void depthCall(Rule r, int opcode, String callOwner, String name, String descriptor,
        boolean itf, Type[] args) {
      int k = r.argument();
      int base = freeSlot();
      int[] slots = slots(args, base);
      for (int i = args.length - 1; i > k; i--) {
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), slots[i]);
      }
      push(r.id());
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "depthCall", "(II)I", false);
      for (int i = k + 1; i < args.length; i++) {
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slots[i]);
      }
      mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
    }

    /** The call, then {@code Gate.releaseCall(returned, args, point)}. */
    private void releaseCall(Rule r, int opcode, String callOwner, String name,
        String descriptor, boolean itf, Type[] args, Type returns) {
      List<Integer> refs = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        if (isReference(args[i])) {
          refs.add(i);
        }
      }
      int[] slots = null;
      if (!refs.isEmpty()) {
        slots = slots(args, freeSlot());
        storeArguments(args, slots);
        loadArguments(args, slots);
      }
      mv.visitMethodInsn(opcode, callOwner, name, descriptor, itf);
      if (isReference(returns)) {
        mv.visitInsn(Opcodes.DUP);
      } else {
        mv.visitInsn(Opcodes.ACONST_NULL);
      }
      if (refs.isEmpty()) {
        mv.visitInsn(Opcodes.ACONST_NULL);
      } else {
        slotArray(refs, args, slots);
      }
      push(r.id());
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "releaseCall",
          "(Ljava/lang/Object;[Ljava/lang/Object;I)V", false);
    }

    // ------------------------------------------------------------------------------ helpers

    /** Returns the first local slot nothing live uses here. */
    private int freeSlot() {
      return analyzer != null ? analyzer.locals.size() : spillBase;
    }

    private int[] slots(Type[] args, int base) {
      int[] slots = new int[args.length];
      int s = base;
      for (int i = 0; i < args.length; i++) {
        slots[i] = s;
        s += args[i].getSize();
      }
      reserve(s);
      return slots;
    }

    private void reserve(int slotsEnd) {
      extraLocals = Math.max(extraLocals, slotsEnd);
    }

    private void storeArguments(Type[] args, int[] slots) {
      for (int i = args.length - 1; i >= 0; i--) {
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), slots[i]);
      }
    }

    private void loadArguments(Type[] args, int[] slots) {
      for (int i = 0; i < args.length; i++) {
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slots[i]);
      }
    }

    /** Pushes {@code new Object[] {slot values of indices, boxed}}. */
    private void slotArray(List<Integer> indices, Type[] args, int[] slots) {
      push(indices.size());
      mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
      for (int j = 0; j < indices.size(); j++) {
        int i = indices.get(j);
        mv.visitInsn(Opcodes.DUP);
        push(j);
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slots[i]);
        box(args[i]);
        mv.visitInsn(Opcodes.AASTORE);
      }
    }

    /**
     * Pushes {@code new Object[] {parameters at indices, boxed}}; where the frame {@code now}
     * shows a parameter's slot holding something else (the method reassigned it), null.
     */
    private void parameterArray(List<Integer> indices, List<Object> now) {
      push(indices.size());
      mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
      for (int j = 0; j < indices.size(); j++) {
        int p = indices.get(j);
        mv.visitInsn(Opcodes.DUP);
        push(j);
        int slot = slot(p);
        if (now != null && !holds(now, slot, params[p])) {
          mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
          mv.visitVarInsn(params[p].getOpcode(Opcodes.ILOAD), slot);
          box(params[p]);
        }
        mv.visitInsn(Opcodes.AASTORE);
      }
    }

    private static boolean holds(List<Object> locals, int slot, Type t) {
      if (slot >= locals.size()) {
        return false;
      }
      Object v = locals.get(slot);
      if (isReference(t)) {
        return v instanceof String || Opcodes.NULL.equals(v);
      }
      return frameType(t).equals(v);
    }

    private void box(Type t) {
      String box;
      switch (t.getSort()) {
        case Type.BOOLEAN: box = "java/lang/Boolean"; break;
        case Type.BYTE: box = "java/lang/Byte"; break;
        case Type.CHAR: box = "java/lang/Character"; break;
        case Type.SHORT: box = "java/lang/Short"; break;
        case Type.INT: box = "java/lang/Integer"; break;
        case Type.FLOAT: box = "java/lang/Float"; break;
        case Type.LONG: box = "java/lang/Long"; break;
        case Type.DOUBLE: box = "java/lang/Double"; break;
        default: return;
      }
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, box, "valueOf",
          "(" + t.getDescriptor() + ")L" + box + ";", false);
    }

    private void loadReceiver() {
      if (isStatic) {
        mv.visitInsn(Opcodes.ACONST_NULL);
      } else {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
      }
    }

    private int slot(int index) {
      int slot = isStatic ? 0 : 1;
      for (int i = 0; i < index; i++) {
        slot += params[i].getSize();
      }
      return slot;
    }

    private void returnDefault(Type returns) {
      pushDefault(returns);
      mv.visitInsn(returns.getOpcode(Opcodes.IRETURN));
    }

    private void pushDefault(Type t) {
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

    // ------------------------------------------------------------------------------ frames

    /** Emits an expanded frame, in a class that has frames. */
    private void frame(Object[] locals, Object[] stack) {
      if (analyzer != null) {
        mv.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
      }
    }

    /** Returns the analyzer's locals in frame form (a long or double one entry), plus extra. */
    private Object[] frameLocals(List<Object> extra) {
      if (analyzer == null || analyzer.locals == null) {
        return new Object[0];
      }
      return concat(compact(analyzer.locals, 0), extra);
    }

    /** Returns the analyzer's stack without its top {@code dropSlots} slots, in frame form. */
    private Object[] frameStack(int dropSlots, List<Object> extra) {
      if (analyzer == null || analyzer.stack == null) {
        return new Object[0];
      }
      return concat(compact(analyzer.stack, dropSlots), extra);
    }

    /** Returns the type of the stack entry {@code slotsFromTop} slots below the top. */
    private Object stackEntry(int slotsFromTop) {
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

    private List<Object> spilledTypes(Type[] args) {
      List<Object> out = new ArrayList<>();
      for (Type t : args) {
        out.add(frameType(t));
      }
      return out;
    }

    private static Object[] concat(Object[] a, List<Object> b) {
      Object[] out = new Object[a.length + b.size()];
      System.arraycopy(a, 0, out, 0, a.length);
      for (int i = 0; i < b.size(); i++) {
        out[a.length + i] = b.get(i);
      }
      return out;
    }

    private static Object frameType(Type t) {
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

    private static int size(Type[] args) {
      int n = 0;
      for (Type t : args) {
        n += t.getSize();
      }
      return n;
    }

    private static boolean isReference(Type t) {
      return ShapeRules.isReference(t);
    }

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
}
