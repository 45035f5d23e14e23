package org.flodl.budget.agent.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Sites files the child-JVM tests hand the agent. */
final class Sites {
  private Sites() {}

  /** The test app's cache: put(key, value) retains argument 1, evict(key) returns it. */
  static final String STORE =
      "site.samples.kind = cache-admit\n"
          + "site.samples.method = com.acme.it.SampleStore#put(java.lang.Object,java.lang.Object)\n"
          + "site.samples.value = 1   # the value\n"
          + "site.samples.release = com.acme.it.SampleStore#evict\n";

  /** The feeder: constructor argument 1 is the depth, next() returns batches. */
  static final String FEEDER =
      "site.feed.kind = prefetch-depth\n"
          + "site.feed.method = com.acme.it.Feeder#<init>\n"
          + "site.feed.depth = 1\n"
          + "site.feed.batch = com.acme.it.Feeder#next\n"
          + "site.feed.device = cpu\n"
          + "site.pref.kind = prefetch-depth\n"
          + "site.pref.method = com.acme.it.Feeder#preferredDepth\n"
          + "site.pref.depth = return\n"
          + "site.pref.device = cuda:0\n"
          + "site.pref.batch_bytes = 1M\n";

  /** Returns a sites file with {@code text}, written to the IT work folder as {@code name}. */
  static Path write(String name, String text) throws IOException {
    Files.createDirectories(ChildJvm.WORK);
    Path p = ChildJvm.WORK.resolve(name + ".properties");
    Files.writeString(p, text);
    return p.toAbsolutePath();
  }
}
