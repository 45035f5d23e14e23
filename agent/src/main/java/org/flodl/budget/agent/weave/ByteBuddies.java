package org.flodl.budget.agent.weave;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.VisibilityBridgeStrategy;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

/**
 * The ByteBuddy set-up every weaver of the agent shares (sites-file points and the built-in DJL
 * site): advice class files found through the agent's own loader and the system loader (an
 * attached agent's advice is not on the boot path's locator), and a ByteBuddy that redefines
 * classes without changing their format. Loaded at the first weave, never at start-up.
 */
public final class ByteBuddies {
  /** Finds the advice classes' bytes. */
  public static final ClassFileLocator ADVICE_LOCATOR =
      new ClassFileLocator.Compound(
          ClassFileLocator.ForClassLoader.of(ByteBuddies.class.getClassLoader()),
          ClassFileLocator.ForClassLoader.ofSystemLoader());

  /** Describes the advice classes. */
  public static final TypePool ADVICE_POOL = TypePool.Default.of(ADVICE_LOCATOR);

  /** Redefines a class in place: no validation, no added members, no bridges. */
  public static final ByteBuddy BYTE_BUDDY =
      new ByteBuddy()
          .with(TypeValidation.DISABLED)
          .with(Implementation.Context.Disabled.Factory.INSTANCE)
          .with(InstrumentedType.Factory.Default.FROZEN)
          .with(VisibilityBridgeStrategy.Default.NEVER)
          .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE);

  private ByteBuddies() {}
}
