package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * Writes a {@link Plan} into one class file with ASM: a call to {@code Gate} at each body insert
 * and around each matching call instruction, nothing else. The class keeps its format (no member is
 * added or removed), so a class already loaded can be retransformed. Each method is woven by a
 * {@link MethodWeaver}; what the woven code does is told in the package's documentation.
 */
final class Weaver {
  static final String GATE = "org/flodl/budget/agent/gate/Gate";
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
  record Result(
      byte[] bytes,
      Map<String, List<String>> woven,
      java.util.Set<Integer> wovenRules,
      List<Plan.Failure> failures) {}

  /** Returns {@code original} with {@code plan} woven in; never throws. */
  static Result weave(byte[] original, Plan plan, Owners owners) {
    List<Plan.Failure> failures = new ArrayList<>(plan.failures());
    Map<String, List<String>> woven = new LinkedHashMap<>();
    String owner = plan.info().name();
    try {
      ClassReader reader = new ClassReader(original);
      boolean frames = plan.info().version() >= FRAMES_SINCE;
      Map<String, Integer> maxLocals =
          frames || plan.calls().isEmpty() ? Map.of() : maxLocals(reader);
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
      List<MethodWeaver> methods = new ArrayList<>();
      reader.accept(
          new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
              MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
              List<Plan.BodyInsert> inserts = byMethod.getOrDefault(name + descriptor, List.of());
              List<Rule> calls = new ArrayList<>();
              for (Rule r : plan.calls()) {
                if (inScope(r, name, descriptor)) {
                  calls.add(r);
                }
              }
              if (mv == null
                  || inserts.isEmpty() && calls.isEmpty()
                  || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return mv;
              }
              AnalyzerAdapter analyzer =
                  frames ? new AnalyzerAdapter(owner, access, name, descriptor, mv) : null;
              MethodWeaver in =
                  new MethodWeaver(
                      analyzer != null ? analyzer : mv,
                      analyzer,
                      access,
                      name,
                      descriptor,
                      inserts,
                      calls,
                      owners,
                      maxLocals.getOrDefault(name + descriptor, 0));
              methods.add(in);
              return in;
            }
          },
          frames ? ClassReader.EXPAND_FRAMES : 0);
      boolean any = false;
      java.util.Set<Integer> rules = new java.util.HashSet<>();
      for (MethodWeaver m : methods) {
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
        for (MethodWeaver m : methods) {
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
    reader.accept(
        new ClassVisitor(Opcodes.ASM9) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9) {
              @Override
              public void visitMaxs(int maxStack, int maxLocals) {
                out.put(name + descriptor, maxLocals);
              }
            };
          }
        },
        ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return out;
  }
}
