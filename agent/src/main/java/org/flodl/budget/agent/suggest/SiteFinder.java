package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
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
 *   <li>a value stored with {@code put}, {@code putIfAbsent} or {@code computeIfAbsent} into a
 *       JDK map held in a field, or with {@code add} into a JDK collection held in a field: a
 *       cache-admit call site in the method that stores it, with the removal the class makes from
 *       that field as its release (none: the field only grows);
 *   <li>the same into Scala's mutable collections held in a field ({@code mutable.HashMap},
 *       {@code LinkedHashMap}, {@code TrieMap}, {@code concurrent.Map}, {@code ArrayBuffer},
 *       {@code ListBuffer}, {@code mutable.Set}): {@code put}, {@code update}, {@code addOne} and
 *       {@code +=} as a put-style call site where the call's result is dropped (a declined call
 *       returns null, which the code must not go on to use), {@code getOrElseUpdate} as a
 *       loading call whose declined value is evicted with {@code remove}; Kotlin's collections are the JDK's
 *       ({@code getOrPut} compiles to {@code Map.get} and {@code Map.put});
 *   <li>a JDK bounded queue or semaphore built with a capacity that comes from a parameter or a
 *       field: a prefetch-depth call site in the method that builds it, with the method of the
 *       class that takes from that queue and returns what it took as its batch. A capacity from a
 *       constant is no candidate: nothing decides it at run time.
 * </ul>
 *
 * <p>A field read through a method of the class that only returns it (Scala's private accessors,
 * Kotlin's property getters) counts as the field.
 */
final class SiteFinder {
  private static final Set<String> MAPS = Set.of("java/util/Map", "java/util/HashMap",
      "java/util/LinkedHashMap", "java/util/TreeMap", "java/util/SortedMap",
      "java/util/NavigableMap", "java/util/Hashtable", "java/util/IdentityHashMap",
      "java/util/WeakHashMap", "java/util/concurrent/ConcurrentMap",
      "java/util/concurrent/ConcurrentHashMap", "java/util/concurrent/ConcurrentSkipListMap",
      "java/util/concurrent/ConcurrentNavigableMap");
  private static final Set<String> COLLECTIONS = Set.of("java/util/Collection", "java/util/List",
      "java/util/ArrayList", "java/util/LinkedList", "java/util/Set", "java/util/HashSet",
      "java/util/LinkedHashSet", "java/util/TreeSet", "java/util/SortedSet",
      "java/util/NavigableSet", "java/util/Vector", "java/util/concurrent/CopyOnWriteArrayList");
  /** Scala's mutable maps, whose calls have their own shapes (see {@link #scalaStore}). */
  private static final Set<String> SCALA_MAPS = Set.of("scala/collection/mutable/HashMap",
      "scala/collection/mutable/LinkedHashMap", "scala/collection/mutable/Map",
      "scala/collection/mutable/MapOps", "scala/collection/mutable/TreeMap",
      "scala/collection/mutable/AnyRefMap", "scala/collection/mutable/LongMap",
      "scala/collection/concurrent/TrieMap", "scala/collection/concurrent/Map");
  /** Scala's mutable sequences and sets. */
  private static final Set<String> SCALA_COLLECTIONS = Set.of(
      "scala/collection/mutable/ArrayBuffer", "scala/collection/mutable/ListBuffer",
      "scala/collection/mutable/Buffer", "scala/collection/mutable/ArrayDeque",
      "scala/collection/mutable/Set", "scala/collection/mutable/HashSet",
      "scala/collection/mutable/LinkedHashSet", "scala/collection/mutable/Growable");
  private static final Set<String> QUEUES = Set.of("java/util/concurrent/ArrayBlockingQueue",
      "java/util/concurrent/LinkedBlockingQueue", "java/util/concurrent/LinkedBlockingDeque",
      "java/util/concurrent/Semaphore");
  private static final Set<String> TAKES = Set.of("take", "poll", "remove", "takeFirst",
      "pollFirst", "acquire");
  private static final String OBJECT = "Ljava/lang/Object;";

  private final ClassNode cls = new ClassNode();
  private final List<Store> stores = new ArrayList<>();
  private final List<Build> builds = new ArrayList<>();
  /** Per field: the removals the class makes from it ({@code Map.remove} and the like). */
  private final Map<String, List<Use>> removals = new LinkedHashMap<>();
  /** Per field: the methods that take from it and return a reference. */
  private final Map<String, List<Use>> takes = new LinkedHashMap<>();
  /** Per queue construction: the field it is stored into. */
  private final Map<AbstractInsnNode, String> storedInto = new LinkedHashMap<>();
  /** Per field: the class of the object it is set to, where the bytecode shows a {@code new}. */
  private final Map<String, String> fieldNew = new LinkedHashMap<>();
  private final java.util.function.Function<String, byte[]> classes;
  /** The class's methods that only return one of its fields: name + descriptor to the field. */
  private final Map<String, String> accessors = new LinkedHashMap<>();

  /** A value stored into a field's map or collection. */
  private record Store(MethodNode m, MethodInsnNode call, String field, String fieldType,
      String value, Source valueSource, String line) {}

  /** A queue or semaphore built with a run-time capacity. */
  private record Build(MethodNode m, MethodInsnNode ctor, AbstractInsnNode newInsn, Source capacity,
      String line) {}

  /** A call on a field's object, where it is made. */
  private record Use(MethodNode m, MethodInsnNode call, String line) {}

  /** Where a stack value came from, as far as the bytecode shows. */
  private record Source(String kind, String text, AbstractInsnNode insn) {
    static final Source UNKNOWN = new Source("unknown", "a value", null);
  }

  private SiteFinder(byte[] classFile, java.util.function.Function<String, byte[]> classes) {
    new ClassReader(classFile).accept(cls, 0);
    this.classes = classes;
    for (MethodNode m : cls.methods) {
      String field = accessed(m);
      if (field != null) {
        accessors.put(m.name + m.desc, field);
      }
    }
  }

  /** Returns the field {@code m} returns and does nothing else with ({@code return this.f}). */
  private String accessed(MethodNode m) {
    if ((m.access & Opcodes.ACC_STATIC) != 0 || !m.desc.startsWith("()")) {
      return null;
    }
    List<AbstractInsnNode> code = new ArrayList<>();
    for (AbstractInsnNode i : m.instructions) {
      if (i.getOpcode() >= 0) {
        code.add(i);
      }
    }
    if (code.size() == 3 && code.get(0) instanceof VarInsnNode load
        && load.getOpcode() == Opcodes.ALOAD && load.var == 0
        && code.get(1) instanceof FieldInsnNode get && get.getOpcode() == Opcodes.GETFIELD
        && get.owner.equals(cls.name) && code.get(2).getOpcode() >= Opcodes.IRETURN
        && code.get(2).getOpcode() <= Opcodes.ARETURN) {
      return get.name;
    }
    return null;
  }

  /**
   * Returns the candidates of the class {@code classFile}; {@code classes} gives the bytes of the
   * application's other classes by internal name (null when not read), to tell a map subclass
   * that bounds itself.
   */
  static List<Candidate> find(byte[] classFile,
      java.util.function.Function<String, byte[]> classes) {
    SiteFinder f = new SiteFinder(classFile, classes);
    f.scan();
    return f.candidates();
  }

  /** Returns the source file's name and the line of {@code insn}, e.g. {@code Dataset.java:42}. */
  private String line(AbstractInsnNode insn) {
    for (AbstractInsnNode p = insn; p != null; p = p.getPrevious()) {
      if (p instanceof LineNumberNode ln) {
        return (cls.sourceFile == null ? simpleName(cls.name) + ".class" : cls.sourceFile) + ":"
            + ln.line;
      }
    }
    return null;
  }

  private void scan() {
    for (MethodNode m : cls.methods) {
      if (m.instructions.size() == 0 || (m.access & Opcodes.ACC_SYNTHETIC) != 0
          && !m.name.startsWith("lambda$")) {
        continue;
      }
      Frame<SourceValue>[] frames;
      try {
        frames = new Analyzer<>(new SourceInterpreter()).analyze(cls.name, m);
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
        } else if (insn instanceof FieldInsnNode put && put.getOpcode() == Opcodes.PUTFIELD
            && put.owner.equals(cls.name)) {
          Source v = trace(m, frames, top(frame, 0), 0);
          if (v.insn instanceof TypeInsnNode n && n.getOpcode() == Opcodes.NEW) {
            fieldNew.putIfAbsent(put.name, n.desc);
            if (QUEUES.contains(n.desc)) {
              storedInto.put(n, put.name);
            }
          }
        }
      }
    }
  }

  private void method(MethodNode m, Frame<SourceValue>[] frames, Frame<SourceValue> frame,
      MethodInsnNode call) {
    Type[] args = Type.getArgumentTypes(call.desc);
    boolean scala = SCALA_MAPS.contains(call.owner) || SCALA_COLLECTIONS.contains(call.owner);
    boolean map = MAPS.contains(call.owner) || SCALA_MAPS.contains(call.owner);
    boolean collection = COLLECTIONS.contains(call.owner)
        || SCALA_COLLECTIONS.contains(call.owner);
    if (call.getOpcode() == Opcodes.INVOKESPECIAL && call.name.equals("<init>")
        && QUEUES.contains(call.owner) && args.length >= 1 && args[0] == Type.INT_TYPE) {
      Source receiver = trace(m, frames, top(frame, args.length), 0);
      Source capacity = trace(m, frames, top(frame, args.length - 1), 0);
      builds.add(new Build(m, call, receiver.insn, capacity, line(call)));
      return;
    }
    if (!(map || collection) || call.getOpcode() == Opcodes.INVOKESTATIC) {
      if (call.getOpcode() != Opcodes.INVOKESTATIC && TAKES.contains(call.name)
          && Type.getReturnType(call.desc).getSort() >= Type.ARRAY
          && call.owner.startsWith("java/util/")) {
        String field = fieldOf(trace(m, frames, top(frame, args.length), 0));
        Type ret = Type.getReturnType(m.desc);
        if (field != null && ret.getSort() >= Type.ARRAY) {
          takes.computeIfAbsent(field, k -> new ArrayList<>()).add(new Use(m, call, line(call)));
        }
      }
      return;
    }
    String field = fieldOf(trace(m, frames, top(frame, args.length), 0));
    if (field == null) {
      return;
    }
    String value = null;
    if (scala) {
      value = scalaStore(call, map, args.length);
      if (value != null && !value.equals("return") && !resultDiscarded(call)) {
        // A declined put-style call is skipped and returns null: for a Scala put (an Option)
        // or += (the collection) whose result the code goes on to use, that null would reach
        // the application. Such a call is no candidate; one whose result is dropped is.
        return;
      }
      if (value == null) {
        if (SCALA_REMOVALS.contains(call.name)) {
          removals.computeIfAbsent(field, k -> new ArrayList<>()).add(new Use(m, call, line(call)));
        }
        return;
      }
    } else if (map && (call.name.equals("put") || call.name.equals("putIfAbsent"))
        && call.desc.equals("(" + OBJECT + OBJECT + ")" + OBJECT)) {
      value = "1";
    } else if (map && call.name.equals("computeIfAbsent")
        && call.desc.equals("(" + OBJECT + "Ljava/util/function/Function;)" + OBJECT)) {
      value = "return";
    } else if (collection && call.name.equals("add") && call.desc.equals("(" + OBJECT + ")Z")) {
      value = "0";
    } else if (call.name.equals("remove") || call.name.equals("clear")) {
      removals.computeIfAbsent(field, k -> new ArrayList<>()).add(new Use(m, call, line(call)));
      return;
    } else {
      return;
    }
    Source v = value.equals("return") ? Source.UNKNOWN
        : trace(m, frames, top(frame, args.length - 1 - Integer.parseInt(value)), 0);
    stores.add(new Store(m, call, field, fieldType(field), value, v, line(call)));
  }

  /** Scala's removals: {@code remove}, {@code subtractOne} and {@code -=}, {@code clear}. */
  private static final Set<String> SCALA_REMOVALS = Set.of("remove", "subtractOne", "$minus$eq",
      "clear", "filterInPlace");

  /**
   * Returns what a call on a Scala mutable collection stores ({@code "1"}: its second argument,
   * {@code "0"}: its first, {@code "return"}: the value it returns), or null when it stores none.
   */
  private static String scalaStore(MethodInsnNode call, boolean map, int args) {
    String n = call.name;
    if (map && args == 2 && (n.equals("put") || n.equals("update"))) {
      return "1";
    }
    if (map && args == 2 && n.equals("getOrElseUpdate")
        && call.desc.startsWith("(" + OBJECT + "Lscala/Function0;)")) {
      return "return";
    }
    if (args == 1 && (n.equals("addOne") || n.equals("$plus$eq") || n.equals("add")
        || n.equals("append") || n.equals("prepend"))) {
      return "0"; // on a map, the key-value pair: priced whole, the value with it
    }
    return null;
  }

  /** Returns whether {@code call} returns nothing, or a value its next instruction drops. */
  private static boolean resultDiscarded(MethodInsnNode call) {
    if (Type.getReturnType(call.desc) == Type.VOID_TYPE) {
      return true;
    }
    AbstractInsnNode next = call.getNext();
    while (next != null && next.getOpcode() < 0) {
      next = next.getNext(); // labels, line numbers, frames
    }
    return next != null && (next.getOpcode() == Opcodes.POP || next.getOpcode() == Opcodes.POP2);
  }

  /** Returns the value {@code fromTop} entries below the top of {@code frame}'s stack. */
  private static SourceValue top(Frame<SourceValue> frame, int fromTop) {
    return frame.getStack(frame.getStackSize() - 1 - fromTop);
  }

  private String fieldOf(Source s) {
    if (s.insn instanceof FieldInsnNode f && f.owner.equals(cls.name)) {
      return f.name;
    }
    if (s.insn instanceof MethodInsnNode c && c.owner.equals(cls.name)) {
      return accessors.get(c.name + c.desc); // a private accessor or a property getter
    }
    return null;
  }

  private String fieldType(String field) {
    for (var f : cls.fields) {
      if (f.name.equals(field)) {
        return Type.getType(f.desc).getClassName();
      }
    }
    return "?";
  }

  /** Follows {@code v} back to where it was made: a field, a parameter, a call, a constant. */
  private Source trace(MethodNode m, Frame<SourceValue>[] frames, SourceValue v, int hops) {
    if (v == null || v.insns.size() != 1 || hops > 6) {
      return Source.UNKNOWN;
    }
    AbstractInsnNode p = v.insns.iterator().next();
    Frame<SourceValue> at = frames[m.instructions.indexOf(p)];
    int op = p.getOpcode();
    if (p instanceof FieldInsnNode f && (op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC)) {
      return new Source("field", "the field '" + f.name + "'", f);
    }
    if (op == Opcodes.DUP || op == Opcodes.CHECKCAST) {
      return at == null ? Source.UNKNOWN : trace(m, frames, top(at, 0), hops + 1);
    }
    if (p instanceof VarInsnNode load && op >= Opcodes.ILOAD && op <= Opcodes.ALOAD) {
      int param = parameterOf(m, load.var);
      if (at == null) {
        return Source.UNKNOWN;
      }
      SourceValue stored = at.getLocal(load.var);
      if (param >= 0 && stored.insns.isEmpty()) {
        return new Source("param", "argument " + param + " ('" + localName(m, load.var) + "')",
            load);
      }
      if (stored.insns.size() == 1
          && stored.insns.iterator().next() instanceof VarInsnNode store) {
        Frame<SourceValue> before = frames[m.instructions.indexOf(store)];
        return before == null ? Source.UNKNOWN : trace(m, frames, top(before, 0), hops + 1);
      }
      return Source.UNKNOWN;
    }
    if (p instanceof MethodInsnNode c) {
      String what = c.owner.equals("java/nio/ByteBuffer") && (c.name.equals("slice")
          || c.name.equals("duplicate")) ? "a slice of a buffer (a view of what it pins)"
          : "the result of " + (c.name.equals("<init>") ? "new " + simpleName(c.owner)
              : c.name) + "(" + params(c.desc) + ")";
      return new Source("call", what, c);
    }
    if (p instanceof TypeInsnNode n && op == Opcodes.NEW) {
      return new Source("new", "a new " + simpleName(n.desc), n);
    }
    if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5 || p instanceof IntInsnNode
        && op != Opcodes.NEWARRAY || p instanceof LdcInsnNode) {
      return new Source("constant", "a constant", p);
    }
    if (op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY) {
      return new Source("new", "a new array", p);
    }
    return Source.UNKNOWN;
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

  // ------------------------------------------------------------------------------ candidates

  private List<Candidate> candidates() {
    List<Candidate> out = new ArrayList<>();
    String simple = simpleName(cls.name);
    for (Store s : stores) {
      if (s.valueSource.kind.equals("constant") || boundsItself(fieldNew.get(s.field))) {
        continue; // a constant is no sample; a map that evicts by itself is bounded already
      }
      boolean scala = s.call.owner.startsWith("scala/");
      List<Use> removed = removals.getOrDefault(s.field, List.of());
      Use remove = null;
      Use clear = null;
      for (Use u : removed) {
        if (!scala && u.call.name.equals("remove")
            && Type.getArgumentTypes(u.call.desc).length == 1 && remove == null) {
          remove = u;
        } else if (clear == null && (u.call.name.equals("clear") || scala)) {
          clear = u; // Scala's removals return an Option or the collection, never the value
        }
      }
      List<String> why = new ArrayList<>();
      String kindOf = scala ? simpleName(s.call.owner)
          : MAPS.contains(s.call.owner) ? "Map" : "Collection";
      String stored = s.value.equals("return")
          ? "the value its mapping function computes" : s.valueSource.text;
      why.add(signature(s.m) + " stores " + stored + " into the field '" + s.field + "' ("
          + s.fieldType + ") with " + kindOf + "." + s.call.name + where(s.line) + ".");
      if (remove != null) {
        why.add(signature(remove.m) + " removes from it with " + kindOf + ".remove"
            + where(remove.line) + ": the release.");
      } else if (clear != null) {
        why.add(scala ? signature(clear.m) + " removes from it (" + clear.call.name
            + where(clear.line) + "): what it drops is released as it is collected (a Scala "
            + "removal returns an Option or the collection, not the value to hand back)."
            : "Only " + signature(clear.m) + " empties it (clear" + where(clear.line)
                + "): what it drops is released as it is collected.");
      } else {
        why.add("Nothing in this class removes from it: it only grows (unbounded).");
      }
      // A map whose stored value's origin the bytecode shows is the common sample cache; a
      // collection appended to, or a value of unknown origin, may be something else.
      int sure = (MAPS.contains(s.call.owner) || SCALA_MAPS.contains(s.call.owner))
          && !s.valueSource.kind.equals("unknown") ? 0 : 1;
      String removeRef = remove == null ? null : ref(remove.call);
      out.add(new Candidate("cache-admit", siteName(simple, s.field), ref(cls.name, s.m),
          ref(s.call), s.value, removeRef,
          s.value.equals("return") ? javaName(s.call.owner) + "#remove(java.lang.Object)" : null,
          -1, null, sure, why, cls.name, s.m.name, s.m.desc));
    }
    for (Build b : builds) {
      if (!(b.capacity.kind.equals("param") || b.capacity.kind.equals("field"))) {
        continue; // a constant (or a computation) is decided where it is written, not at run time
      }
      String field = b.newInsn == null ? null : storedInto.get(b.newInsn);
      List<String> why = new ArrayList<>();
      why.add(signature(b.m) + " builds a new " + simpleName(b.ctor.owner) + " whose capacity is "
          + b.capacity.text + where(b.line) + (field == null ? "" : ", into the field '" + field
              + "'") + ".");
      String batch = null;
      if (field != null) {
        for (Use u : takes.getOrDefault(field, List.of())) {
          if (!u.m.name.startsWith("lambda$") && !u.m.name.equals("<init>")) {
            batch = ref(cls.name, u.m);
            why.add(signature(u.m) + " takes from it (" + u.call.name + where(u.line)
                + ") and returns what it took: the batch, priced as it passes.");
            break;
          }
        }
      }
      out.add(new Candidate("prefetch-depth", siteName(simple, field == null ? "queue" : field),
          ref(cls.name, b.m), ref(b.ctor), null, null, null, 0, batch,
          b.capacity.kind.equals("param") ? 0 : 1, why, cls.name, b.m.name, b.m.desc));
    }
    return out;
  }

  /**
   * Returns whether class {@code type} (internal name) is an application subclass of a map that
   * evicts by itself: it overrides {@code LinkedHashMap.removeEldestEntry}.
   */
  private boolean boundsItself(String type) {
    byte[] b = type == null || type.startsWith("java/") ? null : classes.apply(type);
    if (b == null) {
      return false;
    }
    ClassNode c = new ClassNode();
    new ClassReader(b).accept(c, ClassReader.SKIP_CODE);
    for (MethodNode m : c.methods) {
      if (m.name.equals("removeEldestEntry")) {
        return true;
      }
    }
    return false;
  }

  private static String where(String line) {
    return line == null ? "" : " (" + line + ")";
  }

  /** Returns {@code Dataset#get(int)}. */
  private String signature(MethodNode m) {
    return simpleName(cls.name) + "#" + m.name + "(" + params(m.desc) + ")";
  }

  private static String siteName(String simpleClass, String field) {
    String n = (simpleClass + "-" + field).replaceAll("[^A-Za-z0-9._:-]", "-")
        .toLowerCase(Locale.ROOT);
    return n.length() > 60 ? n.substring(0, 60) : n;
  }

  /** Returns {@code com.acme.Dataset#get(int)}. */
  static String ref(String owner, MethodNode m) {
    return javaName(owner) + "#" + m.name + "(" + params(m.desc) + ")";
  }

  /** Returns {@code java.util.HashMap#put(java.lang.Object,java.lang.Object)}. */
  static String ref(MethodInsnNode call) {
    return javaName(call.owner) + "#" + call.name + "(" + params(call.desc) + ")";
  }

  static String javaName(String internal) {
    return internal.replace('/', '.');
  }

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
