package org.flodl.budget.agent.config;

import java.util.Locale;
import java.util.Objects;

/**
 * A {@code kind = prefetch-depth} block: the {@code int} at argument {@code depth} (or returned,
 * {@link SiteSpec#RETURN}) is set by the policy; batches are priced as {@code batch} returns them,
 * or at a fixed {@code batchBytes}; {@code device} is {@code cpu} or {@code cuda:N}. With {@code
 * executor}, a depth of 0 is applied as a null executor at that argument (the call then runs
 * synchronously), never as a depth of 0. {@code adapter} names a framework whose epochs and batches
 * the agent reads its own way ({@code djl}), or is null.
 */
public record PrefetchDepthSite(
    String block,
    String name,
    MethodRef method,
    Scope in,
    int depth,
    MethodRef batch,
    long batchBytes,
    long activationReserve,
    String device,
    int executor,
    String adapter,
    boolean stager,
    String origin)
    implements SiteSpec {

  /** The {@code executor} of a site that has none. */
  public static final int NO_EXECUTOR = -1;

  public PrefetchDepthSite {
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(method, "method");
    device = device == null ? "cpu" : device.toLowerCase(Locale.ROOT);
  }

  /** Returns whether the depth is the method's return value. */
  public boolean returned() {
    return depth == RETURN;
  }

  /** Returns whether the site's device is a GPU ({@code cuda:N}). */
  public boolean isCuda() {
    return device.startsWith("cuda:");
  }

  /** Returns N of {@code cuda:N}, or -1 for {@code cpu}. */
  public int deviceIndex() {
    return isCuda() ? Integer.parseInt(device.substring("cuda:".length())) : -1;
  }

  @Override
  public String kind() {
    return "prefetch-depth";
  }
}
