package org.flodl.budget.agent.jcache;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.Types;

/**
 * JCache's entry processors ({@code invoke} and {@code invokeAll}): the processor is wrapped in a
 * proxy of {@code EntryProcessor} whose entries are proxies of {@code MutableEntry}, so that each
 * {@code setValue(v)} is decided against the cache {@code invoke} was called on. An admitted value
 * is set (the owned copy where one is made); a declined one is not, and the entry answers as if it
 * had been stored and evicted at once: within the processor {@code getValue()} returns it and
 * {@code exists()} is true, and after {@code invoke} the entry is absent (an older value it
 * replaced is removed through the entry's own {@code remove()}). Everything else reaches the
 * provider's entry and processor as it is, their exceptions included. Both proxies are made in the
 * loader of JCache's own interfaces; nothing of JCache is linked by the agent.
 */
final class JCacheProcessors implements ArgumentAdapter {
  private static final String PROCESSOR = "javax.cache.processor.EntryProcessor";
  private static final String ENTRY = "javax.cache.processor.MutableEntry";

  @Override
  public Object wrap(Object cache, Object argument, Decider decider) {
    Class<?> processor = Types.supertypeNamed(argument.getClass(), PROCESSOR);
    if (processor == null) {
      return argument;
    }
    ClassLoader loader = processor.getClassLoader();
    Class<?> entry;
    try {
      entry = Class.forName(ENTRY, false, loader);
    } catch (ClassNotFoundException e) {
      return argument;
    }
    return Proxy.newProxyInstance(
        loader, new Class<?>[] {processor}, new Processor(argument, entry, decider));
  }

  /** The application's processor, handed entries whose stores are decided. */
  private record Processor(Object processor, Class<?> entry, Decider decider)
      implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
      if (m.getName().equals("process") && args != null && args.length == 2 && args[0] != null) {
        Object[] passed = args.clone();
        passed[0] =
            Proxy.newProxyInstance(
                entry.getClassLoader(), new Class<?>[] {entry}, new Entry(entry, args[0], decider));
        return call(m, processor, passed);
      }
      if (m.getDeclaringClass() == Object.class && m.getName().equals("equals")) {
        return proxy == args[0];
      }
      return call(m, processor, args);
    }
  }

  /**
   * A processor's entry: {@code setValue} decided; a declined value kept here alone, as the value
   * the processor reads back until it sets or removes another.
   */
  private static final class Entry implements InvocationHandler {
    private final Class<?> type;
    private final Object entry;
    private final Decider decider;
    private Object declined;

    Entry(Class<?> type, Object entry, Decider decider) {
      this.type = type;
      this.entry = entry;
      this.decider = decider;
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
      switch (m.getName()) {
        case "setValue":
          if (args != null && args.length == 1 && args[0] != null) {
            return setValue(m, args[0]);
          }
          break;
        case "getValue":
          if (declined != null && m.getParameterCount() == 0) {
            return declined;
          }
          break;
        case "exists":
          if (declined != null) {
            return true;
          }
          break;
        case "remove":
          declined = null;
          break;
        default:
          if (m.getDeclaringClass() == Object.class && m.getName().equals("equals")) {
            return proxy == args[0];
          }
      }
      return call(m, entry, args);
    }

    private Object setValue(Method m, Object value) throws Throwable {
      Object stored = decider.decide(call(type.getMethod("getKey"), entry, null), value);
      if (stored != null) {
        declined = null;
        return call(m, entry, new Object[] {stored});
      }
      // stored and evicted at once: what it replaced goes too, and the processor still sees it
      if (declined == null && Boolean.TRUE.equals(call(type.getMethod("exists"), entry, null))) {
        call(type.getMethod("remove"), entry, null);
      }
      declined = value;
      return null;
    }
  }

  /** Calls {@code m} on {@code target}, throwing what it threw as it threw it. */
  private static Object call(Method m, Object target, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args); // a method of JCache's public interfaces, or of Object
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
