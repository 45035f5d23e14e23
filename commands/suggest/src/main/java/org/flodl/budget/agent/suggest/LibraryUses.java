package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * What an application's classes call of the libraries that have a preset: each call into a
 * library's API is a use of its preset (the evidence for a {@code presets} line), and a call to a
 * door into its caches that the preset does not cover ({@code Library#uncoveredDoors}) is named,
 * with where it is, so that the user budgets it with a site of their own.
 */
final class LibraryUses {
  /** The most uses a preset's line shows. */
  static final int MAX = 5;

  private LibraryUses() {}

  /**
   * Adds the calls of {@code classFile} into a preset's library to its uses in {@code presets} (and
   * the preset), and a line for each call to a door its preset does not cover to {@code uncovered},
   * once per door and place.
   */
  static void add(byte[] classFile, Map<String, List<String>> presets, List<String> uncovered) {
    ClassNode cls = new ClassNode();
    new ClassReader(classFile).accept(cls, ClassReader.SKIP_FRAMES);
    for (MethodNode m : cls.methods) {
      for (AbstractInsnNode insn : m.instructions) {
        if (!(insn instanceof MethodInsnNode call)) {
          continue;
        }
        for (Libraries.Preset p : Libraries.PRESETS) {
          if (!p.hasPreset() || !call.owner.startsWith(p.apiPackage())) {
            continue;
          }
          String where = SiteFinder.ref(cls.name, m);
          String called = SiteFinder.simpleName(call.owner) + "." + call.name + line(cls, insn);
          List<String> u = presets.computeIfAbsent(p.name(), k -> new ArrayList<>());
          String use = where + " calls " + called;
          if (u.size() < MAX + 1 && !u.contains(use)) {
            u.add(use);
          }
          if (p.uncovered().contains(call.owner + "#" + call.name)) {
            String door =
                p.name()
                    + ": "
                    + where
                    + " calls "
                    + called
                    + ", a door into the cache the preset does not cover: budget it with a site"
                    + " of your own (in = "
                    + where
                    + ")";
            if (!uncovered.contains(door)) {
              uncovered.add(door);
            }
          }
        }
      }
    }
  }

  private static String line(ClassNode cls, AbstractInsnNode insn) {
    int line = ScannedClass.sourceLine(cls, insn);
    return line < 0
        ? ""
        : " (" + (cls.sourceFile == null ? "?" : cls.sourceFile) + ":" + line + ")";
  }
}
