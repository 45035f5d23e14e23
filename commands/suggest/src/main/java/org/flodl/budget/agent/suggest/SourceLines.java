package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The source line of a class file's line number, through the class's source map (JSR-45's SMAP, the
 * {@code SourceDebugExtension} attribute): Kotlin numbers the code it inlines from another file (a
 * {@code getOrPut} of {@code Maps.kt}) past the end of the class's own source, and maps those
 * numbers back, in its {@code KotlinDebug} stratum, to the line of the call it inlined. A class
 * with no map, or a map this cannot read, keeps its numbers.
 */
final class SourceLines {
  private SourceLines() {}

  /** Returns the line of {@code sourceFile} that class-file line {@code line} stands for. */
  static int of(String smap, String sourceFile, int line) {
    if (smap == null || !smap.startsWith("SMAP")) {
      return line;
    }
    try {
      String[] lines = smap.split("\n");
      Map<String, Stratum> strata = parse(lines);
      Stratum main = strata.get(lines.length > 2 ? lines[2].trim() : "");
      int[] e = main == null ? null : main.find(line);
      if (e != null && sourceFile != null && sourceFile.equals(main.files.get(e[1]))) {
        return e[0] + (line - e[3]) / e[4]; // the class's own source
      }
      Stratum debug = strata.get("KotlinDebug");
      int[] d = debug == null ? null : debug.find(line);
      return d != null ? d[0] + (line - d[3]) / d[4] : line; // inlined: the call's line
    } catch (RuntimeException unreadable) {
      return line;
    }
  }

  /** One stratum: its files by id, and its line entries. */
  private static final class Stratum {
    final Map<Integer, String> files = new HashMap<>();

    /** Each: input start line, file id, repeat count, output start line, output increment. */
    final List<int[]> entries = new ArrayList<>();

    int[] find(int out) {
      for (int[] e : entries) {
        if (out >= e[3] && out < e[3] + e[2] * e[4]) {
          return e;
        }
      }
      return null;
    }
  }

  private static Map<String, Stratum> parse(String[] lines) {
    Map<String, Stratum> strata = new HashMap<>();
    Stratum s = null;
    String section = "";
    for (int i = 3; i < lines.length; i++) {
      String l = lines[i].trim();
      if (l.startsWith("*S ")) {
        s = new Stratum();
        strata.put(l.substring(3).trim(), s);
        section = "";
      } else if (l.startsWith("*")) {
        section = l;
      } else if (s != null && section.equals("*F") && !l.isEmpty()) {
        boolean withPath = l.startsWith("+ ");
        String[] idName = (withPath ? l.substring(2) : l).trim().split(" ", 2);
        s.files.put(Integer.parseInt(idName[0]), idName[1].trim());
        if (withPath) {
          i++; // the next line is the file's path
        }
      } else if (s != null && section.equals("*L") && !l.isEmpty()) {
        s.entries.add(entry(l, s.entries));
      }
    }
    return strata;
  }

  /** Reads {@code In[#File][,Repeat]:Out[,Increment]}; the file id carries over from the last. */
  private static int[] entry(String l, List<int[]> before) {
    String[] inOut = l.split(":", 2);
    String in = inOut[0];
    int repeat = 1;
    int comma = in.indexOf(',');
    if (comma >= 0) {
      repeat = Integer.parseInt(in.substring(comma + 1).trim());
      in = in.substring(0, comma);
    }
    int file = before.isEmpty() ? 1 : before.get(before.size() - 1)[1];
    int hash = in.indexOf('#');
    if (hash >= 0) {
      file = Integer.parseInt(in.substring(hash + 1).trim());
      in = in.substring(0, hash);
    }
    String[] out = inOut[1].split(",", 2);
    int increment = out.length > 1 ? Math.max(1, Integer.parseInt(out[1].trim())) : 1;
    return new int[] {
      Integer.parseInt(in.trim()), file, repeat, Integer.parseInt(out[0].trim()), increment
    };
  }
}
