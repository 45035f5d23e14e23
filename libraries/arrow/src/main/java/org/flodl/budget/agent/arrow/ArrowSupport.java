package org.flodl.budget.agent.arrow;

import java.util.List;
import org.flodl.budget.agent.library.EntryHook;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.pricing.TypePricer;

/**
 * Apache Arrow's memory ({@code docs/LIBRARIES.md}): no preset (Arrow keeps no cache or queue of
 * its own to budget); its buffers, vectors and roots are priced by the allocations they pin ({@link
 * ArrowPricing}) wherever a site admits one, a small view of a large allocation copied from its own
 * allocator ({@link ArrowCopies}), a declined one (and an original a copy replaced) released once
 * the application no longer reaches it, an allocator's close first hands back the declined values
 * it would report leaked ({@link ArrowClose}), and the root allocators' headroom bounds the native
 * tier.
 */
public final class ArrowSupport implements Library {
  private final ArrowPricing pricing = new ArrowPricing();

  @Override
  public String name() {
    return "arrow";
  }

  @Override
  public String covers() {
    return "Apache Arrow buffers, vectors and roots priced by the allocations they pin";
  }

  @Override
  public String apiPackage() {
    return "org/apache/arrow/memory/";
  }

  @Override
  public String marker() {
    return "org/apache/arrow/memory/BufferAllocator";
  }

  @Override
  public boolean hasPreset() {
    return false;
  }

  @Override
  public TypePricer typePricer() {
    return pricing;
  }

  @Override
  public <T> List<T> hooks(Class<T> type) {
    return type == EntryHook.class ? List.of(type.cast(new ArrowClose())) : List.of();
  }

  @Override
  public long nativeAvailable() {
    return pricing.nativeHeadroom();
  }
}
