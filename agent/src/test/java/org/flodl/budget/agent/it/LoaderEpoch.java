package org.flodl.budget.agent.it;

/** One {@code epoch=N} line of the loader app ({@code test-apps/loader-app}): its fields. */
public final class LoaderEpoch {
  private final String line;

  private LoaderEpoch(String line) {
    this.line = line;
  }

  /** Returns the {@code epoch=n} line {@code r} printed, or fails saying there is none. */
  public static LoaderEpoch of(ChildJvm.Result r, int n) {
    for (String line : r.stdout.split("\n")) {
      if (line.startsWith("epoch=" + n + " ")) {
        return new LoaderEpoch(line);
      }
    }
    throw new AssertionError("no epoch=" + n + " line: " + r);
  }

  /** Returns the field {@code key} as a long. */
  public long get(String key) {
    return Long.parseLong(text(key));
  }

  /** Returns the field {@code key} as text. */
  public String text(String key) {
    for (String part : line.split(" ")) {
      if (part.startsWith(key + "=")) {
        return part.substring(key.length() + 1);
      }
    }
    throw new AssertionError("no " + key + "= in: " + line);
  }

  @Override
  public String toString() {
    return line;
  }
}
