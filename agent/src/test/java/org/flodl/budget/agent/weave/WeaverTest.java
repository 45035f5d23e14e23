package org.flodl.budget.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.weave.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Scope;
import org.flodl.budget.agent.gate.Decisions;
import org.flodl.budget.agent.gate.Decline;
import org.flodl.budget.agent.gate.Gate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The weaver against classes javac compiled: each woven class is defined in a loader of its own, so
 * the JVM's verifier checks the inserted code and its frames, and is driven against a scripted gate
 * that records every call and declines what it is told to. A value {@code "declined"} is declined,
 * {@code "copy-me"} comes back as {@code "copy"}, a returned {@code "evict"} is declined.
 */
class WeaverTest {
  private final Script gate = new Script();
  private final List<Plan.Failure> failures = new ArrayList<>();
  private int nextPoint = 100;

  @BeforeEach
  void install() {
    Gate.install(gate);
  }

  @AfterEach
  void uninstall() {
    Gate.install(null);
  }

  /** Records what the woven code asks, and answers as the class javadoc says. */
  static final class Script implements Decisions {
    final List<String> calls = new ArrayList<>();
    int depthAnswer = -1;

    @Override
    public Object admit(int point, Object receiver, Object value) {
      calls.add("admit " + point + " " + value);
      return answer(value);
    }

    private static Object answer(Object value) {
      if ("declined".equals(value)) {
        return Gate.DECLINED;
      }
      return "copy-me".equals(value) ? "copy" : value;
    }

    @Override
    public void enter(int point) {
      calls.add("enter " + point);
    }

    @Override
    public void leave(int point, boolean threw) {
      calls.add((threw ? "threw " : "leave ") + point);
    }

    @Override
    public boolean returned(int point, Object receiver, Object value) {
      calls.add("returned " + point + " " + value);
      return "evict".equals(value) || String.valueOf(value).endsWith("evict");
    }

    /**
     * Records the decline; a skipped call's answer is {@code "older-KEY"}, or {@code true} where
     * the key is {@code "present"}; a key {@code "null"} throws as a library refusing it would.
     */
    @Override
    public Object decline(int point, Object receiver, Object[] args, boolean answering)
        throws Decline.Threw {
      String type = receiver.getClass().getName();
      calls.add(
          "decline "
              + point
              + " "
              + type.substring(Math.max(type.lastIndexOf('$'), type.lastIndexOf('.')) + 1)
              + " "
              + Arrays.toString(args));
      if (!answering) {
        return null;
      }
      if ("null".equals(args[0])) {
        throw new Decline.Threw(new NullPointerException("key"));
      }
      return "present".equals(args[0]) ? Boolean.TRUE : "older-" + args[0];
    }

    @Override
    public int depth(int point, int requested, Object[] arguments) {
      calls.add(
          "depth "
              + point
              + " "
              + requested
              + (arguments == null ? "" : " args=" + arguments.length));
      return depthAnswer < 0 ? requested + 100 : depthAnswer;
    }

    @Override
    public void release(int point, Object[] arguments, Object returned) {
      calls.add(
          "release "
              + point
              + " "
              + str(returned)
              + " "
              + Arrays.deepToString(
                  arguments == null ? null : Arrays.stream(arguments).map(Script::str).toArray()));
    }

    @Override
    public void batch(int point, Object receiver, Object batch) {
      calls.add("batch " + point + " " + batch);
    }

    @Override
    public void hook(int point, Object receiver) {
      calls.add("hook " + point + " " + str(receiver));
    }

    @Override
    public Object admitCall(int point, Object value) {
      calls.add("admitCall " + point + " " + str(value));
      return value instanceof byte[] b && b.length > 0 && b[0] == 13
          ? Gate.DECLINED
          : answer(value);
    }

    @Override
    public boolean returnedCall(int point, Object value) {
      calls.add("returnedCall " + point + " " + value);
      return String.valueOf(value).endsWith("evict");
    }

    @Override
    public void failed(int point, Throwable t) {
      calls.add("failed " + point + " " + t);
    }

    static String str(Object o) {
      return o instanceof byte[] b
          ? "bytes" + b.length + ":" + (b.length > 0 ? b[0] : "")
          : String.valueOf(o);
    }
  }

  // ------------------------------------------------------------------------------ harness

