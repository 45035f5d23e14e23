package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application's {@link ValuePricer}, found by {@link java.util.ServiceLoader} on the class
 * loader given to {@link RetentionPricer#standard} (a loader serving a {@code META-INF/services}
 * file, as an application jar would), prices its own type ahead of the shallow size, inside
 * containers too; its materialize is called for views; a pricer that throws falls back to the
 * shallow size and is reported once.
 */
class ValuePricerTest {

  /** An application's sample: a tensor slice (a view) and a label. */
  public record Sample(ByteBuffer pixels, int label) {}

  /** What the application registers: a sample costs what its pixels cost, plus itself. */
  public static final class SamplePricer implements ValuePricer {
    @Override
    public boolean supports(Object value) {
      return value instanceof Sample;
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      Priced pixels = pricer.estimate(((Sample) value).pixels());
      return new Priced(
          pixels.tier(),
          Sample.class.getName(),
          pixels.logicalBytes() + 16,
          pixels.storageBytes() + 16,
          pixels.chargedBytes() + 16,
          pixels.materialize());
    }

    @Override
    public Object materialize(Object value, Priced price) {
      Sample s = (Sample) value;
      ByteBuffer copy =
          ByteBuffer.allocate(s.pixels().capacity()).put(s.pixels().duplicate().clear());
      return new Sample(copy.clear(), s.label());
    }
  }

  /** A pricer that fails on every value it claims. */
  public static final class BrokenPricer implements ValuePricer {
    @Override
    public boolean supports(Object value) {
      return value instanceof StringBuilder;
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      throw new IllegalStateException("broken on purpose");
    }
  }

  private static ClassLoader serving(Path dir, Class<?>... pricers) throws IOException {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    StringBuilder names = new StringBuilder();
    for (Class<?> p : pricers) {
      names.append(p.getName()).append('\n');
    }
    Files.writeString(services.resolve(ValuePricer.class.getName()), names);
    return new URLClassLoader(
        new URL[] {dir.toUri().toURL()}, ValuePricerTest.class.getClassLoader());
  }

  @Test
  void anApplicationPricerPricesItsOwnType(@TempDir Path dir) throws Exception {
    List<String> notices = new ArrayList<>();
    RetentionPricer pricer =
        RetentionPricer.standard(
            null, serving(dir, SamplePricer.class, BrokenPricer.class), notices::add);

    Sample owned = new Sample(ByteBuffer.allocate(64), 3);
    Retained kept = pricer.retain(owned);
    assertEquals(80, kept.price().chargedBytes());
    assertEquals(Sample.class.getName(), kept.price().valueType());
    assertSame(owned, kept.value());

    Sample view = new Sample(ByteBuffer.allocate(4096).slice(0, 64), 7);
    Priced estimate = pricer.estimate(view);
    assertEquals(80, estimate.chargedBytes());
    assertTrue(estimate.materialize());
    Retained copied = pricer.retain(view);
    assertEquals(estimate, copied.price());
    Sample copy = (Sample) copied.value();
    assertNotSame(view, copy);
    assertEquals(64, copy.pixels().array().length);
    assertEquals(7, copy.label());

    // Inside a container it cannot rebuild, the view is kept: charged its whole storage.
    // (the list's own object, priced by its estimated shallow size, comes on top)
    Priced inList = pricer.estimate(List.of(view));
    assertEquals(
        4096 + 16 + ShallowSizer.estimate(List.of(view).getClass()), inList.chargedBytes());
    assertEquals(false, inList.materialize());
    // Inside one it can, it is copied (the array of one reference: a 16-byte header and 4).
    assertEquals(80 + 24, pricer.estimate(new Object[] {view}).chargedBytes());

    // The broken pricer: shallow size, said once.
    assertTrue(notices.isEmpty(), notices.toString());
    long shallow = ShallowSizer.estimate(StringBuilder.class);
    assertEquals(shallow, pricer.estimate(new StringBuilder("x")).chargedBytes());
    assertEquals(shallow, pricer.estimate(new StringBuilder("y")).chargedBytes());
    assertEquals(1, notices.size(), notices.toString());
    assertTrue(notices.get(0).contains(BrokenPricer.class.getName()), notices.get(0));
  }

  @Test
  void withoutAPricerAnApplicationTypeIsWalkedThroughItsFields() {
    RetentionPricer pricer =
        RetentionPricer.standard(null, ValuePricerTest.class.getClassLoader(), line -> {});
    Priced p = pricer.estimate(new Sample(ByteBuffer.allocate(4096), 1));
    // Its shallow size (16-byte header + a reference (8) + an int (4), rounded up to 8), and the
    // 4 KiB buffer its field holds.
    assertEquals(32 + 4096, p.chargedBytes());
    assertEquals(Tier.HEAP, p.tier());
    assertFalse(p.estimated());
  }
}
