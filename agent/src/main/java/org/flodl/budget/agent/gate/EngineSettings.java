package org.flodl.budget.agent.gate;

import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.VramProbe;

/**
 * What a {@link GateEngine} is made with, each part named: its mode and {@code prefetch=auto}, how
 * it makes its pricer and its probes, how often the probes refresh, the three usage knobs and this
 * JVM's host share. A part left unset takes the agent's default ({@code enforce}, {@code
 * prefetch=cap}, 1 s, 0.5, 0.5, 0.9, the whole host); the pricer and the probes have none.
 */
public final class EngineSettings {
  /** The whole host: the share of a JVM that shares it with no other. */
  private static final DoubleSupplier WHOLE_HOST =
      new DoubleSupplier() {
        @Override
        public double getAsDouble() {
          return 1.0;
        }
      };

  final Mode mode;
  final boolean prefetchAuto;
  final Supplier<RetentionPricer> pricerFactory;
  final Supplier<MemoryProbes> probeFactory;
  final Supplier<VramProbe> vramProbe;
  final Duration probeInterval;
  final double ramMaxUsage;
  final double heapMaxUsage;
  final double vramMaxUsage;
  final DoubleSupplier hostShare;

  private EngineSettings(Builder b) {
    this.mode = b.mode;
    this.prefetchAuto = b.prefetchAuto;
    this.pricerFactory = Objects.requireNonNull(b.pricerFactory, "pricerFactory");
    this.probeFactory = Objects.requireNonNull(b.probeFactory, "probeFactory");
    this.vramProbe = b.vramProbe;
    this.probeInterval = b.probeInterval;
    this.ramMaxUsage = b.ramMaxUsage;
    this.heapMaxUsage = b.heapMaxUsage;
    this.vramMaxUsage = b.vramMaxUsage;
    this.hostShare = b.hostShare;
  }

  /** Returns a builder at the agent's defaults, with no pricer and no probes yet. */
  public static Builder builder() {
    return new Builder();
  }

  /** The settings of one engine, each set by its name. */
  public static final class Builder {
    private Mode mode = Mode.ENFORCE;
    private boolean prefetchAuto;
    private Supplier<RetentionPricer> pricerFactory;
    private Supplier<MemoryProbes> probeFactory;
    private Supplier<VramProbe> vramProbe;
    private Duration probeInterval = Duration.ofSeconds(1);
    private double ramMaxUsage = 0.5;
    private double heapMaxUsage = 0.5;
    private double vramMaxUsage = 0.9;
    private DoubleSupplier hostShare = WHOLE_HOST;

    private Builder() {}

    /** Returns this builder with the engine's mode: enforce or observe ({@code off} makes none). */
    public Builder mode(Mode mode) {
      this.mode = mode;
      return this;
    }

    /** Returns this builder with whether {@code prefetch=auto} applies (else {@code cap}). */
    public Builder prefetchAuto(boolean prefetchAuto) {
      this.prefetchAuto = prefetchAuto;
      return this;
    }

    /** Returns this builder with what makes the pricer, on first use. */
    public Builder pricerFactory(Supplier<RetentionPricer> pricerFactory) {
      this.pricerFactory = pricerFactory;
      return this;
    }

    /** Returns this builder with what makes the memory probes, on first use. */
    public Builder probeFactory(Supplier<MemoryProbes> probeFactory) {
      this.probeFactory = probeFactory;
      return this;
    }

    /**
     * Returns this builder with the GPU probe the probes' factory reads too (the same one): a GPU
     * depth decision before the first refresh reads it alone (see {@code EarlyVram}). Unset, such a
     * decision waits for the first refresh.
     */
    public Builder vramProbe(Supplier<VramProbe> vramProbe) {
      this.vramProbe = vramProbe;
      return this;
    }

    /** Returns this builder with how often the probes refresh ({@code probe_interval}). */
    public Builder probeInterval(Duration probeInterval) {
      this.probeInterval = probeInterval;
      return this;
    }

    /** Returns this builder with {@code ram_max_usage}. */
    public Builder ramMaxUsage(double ramMaxUsage) {
      this.ramMaxUsage = ramMaxUsage;
      return this;
    }

    /** Returns this builder with {@code heap_max_usage}. */
    public Builder heapMaxUsage(double heapMaxUsage) {
      this.heapMaxUsage = heapMaxUsage;
      return this;
    }

    /** Returns this builder with {@code vram_max_usage}. */
    public Builder vramMaxUsage(double vramMaxUsage) {
      this.vramMaxUsage = vramMaxUsage;
      return this;
    }

    /** Returns this builder with this JVM's share of the host, read at each budget. */
    public Builder hostShare(DoubleSupplier hostShare) {
      this.hostShare = hostShare;
      return this;
    }

    /** Returns the settings as set; throws when the pricer or the probes were not given. */
    public EngineSettings build() {
      return new EngineSettings(this);
    }
  }
}
