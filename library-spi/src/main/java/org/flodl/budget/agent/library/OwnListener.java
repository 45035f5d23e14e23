package org.flodl.budget.agent.library;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/**
 * The handler of a listener the agent itself adds to a library's cache, a proxy of the library's
 * listener interface (the follower of a JCache cache's copies on the store under an Ehcache cache).
 * Such a listener tells the agent, never the application: a cache's {@link Witnesses} do not count
 * it, or the agent's own subscription would keep the cache from being declined.
 */
@FunctionalInterface
public interface OwnListener extends InvocationHandler {
  /** Returns whether {@code listener} is a proxy the agent made with an {@code OwnListener}. */
  static boolean made(Object listener) {
    return listener != null
        && Proxy.isProxyClass(listener.getClass())
        && Proxy.getInvocationHandler(listener) instanceof OwnListener;
  }
}
