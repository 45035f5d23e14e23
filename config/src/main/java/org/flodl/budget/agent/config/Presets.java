package org.flodl.budget.agent.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.flodl.budget.agent.library.Library;

/**
 * The site sets of the libraries the agent knows ({@code presets=caffeine:guava}): one for each
 * {@link Library} found, shipped beside its support as a resource in the sites file's own format
 * ({@code META-INF/flodl-budget/presets/NAME.properties} in the agent jar), each budgeting every
 * cache (or data pipeline) of one library as one site named after it. {@code java -jar
 * flodl-budget-agent.jar presets [NAME]} prints them.
 */
public final class Presets {
  /** Every preset, in documentation order. {@code djl} is on unless {@code djl=off}. */
  public static final List<String> NAMES = Library.presetNames();

  private Presets() {}

  /** Returns whether {@code name} is a preset. */
  public static boolean exists(String name) {
    return NAMES.contains(name);
  }

  /** Returns the text of preset {@code name}, as shipped. */
  public static String text(String name) throws ConfigException {
    Library named = Library.named(name);
    if (named != null && !named.hasPreset()) {
      throw new ConfigException(
          Option.PRESETS.key(),
          "library '"
              + name
              + "' has no preset: its values are priced wherever a site admits one, without it");
    }
    if (!exists(name)) {
      throw new ConfigException(
          Option.PRESETS.key(),
          "unknown preset '" + Text.clip(name, 40) + "' (known: " + String.join(", ", NAMES) + ")");
    }
    Library library = Library.named(name);
    String resource = library.presetResource();
    try (InputStream in = open(library, resource)) {
      if (in == null) {
        throw new ConfigException(
            Option.PRESETS.key(),
            "preset '" + name + "' is missing from " + "the agent jar (" + resource + ")");
      }
      return new String(in.readNBytes(SitesFile.MAX_BYTES), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(
          Option.PRESETS.key(), "preset '" + name + "' cannot be read (" + e.getMessage() + ")", e);
    }
  }

  /** Returns the sites of preset {@code name}; their origin reads {@code preset NAME}. */
  public static SitesFile load(String name) throws ConfigException {
    return SitesFile.parse(text(name), "preset " + name);
  }

  private static InputStream open(Library library, String resource) {
    ClassLoader own = library.getClass().getClassLoader();
    // On the boot class path (the agent) the system loader finds it through the boot path.
    return own != null
        ? own.getResourceAsStream(resource)
        : ClassLoader.getSystemResourceAsStream(resource);
  }
}
