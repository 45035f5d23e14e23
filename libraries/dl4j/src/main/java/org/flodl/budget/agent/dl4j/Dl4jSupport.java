package org.flodl.budget.agent.dl4j;

import java.util.List;
import org.flodl.budget.agent.library.EntryHook;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.WatchedClass;
import org.flodl.budget.pricing.TypePricer;

/**
 * Deeplearning4j: preset {@code dl4j} ({@code docs/presets/dl4j.md}); its entry hook ({@link
 * Dl4jCaching}) has a caching iterator read a declined DataSet from its source again, and where
 * JavaCPP is loaded ({@link JavaCpp}) its limits bound the native tier.
 */
public final class Dl4jSupport implements Library {
  /** JavaCPP's Pointer, watched for as it loads (here: the start loads no JavaCpp). */
  static final WatchedClass POINTER = new WatchedClass("org/bytedeco/javacpp/Pointer");

  @Override
  public String name() {
    return "dl4j";
  }

  @Override
  public String covers() {
    return "Deeplearning4j's async iterators' depth and DataSet prices, InMemoryDataSetCache's "
        + "bytes";
  }

  @Override
  public String apiPackage() {
    return "org/nd4j/linalg/dataset/";
  }

  @Override
  public String marker() {
    return "org/nd4j/linalg/dataset/AsyncDataSetIterator";
  }

  @Override
  public String adapterKind() {
    return "cache-admit";
  }

  @Override
  public <T> T adapter(Class<T> type, String vramProbe) {
    return type == EntryHook.class ? type.cast(new Dl4jCaching()) : null;
  }

  @Override
  public TypePricer typePricer() {
    return new Nd4jPricing();
  }

  @Override
  public List<WatchedClass> watched() {
    return List.of(POINTER);
  }

  @Override
  public long nativeAvailable() {
    return JavaCpp.available();
  }
}
