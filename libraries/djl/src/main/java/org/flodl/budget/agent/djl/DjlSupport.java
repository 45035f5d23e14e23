package org.flodl.budget.agent.djl;

import java.util.List;
import java.util.Locale;
import org.flodl.budget.agent.library.DepthAdapter;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.WatchedClass;
import org.flodl.budget.pricing.TypePricer;

/**
 * DJL: preset {@code djl} ({@code docs/presets/djl.md}), on unless {@code djl=off}; its depth
 * adapter ({@link DjlGate}) reads each epoch's dataset, sampler and device, and where the
 * application loads DJL's CUDA bindings ({@link DjlCuda}) and {@code vram_probe=auto}, a GPU
 * epoch's VRAM is read through them.
 */
public final class DjlSupport implements Library {
  /** DJL's CUDA bindings, watched for as they load (here: the start loads no DjlCuda). */
  static final WatchedClass CUDA_UTILS = new WatchedClass("ai/djl/util/cuda/CudaUtils");

  @Override
  public String name() {
    return DjlGate.SITE;
  }

  @Override
  public String covers() {
    return "DJL's DataIterable: each epoch's prefetch depth and batch prices";
  }

  @Override
  public String apiPackage() {
    return "ai/djl/training/dataset/";
  }

  @Override
  public String marker() {
    return "ai/djl/training/dataset/DataIterable";
  }

  @Override
  public boolean onByDefault() {
    return true;
  }

  @Override
  public String adapterKind() {
    return "prefetch-depth";
  }

  @Override
  public <T> T adapter(Class<T> type, String vramProbe) {
    if (type != DepthAdapter.class) {
      return null;
    }
    return type.cast(
        new DjlGate(vramProbe == null || vramProbe.trim().toLowerCase(Locale.ROOT).equals("auto")));
  }

  @Override
  public TypePricer typePricer() {
    return new DjlPricing();
  }

  @Override
  public List<WatchedClass> watched() {
    return List.of(CUDA_UTILS);
  }
}
