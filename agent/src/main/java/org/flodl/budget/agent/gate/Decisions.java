package org.flodl.budget.agent.gate;

/**
 * What {@link Gate} asks: the {@link GateEngine} in the agent, a scripted stand-in in the weaver's
 * tests. Each method is one of the gate's entry points with the point's id first; none may let a
 * throwable out that the gate does not catch (the gate catches them all).
 */
public interface Decisions {
  /** Returns the value to retain at body point {@code point}, or {@link Gate#DECLINED}. */
  Object admit(int point, Object receiver, Object value);

  /**
   * {@link #admit}, with the entry's {@code key}: a cache that keeps a copy of the value holds its
   * charge by the entry.
   */
  default Object admitEntry(int point, Object receiver, Object key, Object value) {
    return admit(point, receiver, value);
  }

  /** A body of a returned-value point was entered. */
  void enter(int point);

  /** A body was left: returning, or {@code threw} (what it admitted at entry is given back). */
  void leave(int point, boolean threw);

  /** Returns whether {@code value}, returned at body point {@code point}, was declined. */
  boolean returned(int point, Object receiver, Object value);

  /**
   * Calls the site's decline method on {@code receiver}; {@code answering}: for a call that was
   * skipped, whose answer it returns and whose library exception it throws as {@link
   * Decline.Threw}'s cause.
   */
  Object decline(int point, Object receiver, Object[] args, boolean answering) throws Decline.Threw;

  /** Returns the depth to use; {@code arguments} are the call's, for an adapter, or null. */
  int depth(int point, int requested, Object[] arguments);

  /** Releases what {@code returned} or {@code arguments} retained. */
  void release(int point, Object[] arguments, Object returned);

  /** Prices a batch returned on {@code receiver}. */
  void batch(int point, Object receiver, Object batch);

  /** Runs hook point {@code point}'s adapter on {@code receiver}, at its method's entry. */
  void hook(int point, Object receiver);

  /** A hook that reads the call's {@code arguments} runs at its method's entry. */
  default void hook(int point, Object receiver, Object[] arguments) {
    hook(point, receiver);
  }

  /** Returns the value a call should pass on, or {@link Gate#DECLINED}. */
  Object admitCall(int point, Object value);

  /** Returns whether a call's returned value was declined. */
  boolean returnedCall(int point, Object value);

  /** Says once that the gate failed at {@code point}. */
  void failed(int point, Throwable t);
}
