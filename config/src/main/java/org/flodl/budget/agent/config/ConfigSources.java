package org.flodl.budget.agent.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.flodl.budget.agent.config.Setting.Source;

/**
 * Reads the raw {@code key -> text} entries of each configuration source (agent arguments, {@code
 * flodl.budget.*} system properties, {@code FLODL_BUDGET_*} environment variables). A malformed
 * entry or an unknown key is added to the caller's problems, with a message that lists the known
 * keys and suggests the nearest one, and the reading goes on: the caller still learns every
 * well-formed entry (whether {@code strict=true} was asked for among them).
 */
final class ConfigSources {
  private ConfigSources() {}

  private static boolean known(String key) {
    return Option.forKey(key) != null;
  }

  /**
   * Returns whether {@code name} is one of the agent's own properties that are not settings: the
   * host-share registry's folder ({@code flodl.budget.registry}) and the outcomes an attach leaves
   * for the attach command ({@code flodl.budget.attach.ID}).
   */
  static boolean notASetting(String name) {
    return name.equals(AgentConfig.PROPERTY_PREFIX + "registry")
        || name.startsWith(AgentConfig.PROPERTY_PREFIX + "attach.");
  }

  /** Returns the {@code flodl.budget.*} entries of {@code properties} by key. */
  static Map<String, String> systemProperties(
      Properties systemProperties, List<ConfigException> problems) {
    Map<String, String> props = new LinkedHashMap<>();
    if (systemProperties != null) {
      for (String name : new TreeSet<>(systemProperties.stringPropertyNames())) {
        if (name.startsWith(AgentConfig.PROPERTY_PREFIX) && !notASetting(name)) {
          String key = name.substring(AgentConfig.PROPERTY_PREFIX.length());
          if (!known(key)) {
            problems.add(unknown(name, Source.SYSTEM_PROPERTY));
            continue;
          }
          props.put(key, systemProperties.getProperty(name));
        }
      }
    }
    return props;
  }

  /** Returns the {@code FLODL_BUDGET_*} entries of {@code environment} by key. */
  static Map<String, String> environment(
      Map<String, String> environment, List<ConfigException> problems) {
    Map<String, String> env = new LinkedHashMap<>();
    if (environment != null) {
      for (String name : new TreeSet<>(environment.keySet())) {
        if (name != null && name.startsWith(AgentConfig.ENV_PREFIX)) {
          String key = name.substring(AgentConfig.ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
          if (!known(key) || !name.equals(AgentConfig.ENV_PREFIX + key.toUpperCase(Locale.ROOT))) {
            problems.add(unknown(name, Source.ENVIRONMENT));
            continue;
          }
          env.put(key, environment.get(name));
        }
      }
    }
    return env;
  }

  /** Returns the entries of {@code agentArgs} by key, checked for syntax, keys and repeats. */
  static Map<String, String> agentArgs(String agentArgs, List<ConfigException> problems) {
    Map<String, String> args = new LinkedHashMap<>();
    if (agentArgs == null || agentArgs.isBlank()) {
      return args;
    }
    for (String entry : agentArgs.split(",", -1)) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      String key = (eq < 0 ? entry : entry.substring(0, eq)).trim();
      if (eq < 0 || key.isEmpty()) {
        problems.add(
            new ConfigException(
                key,
                "malformed agent argument '"
                    + entry.trim()
                    + "': expected key=value entries "
                    + "separated by commas, e.g. sites=sites.properties,record=budget.jfr"));
      } else if (!known(key)) {
        problems.add(unknown(key, Source.AGENT_ARGS));
      } else if (args.containsKey(key)) {
        problems.add(
            new ConfigException(
                key, "agent argument '" + key + "' given twice: expected each key at most once"));
        args.put(key, entry.substring(eq + 1)); // the last one, as strict is read
      } else {
        args.put(key, entry.substring(eq + 1));
      }
    }
    return args;
  }

  /** Returns the error for the unknown {@code name} from {@code source}, with a hint. */
  private static ConfigException unknown(String name, Source source) {
    String key = name;
    String what = "agent argument '" + name + "'";
    if (source == Source.SYSTEM_PROPERTY) {
      key = name.substring(AgentConfig.PROPERTY_PREFIX.length());
      what = "system property '" + name + "'";
    } else if (source == Source.ENVIRONMENT) {
      key = name.substring(AgentConfig.ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
      what = "environment variable '" + name + "'";
    }
    String hint = "";
    String near = nearest(key);
    if (SitesFile.isField(key)) {
      hint = "; '" + key + "' is a field of the sites file (site.NAME." + key + ")";
    } else if (near != null) {
      String spelled =
          switch (source) {
            case SYSTEM_PROPERTY -> AgentConfig.PROPERTY_PREFIX + near;
            case ENVIRONMENT -> AgentConfig.ENV_PREFIX + near.toUpperCase(Locale.ROOT);
            default -> near;
          };
      hint = "; did you mean '" + spelled + "'?";
    }
    // The hint first: a line is clipped at 300 characters, and the list of keys is the part to
    // lose.
    return new ConfigException(
        name, "unknown " + what + hint + " (known: " + String.join(", ", AgentConfig.keys()) + ")");
  }

  /** Returns the known key within two edits of a long enough {@code key}, or null. */
  private static String nearest(String key) {
    String best = null;
    int bestDistance = Math.min(3, (key.length() + 2) / 3);
    for (String k : AgentConfig.keys()) {
      int d = distance(key, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Returns the edit distance of {@code a} and {@code b}, a swap of neighbours counting one. */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /** Returns where a value from {@code source} was written, for messages. */
  static String origin(String key, Source source) {
    return switch (source) {
      case AGENT_ARGS -> "agent argument";
      case SYSTEM_PROPERTY -> "-D" + AgentConfig.PROPERTY_PREFIX + key;
      case ENVIRONMENT -> AgentConfig.ENV_PREFIX + key.toUpperCase(Locale.ROOT);
      default -> source.name().toLowerCase(Locale.ROOT);
    };
  }
}
