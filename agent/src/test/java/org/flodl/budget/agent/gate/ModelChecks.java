package org.flodl.budget.agent.gate;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * What the model-checked tests share: the scenarios they write by hand, one race each, and the
 * counts they keep over all of a run's invocations to show that the contended path they claim to
 * check ran. The model checker restores the static state an invocation changed before the next one;
 * it leaves these counts alone, since this class's methods run outside its analysis ({@link
 * #outsideAnalysis}, which each model-checking run that counts adds).
 */
public final class ModelChecks {
  private static final ConcurrentHashMap<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

  private ModelChecks() {}

  /** Returns the guarantee that puts this class's methods outside the model checker's analysis. */
  public static ManagedStrategyGuarantee outsideAnalysis() {
    return forClasses(ModelChecks.class.getName()).allMethods().ignore();
  }

  /** Adds {@code n} to the count of {@code what}. */
  public static void count(String what, long n) {
    COUNTS.computeIfAbsent(what, k -> new LongAdder()).add(n);
  }

  /** Sets every count to zero (before a run). */
  public static void clear() {
    COUNTS.clear();
  }

  /** Returns the count of {@code what} and sets it to zero. */
  public static long take(String what) {
    LongAdder a = COUNTS.remove(what);
    return a == null ? 0 : a.sum();
  }

  /**
   * Returns the actor of {@code test}'s operation {@code name}, which takes {@code args} (ints).
   */
  public static Actor actor(Class<?> test, String name, int... args) {
    Class<?>[] types = new Class<?>[args.length];
    Arrays.fill(types, int.class);
    try {
      Method m = test.getMethod(name, types);
      return new Actor(m, Arrays.stream(args).boxed().map(Object.class::cast).toList());
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  /**
   * Model-checks {@code test} in {@code scenario} alone, over at most {@code invocations}
   * interleavings, and asserts that the run met each of {@code paths} (their counts above zero).
   */
  public static void check(
      Class<?> test, ExecutionScenario scenario, int invocations, String... paths) {
    clear();
    new ModelCheckingOptions()
        .addCustomScenario(scenario)
        .iterations(0)
        .invocationsPerIteration(invocations)
        .addGuarantee(outsideAnalysis())
        .check(test);
    assertRan(paths);
  }

  /** Asserts that the run met each of {@code paths} (their counts above zero), and clears them. */
  public static void assertRan(String... paths) {
    for (String p : paths) {
      long n = take(p);
      assertTrue(n > 0, n + " " + p);
    }
  }

  /** Returns the scenario of {@code init}, then each of {@code threads} on a thread of its own. */
  public static ExecutionScenario scenario(List<Actor> init, List<List<Actor>> threads) {
    return new ExecutionScenario(init, threads, List.of(), null);
  }
}
