package org.flodl.budget.agent.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One call site of the sites file: a cache-admit site (the value argument at {@code valueIndex}
 * is priced and admitted or declined, optionally released at {@code releaseClass#releaseMethod})
 * or a prefetch-depth site (the depth argument at {@code depthIndex}, or the {@code int} return
 * value when it is {@link #RETURN}, is set by the policy; batches are priced at {@code
 * batchClass#batchMethod} or at a fixed {@code batchBytes}). {@code parameterTypes} is null when
 * the file gave no parameter list: the method then matches by name only, if unambiguous.
 */
public record SiteSpec(
    String name,
    Kind kind,
    String className,
    String methodName,
    List<String> parameterTypes,
    int valueIndex,
    int depthIndex,
    String releaseClass,
    String releaseMethod,
    List<String> releaseParams,
    String batchClass,
    String batchMethod,
    long batchBytes,
    String device,
    String role) {

  /** The {@code depthIndex} of a site whose depth is the method's return value. */
  public static final int RETURN = -1;
  /** The index a kind does not use: depthIndex of cache-admit, valueIndex of prefetch-depth. */
  public static final int UNUSED = -2;
  /** The method name of a constructor site. */
  public static final String CONSTRUCTOR = "<init>";
  /** The {@code role} of a site that feeds a stager. */
  public static final String STAGER = "stager";

  /** What a site decides. */
  public enum Kind {
    CACHE_ADMIT("cache-admit"),
    PREFETCH_DEPTH("prefetch-depth");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** Returns the sites-file and event name: {@code cache-admit}, {@code prefetch-depth}. */
    public String label() {
      return label;
    }

    /** Returns the kind the sites file calls {@code label}, or null. */
    public static Kind fromLabel(String label) {
      for (Kind k : values()) {
        if (k.label.equalsIgnoreCase(label)) {
          return k;
        }
      }
      return null;
    }
  }

  public SiteSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(methodName, "methodName");
    parameterTypes = parameterTypes == null ? null : List.copyOf(parameterTypes);
    releaseParams = releaseParams == null ? null : List.copyOf(releaseParams);
    device = device == null ? "cpu" : device.toLowerCase(Locale.ROOT);
  }

  /** Returns whether the site's device is a GPU ({@code cuda:N}). */
  public boolean isCuda() {
    return device.startsWith("cuda:");
  }

  /** Returns N of {@code cuda:N}, or -1 for {@code cpu}. */
  public int deviceIndex() {
    return isCuda() ? Integer.parseInt(device.substring("cuda:".length())) : -1;
  }

  /** Returns whether the site is a constructor. */
  public boolean isConstructor() {
    return CONSTRUCTOR.equals(methodName);
  }

  /** Returns whether the site feeds a stager ({@code role = stager}). */
  public boolean isStager() {
    return STAGER.equals(role);
  }

  /** Returns the method as the sites file writes it: {@code com.acme.Foo#put(java.lang.Object)}. */
  public String method() {
    return MethodRef.format(className, methodName, parameterTypes);
  }

  /** Returns the release method as written, or null when none. */
  public String release() {
    return releaseClass == null
        ? null
        : MethodRef.format(releaseClass, releaseMethod, releaseParams);
  }

  /** Returns the batch method as written, or null when none. */
  public String batch() {
    return batchClass == null ? null : MethodRef.format(batchClass, batchMethod, null);
  }
}
