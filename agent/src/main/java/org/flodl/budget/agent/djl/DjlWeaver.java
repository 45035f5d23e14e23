package org.flodl.budget.agent.djl;

import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.VisibilityBridgeStrategy;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;

/**
 * Weaves DJL's data iteration: the epoch advice into {@code DataIterable}'s constructor and the
 * pricing advice into {@code fetch} of {@code DataIterable}, {@code BulkDataIterable} and any
 * subtype that overrides it. Before weaving, the signatures are checked against the ones DJL 0.28
 * to 0.36 declare, by parameter type names; a class that does not match is a DJL version the
 * agent does not recognise and loads unwoven, said in one line. Returns what it did, never throws.
 */
final class DjlWeaver {
  /** DataIterable's constructor, DJL 0.28 to 0.36; executor at 7, preFetchNumber 8, device 9. */
  static final List<String> CONSTRUCTOR = List.of(
      "ai.djl.training.dataset.RandomAccessDataset", "ai.djl.ndarray.NDManager",
      "ai.djl.training.dataset.Sampler", "ai.djl.translate.Batchifier",
      "ai.djl.translate.Batchifier", "ai.djl.translate.Pipeline", "ai.djl.translate.Pipeline",
      "java.util.concurrent.ExecutorService", "int", "ai.djl.Device");
  /** {@code Batch fetch(List<Long>, int)}. */
  static final List<String> FETCH = List.of("java.util.List", "int");
  static final String BATCH = "ai.djl.training.dataset.Batch";

  /**
   * Finds the advice classes' bytes: through the agent's own loader and the system loader (an
   * attached agent's advice is not on the boot path's locator).
   */
  private static final ClassFileLocator ADVICE_LOCATOR =
      new ClassFileLocator.Compound(
          ClassFileLocator.ForClassLoader.of(DjlWeaver.class.getClassLoader()),
          ClassFileLocator.ForClassLoader.ofSystemLoader());

  private static final TypePool ADVICE_POOL = TypePool.Default.of(ADVICE_LOCATOR);

  /** Redefines a class in place: no validation, no added members, no bridges. */
  private static final ByteBuddy BYTE_BUDDY =
      new ByteBuddy()
          .with(TypeValidation.DISABLED)
          .with(Implementation.Context.Disabled.Factory.INSTANCE)
          .with(InstrumentedType.Factory.Default.FROZEN)
          .with(VisibilityBridgeStrategy.Default.NEVER)
          .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE);

  private DjlWeaver() {}

  /**
   * What weaving a class gave.
   *
   * @param bytes the woven class file, null when nothing was woven
   * @param outcome {@code WOVEN}, {@code SKIPPED} (unrecognised version) or {@code FAILED}
   * @param message one line: what was woven, or why not
   */
  record Result(byte[] bytes, String outcome, String message) {}

  /**
   * Returns {@code original} woven: the epoch advice when {@code epoch}, the fetch advice when
   * {@code fetch}.
   */
  static Result weave(ClassLoader loader, String binaryName, byte[] original, boolean epoch,
      boolean fetch) {
    try {
      ClassFileLocator locator = new ClassFileLocator.Compound(
          ClassFileLocator.Simple.of(binaryName, original),
          ClassFileLocator.ForClassLoader.of(loader));
      TypePool pool = new TypePool.Default.WithLazyResolution(
          new TypePool.CacheProvider.Simple(), locator, TypePool.Default.ReaderMode.FAST);
      TypeDescription type = pool.describe(binaryName).resolve();
      MethodDescription ctor = null;
      MethodDescription fetchMethod = null;
      for (MethodDescription.InDefinedShape m : type.getDeclaredMethods()) {
        if (epoch && m.isConstructor() && parameters(m, CONSTRUCTOR)) {
          ctor = m;
        }
        if (fetch && m.isMethod() && m.getName().equals("fetch") && parameters(m, FETCH)
            && !m.isAbstract() && m.getReturnType().asErasure().getName().equals(BATCH)) {
          fetchMethod = m;
        }
      }
      if (epoch && ctor == null) {
        return new Result(null, "SKIPPED", binaryName + " has no constructor "
            + signature(CONSTRUCTOR) + ": a DJL version the agent does not recognise; "
            + "it loads unwoven and DJL's prefetch is not budgeted");
      }
      if (!epoch && fetchMethod == null) {
        return new Result(null, "SKIPPED", binaryName + " declares no Batch fetch"
            + signature(FETCH) + ": a DJL version the agent does not recognise; it loads unwoven");
      }
      DynamicType.Builder<?> b = BYTE_BUDDY.redefine(type, locator);
      StringBuilder what = new StringBuilder();
      if (ctor != null) {
        b = b.visit(advice("Epoch").on(ElementMatchers.is(ctor)));
        what.append("epoch boundary at <init>").append(signature(CONSTRUCTOR));
      }
      if (fetchMethod != null) {
        b = b.visit(advice("Fetch").on(ElementMatchers.is(fetchMethod)));
        what.append(what.length() > 0 ? ", " : "").append("batch pricing at fetch")
            .append(signature(FETCH));
      } else if (fetch) {
        what.append(" (no Batch fetch").append(signature(FETCH))
            .append(" declared: its batches are not priced)");
      }
      return new Result(b.make().getBytes(), "WOVEN", what.toString());
    } catch (Throwable t) {
      return new Result(null, "FAILED", "ByteBuddy could not weave " + binaryName + ": " + t);
    }
  }

  private static Advice advice(String name) {
    return Advice.to(ADVICE_POOL.describe(DjlAdvice.class.getName() + "$" + name).resolve(),
        ADVICE_LOCATOR);
  }

  private static boolean parameters(MethodDescription m, List<String> wanted) {
    List<? extends ParameterDescription> params = m.getParameters();
    if (params.size() != wanted.size()) {
      return false;
    }
    for (int i = 0; i < params.size(); i++) {
      if (!params.get(i).getType().asErasure().getName().equals(wanted.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static String signature(List<String> params) {
    StringBuilder s = new StringBuilder("(");
    for (String p : params) {
      s.append(s.length() > 1 ? ", " : "").append(p.substring(p.lastIndexOf('.') + 1));
    }
    return s.append(')').toString();
  }
}
