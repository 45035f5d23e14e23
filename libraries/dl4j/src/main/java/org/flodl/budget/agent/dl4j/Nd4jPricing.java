package org.flodl.budget.agent.dl4j;

import org.flodl.budget.agent.library.Shallow;
import org.flodl.budget.agent.library.TypeValuePricer;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.TypePricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * ND4J's values, found by name ({@link Nd4jHandles}): an INDArray pins its whole buffer, off the
 * heap ({@link Tier#NATIVE}: ND4J's CPU backend allocates through JavaCPP); a view within the slack
 * is charged that buffer, past it (or attached to a workspace, which overwrites it when it closes)
 * it is materialized, a {@code dup()} made outside every workspace, and charged what it addresses.
 * A DataSet or MultiDataSet is its features, labels and masks, rebuilt around the copies where its
 * class has the public constructor of those four.
 */
public final class Nd4jPricing implements TypePricer {

  @Override
  public ValuePricer pricerOf(Class<?> c) {
    Class<?> array = Types.supertypeNamed(c, Nd4jHandles.ARRAY);
    if (array != null) {
      try {
        return new Arrays(Nd4jHandles.array(array));
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return Shallow.PRICER;
      }
    }
    Class<?> parts = Types.supertypeNamed(c, Nd4jHandles.DATA_SET);
    if (parts == null) {
      parts = Types.supertypeNamed(c, Nd4jHandles.MULTI_DATA_SET);
    }
    if (parts != null) {
      try {
        return new DataSets(Nd4jHandles.parts(c, parts));
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return Shallow.PRICER;
      }
    }
    return null;
  }

  /** INDArrays: their buffer, or a copy of what they address. */
  private static final class Arrays extends TypeValuePricer {
    private final Nd4jHandles h;

    Arrays(Nd4jHandles h) {
      this.h = h;
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      try {
        long length = (long) h.length.invokeExact(value);
        long underlying = (long) h.underlyingLength.invokeExact(value);
        int width = (int) h.width.invokeExact(value);
        boolean attached = (boolean) h.attached.invokeExact(value);
        long logical = saturatedMultiply(Math.max(length, 0L), Math.max(width, 0));
        long storage =
            Math.max(logical, saturatedMultiply(Math.max(underlying, 0L), Math.max(width, 0)));
        boolean materialize = attached || BudgetPolicy.shouldMaterialize(logical, storage);
        return new Priced(
            Tier.NATIVE,
            value.getClass().getTypeName(),
            logical,
            storage,
            materialize ? logical : storage,
            materialize);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("INDArray could not be sized: " + t, t);
      }
    }

    /**
     * Returns the array's copy of its own: a {@code dup()} inside {@code scopeOutOfWorkspaces()},
     * which takes an attached array out of its workspace too (a plain {@code dup()} on a thread
     * with a workspace open would land in that workspace).
     */
    @Override
    public Object materialize(Object value, Priced price) {
      try {
        AutoCloseable scope = (AutoCloseable) (Object) h.outOfWorkspaces.invokeExact();
        try {
          return (Object) h.dup.invokeExact(value);
        } finally {
          scope.close();
        }
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("INDArray could not be copied: " + t, t);
      }
    }
  }

  /** DataSets and MultiDataSets: their four parts. */
  private static final class DataSets extends TypeValuePricer {
    private final Nd4jHandles h;

    DataSets(Nd4jHandles h) {
      this.h = h;
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      return null; // never asked: priced by its parts
    }

    @Override
    public Object[] parts(Object value) {
      Object[] out = new Object[h.parts.length];
      try {
        for (int i = 0; i < out.length; i++) {
          out[i] = (Object) h.parts[i].invokeExact(value);
        }
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a DataSet could not be read: " + t, t);
      }
      return out;
    }

    @Override
    public boolean canRebuild(Object value) {
      return h.rebuild != null;
    }

    @Override
    public Object rebuild(Object value, Object[] parts) {
      try {
        return (Object) h.rebuild.invokeExact(parts);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a DataSet could not be rebuilt: " + t, t);
      }
    }
  }

  private static long saturatedMultiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }
}
