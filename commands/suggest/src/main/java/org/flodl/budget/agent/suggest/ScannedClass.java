package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The class the site finder reads, and what its evidence says of it: which of its own fields a
 * value is, read directly or through a method of the class that only returns it (Scala's private
 * accessors, Kotlin's property getters), a field's type, the source line of an instruction, a
 * method's short signature and a site's name.
 */
final class ScannedClass {
  final ClassNode node;

  /** The class's methods that only return one of its fields: name + descriptor to the field. */
  private final Map<String, String> accessors = new LinkedHashMap<>();

  ScannedClass(ClassNode node) {
    this.node = node;
    for (MethodNode m : node.methods) {
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
    if (code.size() == 3
        && code.get(0) instanceof VarInsnNode load
        && load.getOpcode() == Opcodes.ALOAD
        && load.var == 0
        && code.get(1) instanceof FieldInsnNode get
        && get.getOpcode() == Opcodes.GETFIELD
        && get.owner.equals(node.name)
        && code.get(2).getOpcode() >= Opcodes.IRETURN
        && code.get(2).getOpcode() <= Opcodes.ARETURN) {
      return get.name;
    }
    return null;
  }

  /** Returns the field of this class that {@code s} is, or null when it is none. */
  String fieldOf(Origin s) {
    if (s.insn() instanceof FieldInsnNode f && f.owner.equals(node.name)) {
      return f.name;
    }
    if (s.insn() instanceof MethodInsnNode c && c.owner.equals(node.name)) {
      return accessors.get(c.name + c.desc); // a private accessor or a property getter
    }
    return null;
  }

  /** Returns the Java name of {@code field}'s declared type, or {@code ?}. */
  String fieldType(String field) {
    for (var f : node.fields) {
      if (f.name.equals(field)) {
        return Type.getType(f.desc).getClassName();
      }
    }
    return "?";
  }

  /** Returns the source file's name and the line of {@code insn}, e.g. {@code Dataset.java:42}. */
  String line(AbstractInsnNode insn) {
    int line = sourceLine(node, insn);
    if (line < 0) {
      return null;
    }
    return (node.sourceFile == null ? SiteFinder.simpleName(node.name) + ".class" : node.sourceFile)
        + ":"
        + line;
  }

  /**
   * Returns the source line of {@code insn} in {@code cls} (the last line number before it, mapped
   * through the class's source map), or -1 when the class carries none.
   */
  static int sourceLine(ClassNode cls, AbstractInsnNode insn) {
    for (AbstractInsnNode p = insn; p != null; p = p.getPrevious()) {
      if (p instanceof LineNumberNode ln) {
        return SourceLines.of(cls.sourceDebug, cls.sourceFile, ln.line);
      }
    }
    return -1;
  }

  /** Returns {@code Dataset#get(int)}. */
  String signature(MethodNode m) {
    return SiteFinder.simpleName(node.name) + "#" + m.name + "(" + SiteFinder.params(m.desc) + ")";
  }

  /** Returns {@code com.acme.Dataset#get(int)}: {@code m} as the sites file names it. */
  String ref(MethodNode m) {
    return SiteFinder.ref(node.name, m);
  }

  /** Returns the name of the site of this class at {@code field}: {@code dataset-cache}. */
  String siteName(String field) {
    String n =
        (SiteFinder.simpleName(node.name) + "-" + field)
            .replaceAll("[^A-Za-z0-9._:-]", "-")
            .toLowerCase(Locale.ROOT);
    return n.length() > 60 ? n.substring(0, 60) : n;
  }

  /** Returns {@code line} as the evidence writes it after a call: {@code " (Dataset.java:42)"}. */
  static String where(String line) {
    return line == null ? "" : " (" + line + ")";
  }
}
