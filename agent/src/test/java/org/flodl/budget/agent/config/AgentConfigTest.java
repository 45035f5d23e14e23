package org.flodl.budget.agent.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Properties;
import org.flodl.budget.agent.config.Setting.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentConfigTest {

  private static AgentConfig args(String agentArgs) throws ConfigException {
    return AgentConfig.resolve(agentArgs, new Properties(), Map.of());
  }

  private static Properties props(String... keyValues) {
    Properties p = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  private static ConfigException bad(String agentArgs) {
    return assertThrows(ConfigException.class, () -> args(agentArgs));
  }

  @Test
  void defaultsAreTheDesignTable() throws ConfigException {
    AgentConfig c = AgentConfig.resolve(null, null, null);
    // The bare flag: nothing chose what to budget, so every preset and DJL are observed.
    assertEquals(Mode.OBSERVE, c.mode());
    assertTrue(c.observesAll());
    assertEquals(0.50, c.ramMaxUsage());
    assertEquals(0.50, c.heapMaxUsage());
    assertEquals(0.90, c.vramMaxUsage());
    assertEquals(OptionalDouble.empty(), c.hostShare());
    assertEquals(PrefetchPolicy.CAP, c.prefetch());
    assertEquals(Optional.empty(), c.sites());
    assertTrue(c.djl());
    assertEquals("auto", c.vramProbe());
    assertEquals("auto", c.ramProbe());
    assertEquals(Optional.empty(), c.record());
    assertEquals(250L << 20, c.recordMaxSize(), "a recording is bounded by default");
    assertEquals(Duration.ZERO, c.recordMaxAge());
    assertEquals("50/s", c.throttle());
    assertFalse(c.strict());
    assertEquals(LogLevel.WARN, c.log());
    assertEquals(Duration.ofSeconds(1), c.probeInterval());
    assertEquals("", c.job());
    assertEquals(AgentConfig.keys(), List.copyOf(c.settings().keySet()));
    for (Setting s : c.settings().values()) {
      assertEquals(Source.DEFAULT, s.source(), s.key());
    }
    assertEquals("0.5", c.settings().get("ram_max_usage").value());
    assertEquals("1s", c.settings().get("probe_interval").value());
    assertEquals(c.settings(), AgentConfig.defaults().settings());
  }

  @Test
  void everyKeyParsesFromAgentArguments() throws ConfigException {
    AgentConfig c =
        args(
            "mode=observe,ram_max_usage=0.4,heap_max_usage=.25,vram_max_usage=1,"
                + "host_share=0.5,prefetch=auto,sites=conf/sites.properties,presets=Guava:caffeine:guava,"
                + "djl=off,"
                + "vram_probe=fixed:5592M/6360465408,ram_probe=fixed:2G,record=out/budget.jfr,strict=true,"
                + "record_maxsize=1G,record_maxage=6h,throttle=OFF,"
                + "log=debug,probe_interval=500ms,job=resnet-epochs,reclaim=off");
    assertEquals(Mode.OBSERVE, c.mode());
    assertEquals(List.of("guava", "caffeine"), c.presets(), "each once, in order");
    assertEquals("guava:caffeine", c.settings().get("presets").value());
    assertEquals(0.4, c.ramMaxUsage());
    assertEquals(0.25, c.heapMaxUsage());
    assertEquals(1.0, c.vramMaxUsage());
    assertEquals(OptionalDouble.of(0.5), c.hostShare());
    assertEquals(PrefetchPolicy.AUTO, c.prefetch());
    assertEquals(Optional.of(Path.of("conf/sites.properties")), c.sites());
    assertFalse(c.djl());
    assertEquals("fixed:5592M/6360465408", c.vramProbe());
    assertEquals("fixed:2G", c.ramProbe());
    assertEquals(Optional.of(Path.of("out/budget.jfr")), c.record());
    assertEquals(1L << 30, c.recordMaxSize());
    assertEquals(Duration.ofHours(6), c.recordMaxAge());
    assertEquals("off", c.throttle());
    assertTrue(c.strict());
    assertEquals(LogLevel.DEBUG, c.log());
    assertEquals(Duration.ofMillis(500), c.probeInterval());
    assertEquals("resnet-epochs", c.job());
    assertFalse(c.reclaim());
    for (Setting s : c.settings().values()) {
      assertEquals(
          s.key().equals("enabled") ? Source.DEFAULT : Source.AGENT_ARGS, s.source(), s.key());
    }
  }

  @Test
  void recordingBoundsAndTheThrottleSayWhatTheyExpect() throws ConfigException {
    assertEquals(0, args("record_maxsize=0").recordMaxSize(), "0 is no bound");
    assertEquals(Duration.ofDays(2), args("record_maxage=2d").recordMaxAge());
    assertEquals(Duration.ZERO, args("record_maxage=0").recordMaxAge());
    assertEquals("2000/s", args("throttle= 2000/s ").throttle());
    assertEquals("0/s", args("throttle=0/s").throttle());
    assertTrue(bad("record_maxsize=lots").getMessage().contains("a size like 100M"));
    assertTrue(bad("record_maxage=5x").getMessage().contains("30m, 6h or 2d"));
    assertTrue(bad("throttle=fast").getMessage().contains("N/s"));
    assertTrue(bad("throttle=10/min").getMessage().contains("N/s"));
  }

  @Test
  void namedProbesAndValuesAreCaseInsensitiveAndTrimmed() throws ConfigException {
    AgentConfig c =
        args(" mode = OBSERVE , vram_probe=NVML, ram_probe=Proc ,log=Info,prefetch=CAP");
    assertEquals(Mode.OBSERVE, c.mode());
    assertEquals("nvml", c.vramProbe());
    assertEquals("proc", c.ramProbe());
    assertEquals(LogLevel.INFO, c.log());
    assertEquals("observe", c.settings().get("mode").value());
    for (String probe : List.of("auto", "jcuda", "cuda", "nvml", "none")) {
      assertEquals(probe, args("vram_probe=" + probe).vramProbe());
    }
    for (String probe : List.of("auto", "proc", "mxbean")) {
      assertEquals(probe, args("ram_probe=" + probe).ramProbe());
    }
    assertEquals("fixed:0/8G", args("vram_probe=fixed:0/8G").vramProbe());
  }

  @Test
  void probeIntervalUnits() throws ConfigException {
    assertEquals(Duration.ofSeconds(2), args("probe_interval=2s").probeInterval());
    assertEquals(Duration.ofMinutes(1), args("probe_interval=1m").probeInterval());
    assertEquals("250ms", args("probe_interval=250ms").settings().get("probe_interval").value());
    assertEquals("2s", args("probe_interval=2000ms").settings().get("probe_interval").value());
  }

  @Test
  void agentArgumentsWinOverSystemPropertiesWhichWinOverTheEnvironment() throws ConfigException {
    Properties p =
        props(
            "flodl.budget.ram_max_usage",
            "0.3",
            "flodl.budget.mode",
            "observe",
            "unrelated.property",
            "x");
    Map<String, String> env =
        Map.of(
            "FLODL_BUDGET_RAM_MAX_USAGE",
            "0.2",
            "FLODL_BUDGET_MODE",
            "off",
            "FLODL_BUDGET_LOG",
            "info",
            "PATH",
            "/usr/bin");
    AgentConfig c = AgentConfig.resolve("ram_max_usage=0.4", p, env);
    assertEquals(0.4, c.ramMaxUsage());
    assertEquals(Mode.OBSERVE, c.mode());
    assertEquals(LogLevel.INFO, c.log());
    assertEquals(
        new Setting("ram_max_usage", "0.4", Source.AGENT_ARGS), c.settings().get("ram_max_usage"));
    assertEquals(new Setting("mode", "observe", Source.SYSTEM_PROPERTY), c.settings().get("mode"));
    assertEquals(new Setting("log", "info", Source.ENVIRONMENT), c.settings().get("log"));
    assertEquals(new Setting("prefetch", "cap", Source.DEFAULT), c.settings().get("prefetch"));

    AgentConfig noArgs = AgentConfig.resolve("", p, env);
    assertEquals(0.3, noArgs.ramMaxUsage());
    AgentConfig envOnly = AgentConfig.resolve(null, new Properties(), env);
    assertEquals(0.2, envOnly.ramMaxUsage());
    assertEquals(Mode.OFF, envOnly.mode());
  }

  @Test
  void aBadLowerPrecedenceValueIsStillReported() {
    // the environment's value is shadowed, yet a typo there is still a typo
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                AgentConfig.resolve(
                    "",
                    props("flodl.budget.ram_max_usage", "0.3"),
                    Map.of("FLODL_BUDGET_RAM_MAX_USAG", "1")));
    assertEquals("FLODL_BUDGET_RAM_MAX_USAG", e.key());
    assertTrue(
        e.getMessage()
            .startsWith(
                "flodl-budget: unknown environment variable 'FLODL_BUDGET_RAM_MAX_USAG'; did you mean "
                    + "'FLODL_BUDGET_RAM_MAX_USAGE'? (known: mode, "),
        e.getMessage());
    assertTrue(
        e.getMessage().endsWith("; agent disabled") && e.getMessage().length() < 300,
        e.getMessage());
    ConfigException lower =
        assertThrows(
            ConfigException.class,
            () -> AgentConfig.resolve("", new Properties(), Map.of("FLODL_BUDGET_mode", "off")));
    assertTrue(
        lower.getMessage().contains("did you mean 'FLODL_BUDGET_MODE'?"), lower.getMessage());
  }

  @Test
  void enabledFalseIsModeOff() throws ConfigException {
    assertEquals(Mode.OFF, args("enabled=false").mode());
    assertEquals(Mode.OFF, args("mode=observe,enabled=false").mode());
    assertEquals(Mode.OFF, args("mode=off").mode());
    assertEquals(Mode.ENFORCE, args("enabled=true").mode());
    AgentConfig c = args("enabled=false");
    assertEquals(new Setting("enabled", "false", Source.AGENT_ARGS), c.settings().get("enabled"));
  }

  @Test
  void pathsKeepEverythingAfterTheFirstEquals() throws ConfigException {
    AgentConfig c = args("sites=/tmp/a=b/sites.properties,record=/tmp/x=1.jfr");
    assertEquals(Optional.of(Path.of("/tmp/a=b/sites.properties")), c.sites());
    assertEquals(Optional.of(Path.of("/tmp/x=1.jfr")), c.record());
    assertEquals("/tmp/a=b/sites.properties", c.settings().get("sites").value());
  }

  @Test
  void emptyEntriesBetweenCommasAreIgnored() throws ConfigException {
    assertEquals(Mode.OBSERVE, args(",mode=observe,,").mode());
    assertEquals(Mode.OBSERVE, args("   ").mode(), "the bare flag observes");
  }

  @Test
  void onlyTheUsersWordEnforces() throws ConfigException {
    // A key that chooses what to budget, from any source, is the user's word: the design's
    // default mode (enforce) then holds, on what was named.
    for (String chosen :
        List.of(
            "mode=enforce", "presets=caffeine", "sites=s.properties", "djl=on", "enabled=true")) {
      AgentConfig c = args(chosen + ",ram_max_usage=0.4");
      assertFalse(c.observesAll(), chosen);
      assertEquals(Mode.ENFORCE, c.mode(), chosen);
    }
    assertEquals(Mode.OFF, args("mode=off").mode());
    assertFalse(
        AgentConfig.resolve(null, new Properties(), Map.of("FLODL_BUDGET_MODE", "enforce"))
            .observesAll(),
        "the environment's word counts");
    // Knobs, probes and a recording choose nothing: still observed, as a what-if run.
    for (String knobs :
        List.of("record=budget.jfr", "ram_probe=fixed:1G,vram_probe=fixed:1G/2G", "log=info")) {
      AgentConfig c = args(knobs);
      assertTrue(c.observesAll(), knobs);
      assertEquals(Mode.OBSERVE, c.mode(), knobs);
      assertEquals(new Setting("mode", "observe", Source.DEFAULT), c.settings().get("mode"));
    }
  }

  @Test
  void unknownAgentArgumentNamesTheKeyListsTheKnownOnesAndSuggests() {
    ConfigException e = bad("ram_max_usag=0.4");
    assertEquals("ram_max_usag", e.key());
    String m = e.getMessage();
    assertTrue(
        m.startsWith(
            "flodl-budget: unknown agent argument 'ram_max_usag'; did you mean "
                + "'ram_max_usage'? (known: mode, enabled, ram_max_usage, heap_max_usage, vram_max_usage, "
                + "host_share, prefetch, sites, presets, djl, vram_probe, ram_probe, record, "
                + "record_maxsize, record_maxage, throttle, "),
        m);
    assertTrue(m.endsWith("; agent disabled") && m.length() < 300, "one line: " + m);
    ConfigException role = bad("role=stager");
    assertEquals("role", role.key());
    assertTrue(
        role.getMessage().contains("'role' is a field of the sites file (site.NAME.role)"),
        role.getMessage());
    ConfigException far = bad("rope=1");
    assertFalse(far.getMessage().contains("did you mean"), far.getMessage());
    assertTrue(bad("moed=observe").getMessage().contains("did you mean 'mode'?"));
  }

  @Test
  void unknownSystemPropertyIsRejected() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () -> AgentConfig.resolve(null, props("flodl.budget.heap_max", "0.4"), Map.of()));
    assertEquals("flodl.budget.heap_max", e.key());
    assertTrue(
        e.getMessage()
            .startsWith(
                "flodl-budget: unknown system property "
                    + "'flodl.budget.heap_max' (known: mode, "),
        e.getMessage());
    ConfigException near =
        assertThrows(
            ConfigException.class,
            () -> AgentConfig.resolve(null, props("flodl.budget.vram_max_usge", "0.4"), Map.of()));
    assertTrue(
        near.getMessage().contains("; did you mean 'flodl.budget.vram_max_usage'? (known: "),
        near.getMessage());
    assertTrue(
        near.getMessage().endsWith("; agent disabled") && near.getMessage().length() < 300,
        near.getMessage());
    // the agent's own properties are not settings
    assertDoesNotThrow(
        () -> AgentConfig.resolve(null, props("flodl.budget.registry", "/tmp/r"), Map.of()));
  }

  @Test
  void malformedAndRepeatedEntries() {
    ConfigException noEquals = bad("mode=observe,observe");
    assertEquals("observe", noEquals.key());
    assertEquals(
        "flodl-budget: malformed agent argument 'observe': expected key=value entries "
            + "separated by commas, e.g. sites=sites.properties,record=budget.jfr; agent disabled",
        noEquals.getMessage());
    ConfigException noKey = bad("=0.4");
    assertTrue(noKey.getMessage().contains("malformed agent argument '=0.4'"), noKey.getMessage());
    ConfigException twice = bad("mode=observe,mode=enforce");
    assertEquals("mode", twice.key());
    assertEquals(
        "flodl-budget: agent argument 'mode' given twice: expected each key at most once; "
            + "agent disabled",
        twice.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "ram_max_usage=NaN     | ram_max_usage  | flodl-budget: bad ram_max_usage 'NaN' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "ram_max_usage=1.5     | ram_max_usage  | flodl-budget: bad ram_max_usage '1.5' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "ram_max_usage=abc     | ram_max_usage  | flodl-budget: bad ram_max_usage 'abc' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "heap_max_usage=0      | heap_max_usage | flodl-budget: bad heap_max_usage '0' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "vram_max_usage=-0.5   | vram_max_usage | flodl-budget: bad vram_max_usage '-0.5' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "vram_max_usage=Infinity | vram_max_usage | flodl-budget: bad vram_max_usage 'Infinity' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "vram_max_usage=0x1p-1 | vram_max_usage | flodl-budget: bad vram_max_usage '0x1p-1' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "heap_max_usage=0.5d   | heap_max_usage | flodl-budget: bad heap_max_usage '0.5d' (agent argument): expected a fraction in (0, 1], e.g. 0.5; agent disabled",
        "host_share=2          | host_share     | flodl-budget: bad host_share '2' (agent argument): expected auto or a fraction in (0, 1], e.g. 0.5; agent disabled",
        "mode=fast             | mode           | flodl-budget: bad mode 'fast' (agent argument): expected enforce, observe or off; agent disabled",
        "enabled=no            | enabled        | flodl-budget: bad enabled 'no' (agent argument): expected true or false; agent disabled",
        "prefetch=x            | prefetch       | flodl-budget: bad prefetch 'x' (agent argument): expected cap or auto; agent disabled",
        "djl=maybe             | djl            | flodl-budget: bad djl 'maybe' (agent argument): expected on or off; agent disabled",
        "strict=yes            | strict         | flodl-budget: bad strict 'yes' (agent argument): expected true or false; agent disabled",
        "log=trace             | log            | flodl-budget: bad log 'trace' (agent argument): expected warn, info or debug; agent disabled",
        "vram_probe=smi        | vram_probe     | flodl-budget: bad vram_probe 'smi' (agent argument): expected auto, jcuda, cuda, nvml, none or fixed:USED/TOTAL (e.g. fixed:5592M/6360465408); agent disabled",
        "vram_probe=fixed:      | vram_probe    | flodl-budget: bad vram_probe 'fixed:' (agent argument): expected fixed:USED/TOTAL with two sizes (e.g. fixed:5592M/6360465408); agent disabled",
        "vram_probe=fixed:5592M | vram_probe    | flodl-budget: bad vram_probe 'fixed:5592M' (agent argument): expected fixed:USED/TOTAL with two sizes (e.g. fixed:5592M/6360465408); agent disabled",
        "vram_probe=fixed:1G/0  | vram_probe    | flodl-budget: bad vram_probe 'fixed:1G/0' (agent argument): expected fixed:USED/TOTAL with TOTAL more than 0 (e.g. fixed:5592M/6360465408); agent disabled",
        "vram_probe=fixed:x/8G  | vram_probe    | flodl-budget: bad vram_probe 'fixed:x/8G' (agent argument): expected fixed:USED/TOTAL with two sizes (e.g. fixed:5592M/6360465408), not a size: 'x' (expected bytes like 6360465408, 16K, 5592M or 2G); agent disabled",
        "ram_probe=meminfo     | ram_probe      | flodl-budget: bad ram_probe 'meminfo' (agent argument): expected auto, proc, mxbean or fixed:AVAILABLE (e.g. fixed:2G); agent disabled",
        "ram_probe=fixed:lots  | ram_probe      | flodl-budget: bad ram_probe 'fixed:lots' (agent argument): expected fixed:AVAILABLE with a size (e.g. fixed:2G), not a size: 'lots' (expected bytes like 6360465408, 16K, 5592M or 2G); agent disabled",
        "probe_interval=1      | probe_interval | flodl-budget: bad probe_interval '1' (agent argument): expected a duration from 10ms to 1h, like 500ms, 2s or 1m; agent disabled",
        "probe_interval=0s     | probe_interval | flodl-budget: bad probe_interval '0s' (agent argument): expected a duration from 10ms to 1h, like 500ms, 2s or 1m (0s is shorter); agent disabled",
        "probe_interval=9ms    | probe_interval | flodl-budget: bad probe_interval '9ms' (agent argument): expected a duration from 10ms to 1h, like 500ms, 2s or 1m (9ms is shorter); agent disabled",
        "probe_interval=200000000m | probe_interval | flodl-budget: bad probe_interval '200000000m' (agent argument): expected a duration from 10ms to 1h, like 500ms, 2s or 1m (200000000m is longer); agent disabled",
        "probe_interval=99999999999999999999s | probe_interval | flodl-budget: bad probe_interval '99999999999999999999s' (agent argument): expected a duration from 10ms to 1h, like 500ms, 2s or 1m; agent disabled",
        "presets=redis         | presets        | flodl-budget: bad presets 'redis' (agent argument): expected preset names separated by ':' (caffeine, guava, jcache, ehcache, djl or dl4j), e.g. caffeine:guava; 'redis' is none of them; agent disabled",
        "mode=                 | mode           | flodl-budget: empty mode (agent argument): expected enforce, observe or off; agent disabled",
        "sites=                | sites          | flodl-budget: empty sites (agent argument): expected the path of a sites file; agent disabled",
        "record=               | record         | flodl-budget: empty record (agent argument): expected the path of a .jfr file; agent disabled",
        "job=                  | job            | flodl-budget: empty job (agent argument): expected a job name; agent disabled",
      })
  void badValuesNameTheKeyAndWhatWasExpected(String agentArgs, String key, String message) {
    ConfigException e = bad(agentArgs);
    assertEquals(key, e.key());
    assertEquals(message, e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
    assertTrue(e.getMessage().startsWith("flodl-budget: "));
    assertEquals(
        message.substring(
            "flodl-budget: ".length(), message.length() - "; agent disabled".length()),
        e.detail());
  }

  @Test
  void badValuesNameTheirSource() {
    ConfigException prop =
        assertThrows(
            ConfigException.class,
            () -> AgentConfig.resolve(null, props("flodl.budget.mode", "fast"), Map.of()));
    assertEquals(
        "flodl-budget: bad mode 'fast' (-Dflodl.budget.mode): expected enforce, observe "
            + "or off; agent disabled",
        prop.getMessage());
    ConfigException env =
        assertThrows(
            ConfigException.class,
            () ->
                AgentConfig.resolve(
                    null, new Properties(), Map.of("FLODL_BUDGET_VRAM_MAX_USAGE", "1.5")));
    assertEquals("vram_max_usage", env.key());
    assertEquals(
        "flodl-budget: bad vram_max_usage '1.5' (FLODL_BUDGET_VRAM_MAX_USAGE): expected "
            + "a fraction in (0, 1], e.g. 0.5; agent disabled",
        env.getMessage());
  }

  @Test
  void fractionsAtTheEdgesAndInOtherSpellings() throws ConfigException {
    assertEquals(1.0, args("ram_max_usage=1").ramMaxUsage());
    assertEquals(1.0, args("ram_max_usage=1.0").ramMaxUsage());
    assertEquals(0.05, args("ram_max_usage=5e-2").ramMaxUsage());
    assertEquals(Double.MIN_VALUE, args("ram_max_usage=4.9e-324").ramMaxUsage());
    assertEquals("1", args("ram_max_usage=1.00").settings().get("ram_max_usage").value());
    assertEquals(OptionalDouble.empty(), args("host_share=AUTO").hostShare());
  }

  /** Returns whether the refusal of a bad configuration says strict=true was asked for. */
  private static boolean strictOf(String agentArgs, Properties props, Map<String, String> env) {
    return assertThrows(ConfigException.class, () -> AgentConfig.resolve(agentArgs, props, env))
        .strict();
  }

  @Test
  void strictIsFoundEvenWhenAnotherKeyIsBad() {
    assertTrue(strictOf("ram_max_usage=NaN,strict=true", null, null));
    assertTrue(strictOf("bogus,strict = TRUE ", new Properties(), Map.of()));
    assertTrue(strictOf("strict=true,bogus=1", null, null), "an unknown key after it");
    assertFalse(
        strictOf(
            "strict=false,mode=x",
            props("flodl.budget.strict", "true"),
            Map.of("FLODL_BUDGET_STRICT", "true")));
    assertTrue(strictOf("mode=x", props("flodl.budget.strict", "true"), Map.of()));
    assertFalse(
        strictOf(
            "mode=x",
            props("flodl.budget.strict", "false"),
            Map.of("FLODL_BUDGET_STRICT", "true")));
    assertTrue(strictOf("mode=x", null, Map.of("FLODL_BUDGET_STRICT", "true")));
    assertTrue(
        strictOf(null, props("flodl.budget.bogus", "1"), Map.of("FLODL_BUDGET_STRICT", "true")),
        "an unknown property beside it");
    assertFalse(strictOf("mode=x", null, null));
    assertFalse(strictOf("strict=maybe", null, null));
  }

  @Test
  void eachOptionParsesItsOwnDefault() {
    for (Option o : Option.values()) {
      assertEquals(o, Option.forKey(o.key()));
      Option.Parsed p = assertDoesNotThrow(() -> o.parse(o.defaultText()), o.key());
      assertEquals(o.defaultText(), p.text(), "a default is written canonically: " + o.key());
      assertFalse(o.expected().isEmpty(), o.key());
    }
    assertEquals(null, Option.forKey("ram_max_usag"));
  }

  @Test
  void withModeAndWithKnobAreRecordedAsRuntimeChanges() throws ConfigException {
    AgentConfig c = args("ram_max_usage=0.4,mode=enforce");
    AgentConfig observe = c.withMode(Mode.OBSERVE);
    assertEquals(Mode.OBSERVE, observe.mode());
    assertEquals(Mode.ENFORCE, c.mode(), "the original is unchanged");
    assertEquals(new Setting("mode", "observe", Source.RUNTIME), observe.settings().get("mode"));
    assertEquals(Source.AGENT_ARGS, observe.settings().get("ram_max_usage").source());

    AgentConfig knob = observe.withKnob("ram_max_usage", 0.25);
    assertEquals(0.25, knob.ramMaxUsage());
    assertEquals(Mode.OBSERVE, knob.mode());
    assertEquals(
        new Setting("ram_max_usage", "0.25", Source.RUNTIME), knob.settings().get("ram_max_usage"));
    assertEquals(0.7, knob.withKnob("heap_max_usage", 0.7).heapMaxUsage());
    assertEquals(0.8, knob.withKnob("vram_max_usage", 0.8).vramMaxUsage());
    assertEquals(OptionalDouble.of(0.5), knob.withKnob("host_share", 0.5).hostShare());

    IllegalArgumentException nan =
        assertThrows(
            IllegalArgumentException.class, () -> c.withKnob("vram_max_usage", Double.NaN));
    assertTrue(nan.getMessage().contains("vram_max_usage"), nan.getMessage());
    IllegalArgumentException big =
        assertThrows(IllegalArgumentException.class, () -> c.withKnob("heap_max_usage", 1.5));
    assertEquals("heap_max_usage must be a fraction in (0, 1], got 1.5", big.getMessage());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> c.withKnob("mode", 0.5));
    assertTrue(unknown.getMessage().startsWith("unknown knob 'mode'"), unknown.getMessage());
  }

  @Test
  void turningADisabledAgentOnAtRuntimeEnablesIt() throws ConfigException {
    AgentConfig off = args("enabled=false");
    AgentConfig on = off.withMode(Mode.ENFORCE);
    assertEquals(Mode.ENFORCE, on.mode());
    assertEquals(new Setting("enabled", "true", Source.RUNTIME), on.settings().get("enabled"));
    assertEquals(Mode.OFF, on.withMode(Mode.OFF).mode());
    assertEquals(Mode.OFF, off.withKnob("ram_max_usage", 0.3).mode(), "a knob does not enable it");
  }

  @Test
  void toStringIsAgentArgumentsThatResolveToTheSameSettings() throws ConfigException {
    AgentConfig c =
        args("mode=observe,sites=s.properties,vram_probe=fixed:1G/8G,probe_interval=1500ms");
    AgentConfig again = args(c.toString());
    assertEquals(Mode.OBSERVE, again.mode());
    assertEquals(c.sites(), again.sites());
    assertEquals(c.vramProbe(), again.vramProbe());
    assertEquals(c.probeInterval(), again.probeInterval());
    assertFalse(c.toString().contains("record="), c.toString());
  }

  @Test
  void knobValuesAreWrittenBackWithoutTrailingZerosOrExponents() {
    assertEquals("0.9", Values.format(0.9));
    assertEquals("0.25", Values.format(0.25));
    assertEquals("1", Values.format(1.0));
    assertEquals("0", Values.format(0.0));
    assertEquals("0.0001", Values.format(1e-4), "never scientific notation");
    assertEquals("0.30000000000000004", Values.format(0.1 + 0.2), "exactly the double it read");
  }
}
