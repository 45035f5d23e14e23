package org.flodl.budget.agent.netty;

import org.flodl.budget.agent.library.Library;
import org.flodl.budget.pricing.TypePricer;

/**
 * Netty's buffers ({@code docs/LIBRARIES.md}): no preset (Netty keeps no cache of samples); its
 * {@code ByteBuf}s are priced by what stays reserved behind them ({@link NettyPricing}) wherever a
 * site admits one, and a declined one is released once the application no longer reaches it.
 */
public final class NettySupport implements Library {

  @Override
  public String name() {
    return "netty";
  }

  @Override
  public String covers() {
    return "Netty ByteBufs priced by the memory reserved behind them";
  }

  @Override
  public String apiPackage() {
    return "io/netty/buffer/";
  }

  @Override
  public String marker() {
    return "io/netty/buffer/ByteBuf";
  }

  @Override
  public boolean hasPreset() {
    return false;
  }

  @Override
  public TypePricer typePricer() {
    return new NettyPricing();
  }
}