  private static String internal(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream("/" + internal(c) + ".class")) {
      return in.readAllBytes();
    }
  }

  private static MethodRef ref(String text) {
    return MethodRef.parse(text);
  }

  private Rule body(int id, Rule.Role role, String method, int argument, List<Integer> decline) {
    return new Rule(id, "s" + id, role, ref(method), null, argument, decline, -1, false, -1, false);
  }

  private Rule call(
      int id, Rule.Role role, String scope, String method, int argument, List<Integer> decline) {
    return new Rule(
        id,
        "s" + id,
        role,
        ref(method),
        Scope.parse(scope),
        argument,
        decline,
        -1,
        false,
        -1,
        false);
  }

  /** Plans and weaves {@code classes} in order with {@code rules}; returns them woven, loaded. */
  private Map<Class<?>, Class<?>> weave(List<Rule> rules, Class<?>... classes)
      throws IOException, ClassNotFoundException {
    ClassLoader parent = getClass().getClassLoader();
    TypeGraph graph = new TypeGraph(Planner.methodNames(rules));
    Planner planner =
        new Planner(rules, graph, (rule, receiverType) -> nextPoint++, (loader, name) -> {});
    Map<String, byte[]> woven = new HashMap<>();
    for (Class<?> c : classes) {
      byte[] original = bytes(c);
      Plan plan = planner.plan(parent, internal(c), original);
      if (plan == null) {
        continue;
      }
      Weaver.Result r =
          Weaver.weave(original, plan, (owner, type) -> graph.isSubtype(parent, owner, type));
      failures.addAll(r.failures());
      if (r.bytes() != null) {
        woven.put(c.getName(), r.bytes());
      }
    }
    ClassLoader isolated =
        new ClassLoader(parent) {
          @Override
          protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            byte[] b = woven.get(n);
            if (b == null) {
              return super.loadClass(n, resolve);
            }
            synchronized (getClassLoadingLock(n)) {
              Class<?> c = findLoadedClass(n);
              return c != null ? c : defineClass(n, b, 0, b.length);
            }
          }
        };
    Map<Class<?>, Class<?>> out = new HashMap<>();
    for (Class<?> c : classes) {
      if (woven.containsKey(c.getName())) {
        Class<?> loaded = Class.forName(c.getName(), true, isolated); // verified here
        assertTrue(loaded != c, "the woven copy");
        out.put(c, loaded);
      }
    }
    return out;
  }

  private static Object call(Object target, String method, Object... args) throws Throwable {
    for (Method m : (target instanceof Class<?> c ? c : target.getClass()).getMethods()) {
      if (m.getName().equals(method) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(target instanceof Class<?> ? null : target, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    for (Method m : (target instanceof Class<?> c ? c : target.getClass()).getDeclaredMethods()) {
      if (m.getName().equals(method) && m.getParameterCount() == args.length) {
        m.setAccessible(true);
        try {
          return m.invoke(target instanceof Class<?> ? null : target, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(method);
  }

  @SuppressWarnings("unchecked")
  private static Map<Object, Object> field(Object o, String name) throws Exception {
    var f =
        o.getClass().getSuperclass() != Object.class && !hasField(o.getClass(), name)
            ? o.getClass().getSuperclass().getDeclaredField(name)
            : o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return (Map<Object, Object>) f.get(o);
  }

  private static boolean hasField(Class<?> c, String name) {
    return Arrays.stream(c.getDeclaredFields()).anyMatch(f -> f.getName().equals(name));
  }

  // ------------------------------------------------------------------------------ bodies

  @Test
  void anInterfaceSiteWeavesItsImplementationAndADeclineSkipsThePut() throws Throwable {
    Rule put =
        body(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Store.class.getName() + "#put(java.lang.Object,java.lang.Object)",
            1,
            List.of(0));
    Class<?> store = weave(List.of(put), Fixtures.MapStore.class).get(Fixtures.MapStore.class);
    assertNotNull(store, failures.toString());
    Object s = store.getConstructor().newInstance();
    call(s, "put", "a", "v");
    call(s, "put", "b", "declined");
    call(s, "put", "c", "copy-me");
    assertEquals(Map.of("a", "v", "c", "copy"), field(s, "map"));
    assertEquals(
        List.of(
            "admit 0 v",
            "leave 0",
            "admit 0 declined",
            "decline 0 MapStore [b]",
            "admit 0 copy-me",
            "leave 0"),
        gate.calls);
  }

  @Test
  void aDeclinedCallAnswersFromItsDeclineCallAndThrowsWhatTheLibraryThrew() throws Throwable {
    String store = Fixtures.AnsweringStore.class.getName();
    List<Rule> rules =
        List.of(
            body(
                0,
                Rule.Role.ADMIT_ARG,
                store + "#put(java.lang.Object,java.lang.Object)",
                1,
                List.of(0)),
            body(
                1,
                Rule.Role.ADMIT_ARG,
                store + "#putIfAbsent(java.lang.Object,java.lang.Object)",
                1,
                List.of(0)),
            body(
                2,
                Rule.Role.ADMIT_ARG,
                store + "#putCounted(java.lang.Object,java.lang.Object)",
                1,
                List.of(0)));
    Class<?> c = weave(rules, Fixtures.AnsweringStore.class).get(Fixtures.AnsweringStore.class);
    assertEquals(List.of(), failures);
    Object s = c.getConstructor().newInstance();
    assertNull(call(s, "put", "a", "v"), "admitted: the call ran");
    assertEquals("older-b", call(s, "put", "b", "declined"), "the decline call's answer");
    assertEquals(true, call(s, "putIfAbsent", "present", "declined"));
    assertEquals(false, call(s, "putIfAbsent", "c", "declined"), "a String is no boolean");
    assertEquals(0L, call(s, "putCounted", "d", "declined"), "a long is the default");
    NullPointerException npe =
        assertThrows(NullPointerException.class, () -> call(s, "put", "null", "declined"));
    assertEquals("key", npe.getMessage(), "the library's exception, as it threw it");
    assertEquals(Map.of("a", "v"), field(s, "map"));
  }

  @Test
  void aDeclinedCallSiteAnswersFromItsDeclineCall() throws Throwable {
    Rule put =
        call(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Dataset.class.getName(),
            "java.util.Map#put(java.lang.Object,java.lang.Object)",
            1,
            List.of(0));
    Class<?> c = weave(List.of(put), Fixtures.Dataset.class).get(Fixtures.Dataset.class);
    assertEquals(List.of(), failures);
    Map<Object, Object> m = new HashMap<>();
    assertEquals("older-k", call(c, "store", m, "k", "declined"), "what remove returned");
    assertThrows(NullPointerException.class, () -> call(c, "store", m, "null", "declined"));
    assertNull(call(c, "store", m, "k", "v"));
    assertEquals(Map.of("k", "v"), m);
  }

  @Test
  void anAdapterHookIsHandedTheReceiverAtEntryAndTheBodyRunsAsWritten() throws Throwable {
    Rule hook =
        body(
            3,
            Rule.Role.HOOK,
            Fixtures.MapStore.class.getName() + "#invalidate(java.lang.Object)",
            -1,
            null);
    Class<?> c = weave(List.of(hook), Fixtures.MapStore.class).get(Fixtures.MapStore.class);
    assertNotNull(c, failures.toString());
    Object s = c.getConstructor().newInstance();
    call(s, "put", "a", "v");
    call(s, "invalidate", "a");
    assertEquals(Map.of(), field(s, "map"));
    assertEquals(1, gate.calls.size(), gate.calls.toString());
    assertTrue(gate.calls.get(0).startsWith("hook 3 "), gate.calls.toString());
  }

  @Test
  void nestedBodiesOfOneSiteCountInAndOutAlsoWhenTheMethodThrows() throws Throwable {
    Rule put =
        body(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Store.class.getName() + "#put(java.lang.Object,java.lang.Object)",
            1,
            null);
    Map<Class<?>, Class<?>> w =
        weave(List.of(put), Fixtures.MapStore.class, Fixtures.CountingStore.class);
    Object s = w.get(Fixtures.CountingStore.class).getConstructor().newInstance();
    call(s, "put", "a", "v");
    // the override and its super's body both enter and leave: the engine lets the outer decide
    assertEquals(List.of("admit 0 v", "admit 0 v", "leave 0", "leave 0"), gate.calls);
    gate.calls.clear();
    assertThrows(IllegalStateException.class, () -> call(s, "put", "boom", "v"));
    assertEquals(List.of("admit 0 v", "threw 0"), gate.calls, "the handler leaves too");
  }

  @Test
  void aBodyInASupertypeOfTheNamedTypeGetsAPointOfItsOwn() throws Throwable {
    Rule put =
        body(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Special.class.getName() + "#put(java.lang.Object,java.lang.Object)",
            1,
            null);
    // Special loads first (its supertype Base after it, as the JVM loads them)
    Map<Class<?>, Class<?>> w = weave(List.of(put), Fixtures.Special.class, Fixtures.Base.class);
    assertEquals(List.of(), failures);
    Object base = w.get(Fixtures.Base.class).getConstructor().newInstance();
    call(base, "put", "k", "declined");
    assertEquals(
        List.of("admit 100 declined"),
        gate.calls,
        "Base#put carries the point bound for receivers of Special");
  }

  @Test
  void aBridgeIsFollowedToTheMethodItCalls() throws Throwable {
    Rule put =
        body(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.TypedStore.class.getName() + "#put(java.lang.Object,java.lang.Object)",
            1,
            null);
    Class<?> c = weave(List.of(put), Fixtures.BytesStore.class).get(Fixtures.BytesStore.class);
    Object s = c.getConstructor().newInstance();
    c.getMethod("put", String.class, byte[].class).invoke(s, "a", new byte[3]);
    c.getMethod("put", Object.class, Object.class).invoke(s, "b", new byte[2]);
    assertEquals(
        2,
        gate.calls.stream().filter(x -> x.startsWith("admit 0")).count(),
        "a direct call and one through the bridge both reach the woven put: " + gate.calls);
  }

  @Test
  void aReturnedValueIsPricedAtEachReturnAndADeclinedOneEvictedByKey() throws Throwable {
    Rule get =
        body(
            0,
            Rule.Role.ADMIT_RETURN,
            Fixtures.Store.class.getName() + "#get(java.lang.Object,java.util.function.Function)",
            -1,
            List.of(0));
    Class<?> c = weave(List.of(get), Fixtures.MapStore.class).get(Fixtures.MapStore.class);
    Object s = c.getConstructor().newInstance();
    java.util.function.Function<Object, Object> loader = k -> k + "-evict";
    assertEquals("x-evict", call(s, "get", "x", loader), "the caller still gets its value");
    assertEquals(List.of("enter 0", "returned 0 x-evict", "decline 0 MapStore [x]"), gate.calls);
  }

  @Test
  void aDepthWithAnExecutorIsAppliedAsANullExecutorAtZero() throws Throwable {
    Rule depth =
        new Rule(
            0,
            "djl",
            Rule.Role.DEPTH_ARG,
            ref(
                Fixtures.Iterable.class.getName()
                    + "#<init>(java.lang.Object,java.util.concurrent.ExecutorService,int)"),
            null,
            2,
            null,
            1,
            true,
            -1,
            true);
    Class<?> c = weave(List.of(depth), Fixtures.Iterable.class).get(Fixtures.Iterable.class);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      var ctor = c.getConstructor(Object.class, ExecutorService.class, int.class);
      var executor = c.getDeclaredField("executor");
      var prefetch = c.getDeclaredField("prefetch");
      executor.setAccessible(true);
      prefetch.setAccessible(true);
      gate.depthAnswer = 0;
      Object sync = ctor.newInstance("ds", pool, 8);
      assertNull(executor.get(sync), "depth 0: no executor");
      assertEquals(8, prefetch.get(sync), "and the request kept");
      gate.depthAnswer = 3;
      Object three = ctor.newInstance("ds", pool, 8);
      assertSame(pool, executor.get(three));
      assertEquals(3, prefetch.get(three));
      assertEquals(List.of("depth 0 8 args=3", "depth 0 8 args=3"), gate.calls);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void everyBodyShapeVerifiesAndRuns() throws Throwable {
    String n = Fixtures.Shapes.class.getName();
    List<Rule> rules =
        List.of(
            body(0, Rule.Role.ADMIT_ARG, n + "#stat", 1, null),
            body(1, Rule.Role.ADMIT_ARG, n + "#buffer", 1, null),
            body(2, Rule.Role.ADMIT_ARG, n + "#loop", 0, null),
            body(3, Rule.Role.RELEASE, n + "#evict", -1, null),
            body(4, Rule.Role.DEPTH_ARG, n + "#scaled", 0, null),
            body(5, Rule.Role.DEPTH_RETURN, n + "#depth", -1, null),
            body(6, Rule.Role.BATCH, n + "#batch", -1, null));
    Class<?> c = weave(rules, Fixtures.Shapes.class).get(Fixtures.Shapes.class);
    assertEquals(List.of(), failures);
    Object shapes = c.getConstructor().newInstance();
    assertEquals(
        17L,
        c.getMethod("stat", long.class, byte[].class, double.class)
            .invoke(null, 10L, new byte[5], 2.5));
    ByteBuffer b = ByteBuffer.allocate(8).position(3);
    assertEquals(b, c.getMethod("buffer", int.class, ByteBuffer.class).invoke(shapes, 3, b));
    c.getMethod("loop", Object.class, int.class).invoke(shapes, "v", 4);
    assertEquals(105, c.getMethod("depth").invoke(shapes));
    assertEquals(
        "x", c.getMethod("evict", long.class, Object.class, int.class).invoke(shapes, 7L, "x", 7));
    assertEquals(103 * 2.5, c.getMethod("scaled", int.class, double.class).invoke(shapes, 3, 2.5));
    assertEquals("p01", c.getMethod("batch", String.class, int.class).invoke(shapes, "p", 2));
    assertTrue(gate.calls.contains("release 3 x [x]"), gate.calls.toString());
    assertTrue(gate.calls.contains("batch 6 p01"), gate.calls.toString());
  }

  @Test
  void refusalsSayWhyAndLeaveTheOtherPointsOfTheClassWoven() throws Throwable {
    String n = Fixtures.Overloads.class.getName();
    Map<Class<?>, Class<?>> w =
        weave(
            List.of(
                body(0, Rule.Role.ADMIT_ARG, n + "#put", 1, null),
                body(
                    1,
                    Rule.Role.ADMIT_ARG,
                    n + "#put(java.lang.Object,java.lang.Object,long)",
                    2,
                    null),
                body(
                    2, Rule.Role.ADMIT_ARG, n + "#put(java.lang.Object,java.lang.Object)", 5, null),
                body(
                    3,
                    Rule.Role.DEPTH_RETURN,
                    n + "#put(java.lang.Object,java.lang.Object)",
                    -1,
                    null),
                body(
                    4,
                    Rule.Role.BATCH,
                    n + "#put(java.lang.Object,java.lang.Object,long)",
                    -1,
                    null),
                body(5, Rule.Role.ADMIT_ARG, n + "#nope", 0, null)),
            Fixtures.Overloads.class);
    List<String> why = failures.stream().map(f -> f.rule().id() + ": " + f.reason()).toList();
    assertTrue(
        why.get(0).startsWith("0: ") && why.get(0).contains("matches 2 methods"), why.toString());
    assertTrue(
        why.stream()
            .anyMatch(
                s -> s.startsWith("1: ") && s.contains("is a long, not a " + "retained value")),
        why.toString());
    assertTrue(
        why.stream().anyMatch(s -> s.startsWith("2: ") && s.contains("out of range")),
        why.toString());
    assertTrue(
        why.stream().anyMatch(s -> s.startsWith("3: ") && s.contains("return int")),
        why.toString());
    assertTrue(
        why.stream().anyMatch(s -> s.startsWith("5: ") && s.contains("no method")), why.toString());
    assertNotNull(w.get(Fixtures.Overloads.class), "the batch point still wove");
  }

  // ------------------------------------------------------------------------------ calls

  @Test
  void aCallSiteInsideALoaderSkipsADeclinedPutAndRemovesTheOlderValue() throws Throwable {
    Rule put =
        call(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Dataset.class.getName() + "#get(int)",
            "java.util.Map#put(java.lang.Object,java.lang.Object)",
            1,
            List.of(0));
    Class<?> c = weave(List.of(put), Fixtures.Dataset.class).get(Fixtures.Dataset.class);
    assertEquals(List.of(), failures);
    Object d = c.getConstructor().newInstance();
    byte[] v = (byte[]) call(d, "get", 3);
    assertEquals(3, v[0], "the application still gets its sample");
    byte[] declined = (byte[]) call(d, "get", 13);
    assertEquals(13, declined[0], "a declined sample is still delivered");
    assertEquals(List.of(3), new ArrayList<>(field(d, "cache").keySet()), "only 3 was kept");
    assertEquals(
        List.of("admitCall 0 bytes4:3", "admitCall 0 bytes4:13", "decline 0 HashMap [13]"),
        gate.calls);
  }

  @Test
  void callsInLoopsTryBlocksLambdasAndStaticCallersWithWideOperandsVerifyAndRun() throws Throwable {
    String d = Fixtures.Dataset.class.getName();
    Rule put =
        call(
            0,
            Rule.Role.ADMIT_ARG,
            d,
            "java.util.Map#put(java.lang.Object," + "java.lang.Object)",
            1,
            null);
    Class<?> c = weave(List.of(put), Fixtures.Dataset.class).get(Fixtures.Dataset.class);
    assertEquals(List.of(), failures);
    Object ds = c.getConstructor().newInstance();
    assertEquals(20L, call(ds, "many", 20), "every put returned null: 20 times 1");
    assertEquals(19, field(ds, "cache").size(), "13 was declined");
    byte[] lazy = (byte[]) call(ds, "lazily", 40);
    assertEquals(40, lazy[0]);
    Map<Object, Object> m = new HashMap<>();
    assertNull(call(c, "store", m, "k", "declined"), "a declined put returns null");
    assertEquals(Map.of(), m);
    assertNull(call(c, "store", m, "k", "copy-me"));
    assertEquals(Map.of("k", "copy"), m);
    assertTrue(gate.calls.contains("admitCall 0 bytes4:40"), "the lambda's put: " + gate.calls);
  }

  @Test
  void aLoadingCallIsPricedAfterItAndADeclinedValueEvicted() throws Throwable {
    Rule get =
        call(
            0,
            Rule.Role.ADMIT_RETURN,
            Fixtures.Dataset.class.getName() + "#load",
            Fixtures.Store.class.getName() + "#get(java.lang.Object,java.util.function.Function)",
            -1,
            List.of(0));
    Class<?> c = weave(List.of(get), Fixtures.Dataset.class).get(Fixtures.Dataset.class);
    Object ds = c.getConstructor().newInstance();
    Fixtures.MapStore store = new Fixtures.MapStore();
    assertEquals("loaded-a", call(ds, "load", store, "a"));
    assertEquals("loaded-evict", call(ds, "load", store, "evict"));
    assertEquals(
        List.of(
            "returnedCall 0 loaded-a", "returnedCall 0 loaded-evict", "decline 0 MapStore [evict]"),
        gate.calls);
  }

  @Test
  void constructorCallsGetTheirDepthBeforeAndAfterSuperAndReleasesAndBatchesAreSeen()
      throws Throwable {
    String loader = Fixtures.PrefetchLoader.class.getName();
    List<Rule> rules =
        List.of(
            call(
                0,
                Rule.Role.DEPTH_ARG,
                loader,
                "java.util.concurrent.ArrayBlockingQueue#<init>(int)",
                0,
                null),
            call(
                1,
                Rule.Role.DEPTH_ARG,
                loader,
                "java.util.concurrent.ArrayBlockingQueue#<init>(int,boolean)",
                0,
                null),
            call(2, Rule.Role.BATCH, loader, "java.util.concurrent.BlockingQueue#take()", -1, null),
            call(
                3,
                Rule.Role.RELEASE,
                Fixtures.Dataset.class.getName(),
                "java.util.Map#remove(java.lang.Object)",
                -1,
                null));
    Map<Class<?>, Class<?>> w = weave(rules, Fixtures.PrefetchLoader.class, Fixtures.Dataset.class);
    assertEquals(List.of(), failures);
    Object l = w.get(Fixtures.PrefetchLoader.class).getConstructor(int.class).newInstance(2);
    assertEquals(List.of(102, 102), call(l, "capacities"));
    assertEquals("batch", call(l, "next"));
    Object ds = w.get(Fixtures.Dataset.class).getConstructor().newInstance();
    call(ds, "get", 5);
    call(ds, "drop", 5);
    assertEquals(
        List.of("depth 0 2", "depth 1 2", "batch 2 batch", "release 3 bytes4:5 [5]"), gate.calls);
  }

  @Test
  void aCacheCallBeforeSuperHasFramesWithAnUninitializedThis() throws Throwable {
    Rule put =
        call(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Early.class.getName(),
            "java.util.Map#put(java.lang.Object,java.lang.Object)",
            1,
            null);
    Class<?> c = weave(List.of(put), Fixtures.Early.class).get(Fixtures.Early.class);
    Map<Object, Object> m = new HashMap<>();
    c.getConstructor(Map.class, Object.class).newInstance(m, "declined");
    assertEquals(Map.of(), m);
    c.getConstructor(Map.class, Object.class).newInstance(m, "v");
    assertEquals(Map.of("k", "v"), m);
  }

  @Test
  void aScopeMethodThatIsNotThereIsSaid() throws Throwable {
    Rule put =
        call(
            0,
            Rule.Role.ADMIT_ARG,
            Fixtures.Dataset.class.getName() + "#fetch(int)",
            "java.util.Map#put(java.lang.Object,java.lang.Object)",
            1,
            null);
    weave(List.of(put), Fixtures.Dataset.class);
    assertTrue(
        failures.stream()
            .anyMatch(
                f ->
                    f.reason()
                        .contains(
                            "no method "
                                + Fixtures.Dataset.class.getName()
                                + "#fetch(int) declared in")),
        failures.toString());
  }
}
