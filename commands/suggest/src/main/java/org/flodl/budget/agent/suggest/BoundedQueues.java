package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * The prefetch-depth sites of one class: each JDK bounded queue or semaphore it builds with a
 * capacity that comes from a parameter or a field, with the method of the class that takes from
 * that queue's field and returns what it took as the batch. A capacity from a constant is no
 * candidate: nothing decides it at run time.
 */
final class BoundedQueues {
  private final ScannedClass cls;
  private final List<Build> builds = new ArrayList<>();

  /** Per field: the methods that take from it and return a reference. */
  private final Map<String, List<FieldCall>> takes = new LinkedHashMap<>();

  /** Per queue construction: the field it is stored into. */
  private final Map<AbstractInsnNode, String> storedInto = new LinkedHashMap<>();

  /** A queue or semaphore built with a run-time capacity. */
  private record Build(
      MethodNode m, MethodInsnNode ctor, AbstractInsnNode newInsn, Origin capacity, String line) {}

  BoundedQueues(ScannedClass cls) {
    this.cls = cls;
  }

  /** Notes that {@code field} is set to the object {@code n} makes, where that is a queue. */
  void fieldSetToNew(String field, TypeInsnNode n) {
    if (CollectionCalls.isQueue(n.desc)) {
      storedInto.put(n, field);
    }
  }

  /**
   * Returns whether {@code call}, in {@code m}, builds a queue or semaphore with an {@code int}
   * capacity, and notes it; {@code frame} is the frame before the call.
   */
  boolean built(
      MethodNode m, Frame<SourceValue>[] frames, Frame<SourceValue> frame, MethodInsnNode call) {
    Type[] args = Type.getArgumentTypes(call.desc);
    if (call.getOpcode() != Opcodes.INVOKESPECIAL
        || !call.name.equals("<init>")
        || !CollectionCalls.isQueue(call.owner)
        || args.length < 1
        || args[0] != Type.INT_TYPE) {
      return false;
    }
    Origin receiver = Origin.of(m, frames, Origin.top(frame, args.length));
    Origin capacity = Origin.of(m, frames, Origin.top(frame, args.length - 1));
    builds.add(new Build(m, call, receiver.insn(), capacity, cls.line(call)));
    return true;
  }

  /**
   * Notes {@code call}, in {@code m}, where it takes from the object one of the class's fields
   * holds and {@code m} returns a reference: a method that may hand out what it took.
   */
  void call(
      MethodNode m, Frame<SourceValue>[] frames, Frame<SourceValue> frame, MethodInsnNode call) {
    if (!CollectionCalls.takes(call)) {
      return;
    }
    int args = Type.getArgumentTypes(call.desc).length;
    String field = cls.fieldOf(Origin.of(m, frames, Origin.top(frame, args)));
    Type ret = Type.getReturnType(m.desc);
    if (field != null && ret.getSort() >= Type.ARRAY) {
      takes
          .computeIfAbsent(field, k -> new ArrayList<>())
          .add(new FieldCall(m, call, cls.line(call)));
    }
  }

  /** Adds the prefetch-depth candidates of the queues noted to {@code out}, in the order found. */
  void candidates(List<Candidate> out) {
    for (Build b : builds) {
      String from = b.capacity.kind();
      if (!(from.equals("param") || from.equals("field"))) {
        continue; // a constant (or a computation) is decided where it is written, not at run time
      }
      String field = b.newInsn == null ? null : storedInto.get(b.newInsn);
      List<String> why = new ArrayList<>();
      why.add(
          cls.signature(b.m)
              + " builds a new "
              + SiteFinder.simpleName(b.ctor.owner)
              + " whose capacity is "
              + b.capacity.text()
              + ScannedClass.where(b.line)
              + (field == null ? "" : ", into the field '" + field + "'")
              + ".");
      String batch = null;
      if (field != null) {
        for (FieldCall u : takes.getOrDefault(field, List.of())) {
          if (!u.m().name.startsWith("lambda$") && !u.m().name.equals("<init>")) {
            batch = cls.ref(u.m());
            why.add(
                cls.signature(u.m())
                    + " takes from it ("
                    + u.call().name
                    + ScannedClass.where(u.line())
                    + ") and returns what it took: the batch, priced as it passes.");
            break;
          }
        }
      }
      out.add(
          new Candidate(
              "prefetch-depth",
              cls.siteName(field == null ? "queue" : field),
              cls.ref(b.m),
              SiteFinder.ref(b.ctor),
              null,
              null,
              null,
              0,
              batch,
              from.equals("param") ? 0 : 1,
              why,
              cls.node.name,
              b.m.name,
              b.m.desc));
    }
  }
}
