package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * Finds the cache-admit and prefetch-depth sites of one class from its bytecode, through the data
 * flow ASM's analyzer gives (which instruction produced each stack value):
 *
 * <ul>
 *   <li>a value stored with {@code put}, {@code putIfAbsent} or {@code computeIfAbsent} into a JDK
 *       map held in a field, or with {@code add} into a JDK collection held in a field: a
 *       cache-admit call site in the method that stores it, with the removal the class makes from
 *       that field as its release (none: the field only grows);
 *   <li>the same into Scala's mutable collections held in a field ({@code mutable.HashMap}, {@code
 *       LinkedHashMap}, {@code TrieMap}, {@code concurrent.Map}, {@code ArrayBuffer}, {@code
 *       ListBuffer}, {@code mutable.Set}): {@code put}, {@code update}, {@code addOne} and {@code
 *       +=} as a put-style call site where the call's result is dropped (a declined call returns
 *       null, which the code must not go on to use), {@code getOrElseUpdate} as a loading call
 *       whose declined value is evicted with {@code remove}; Kotlin's collections are the JDK's
 *       ({@code getOrPut} compiles to {@code Map.get} and {@code Map.put});
 *   <li>a JDK bounded queue or semaphore built with a capacity that comes from a parameter or a
 *       field: a prefetch-depth call site in the method that builds it, with the method of the
 *       class that takes from that queue and returns what it took as its batch. A capacity from a
 *       constant is no candidate: nothing decides it at run time.
 * </ul>
 *
 * <p>A field read through a method of the class that only returns it (Scala's private accessors,
 * Kotlin's property getters) counts as the field. This class walks the methods and hands each call
 * to {@link CacheStores} or {@link BoundedQueues}; it also names methods and calls as the sites
 * file writes them.
 */
final class SiteFinder {
  private final ScannedClass cls;
  private final CacheStores stores;
  private final BoundedQueues queues;

  private SiteFinder(byte[] classFile, Function<String, byte[]> classes) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, 0);
    this.cls = new ScannedClass(node);
    this.stores = new CacheStores(cls, classes);
    this.queues = new BoundedQueues(cls);
  }

  /**
   * Returns the candidates of the class {@code classFile}; {@code classes} gives the bytes of the
   * application's other classes by internal name (null when not read), to tell a map subclass that
   * bounds itself.
   */
  static List<Candidate> find(byte[] classFile, Function<String, byte[]> classes) {
    SiteFinder f = new SiteFinder(classFile, classes);
    f.scan();
    List<Candidate> out = new ArrayList<>();
    f.stores.candidates(out);
    f.queues.candidates(out);
    return out;
  }

  private void scan() {
    ClassNode node = cls.node;
    for (MethodNode m : node.methods) {
      if (m.instructions.size() == 0
          || (m.access & Opcodes.ACC_SYNTHETIC) != 0 && !m.name.startsWith("lambda$")) {
        continue;
      }
      Frame<SourceValue>[] frames;
      try {
        frames = new Analyzer<>(new SourceInterpreter()).analyze(node.name, m);
      } catch (AnalyzerException | RuntimeException e) {
        continue; // a method the analyzer cannot follow is left out
      }
      for (AbstractInsnNode insn : m.instructions) {
        Frame<SourceValue> frame = frames[m.instructions.indexOf(insn)];
        if (frame == null) {
          continue; // unreachable
        }
        if (insn instanceof MethodInsnNode call) {
          method(m, frames, frame, call);
        } else if (insn instanceof FieldInsnNode put
            && put.getOpcode() == Opcodes.PUTFIELD
            && put.owner.equals(node.name)) {
          Origin v = Origin.of(m, frames, Origin.top(frame, 0));
          if (v.insn() instanceof TypeInsnNode n && n.getOpcode() == Opcodes.NEW) {
            stores.fieldSetToNew(put.name, n.desc);
            queues.fieldSetToNew(put.name, n);
          }
        }
      }
    }
  }

  /** Hands {@code call} to what finds the sites of its kind: a queue's, or a collection's. */
  private void method(
      MethodNode m, Frame<SourceValue>[] frames, Frame<SourceValue> frame, MethodInsnNode call) {
    if (queues.built(m, frames, frame, call)) {
      return;
    }
    boolean onCollection =
        CollectionCalls.isMap(call.owner) || CollectionCalls.isCollection(call.owner);
    if (!onCollection || call.getOpcode() == Opcodes.INVOKESTATIC) {
      queues.call(m, frames, frame, call);
    } else {
      stores.call(m, frames, frame, call);
    }
  }

  /** Returns {@code com.acme.Dataset#get(int)}. */
  static String ref(String owner, MethodNode m) {
    return javaName(owner) + "#" + m.name + "(" + params(m.desc) + ")";
  }

  /** Returns {@code java.util.HashMap#put(java.lang.Object,java.lang.Object)}. */
  static String ref(MethodInsnNode call) {
    return javaName(call.owner) + "#" + call.name + "(" + params(call.desc) + ")";
  }

  /** Returns {@code com.acme.Dataset} for the internal name {@code com/acme/Dataset}. */
  static String javaName(String internal) {
    return internal.replace('/', '.');
  }

  /** Returns {@code Dataset} for the internal name {@code com/acme/Dataset}. */
  static String simpleName(String internal) {
    return internal.substring(internal.lastIndexOf('/') + 1);
  }

  /** Returns a descriptor's parameters as the sites file writes them: {@code int,byte[]}. */
  static String params(String desc) {
    StringBuilder b = new StringBuilder();
    for (Type t : Type.getArgumentTypes(desc)) {
      b.append(b.length() == 0 ? "" : ",").append(t.getClassName());
    }
    return b.toString();
  }
}
