package org.flodl.budget.agent.ffm;

import org.flodl.budget.agent.library.Library;
import org.flodl.budget.pricing.TypePricer;

/**
 * The JDK's Foreign Function &amp; Memory API (JDK 22+), as a library the agent knows: no preset,
 * its memory segments priced by what they keep alive wherever a site admits one ({@link
 * SegmentPricing}), and a {@code ByteBuffer} made from a segment priced by its segment. On JDK 17
 * to 21 its pricer finds nothing to price.
 */
public final class FfmSupport implements Library {
  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public FfmSupport() {}

  @Override
  public String name() {
    return "ffm";
  }

  @Override
  public String covers() {
    return "the JDK's memory segments (java.lang.foreign), priced by the memory each keeps alive";
  }

  @Override
  public String apiPackage() {
    return "java/lang/foreign/";
  }

  @Override
  public String marker() {
    return "java/lang/foreign/MemorySegment";
  }

  @Override
  public boolean hasPreset() {
    return false;
  }

  /** Returns the segments' pricer on JDK 22+, null before (no application segment to price). */
  @Override
  public TypePricer typePricer() {
    return Runtime.version().feature() >= 22 ? new SegmentPricing() : null;
  }
}
