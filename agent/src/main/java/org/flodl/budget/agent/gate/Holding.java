package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.policy.TierLedger;

/**
 * One admitted value on the {@link Holdings} table: a weak reference to it, its account (the site
 * and the tier's ledger), the bytes reserved for it, and the next holding of its bucket (guarded by
 * its {@link HoldingTable}'s lock). The bytes are an int read unsigned, up to 4 GiB - 1; a larger
 * charge is a {@link Big}, the one subclass (so this class is not final). Its release hands the
 * bytes back once and counts and samples the release as its site's.
 */
class Holding extends WeakReference<Object> {
  static final long MAX_SMALL = 0xFFFF_FFFFL;

  /**
   * The link of a holding a release site unlinked and released. Unlinked, such a holding is
   * garbage, but the collector may still find it through garbage it treats as live (a young
   * collection takes old objects for roots: an older table, a holding unlinked before), and enqueue
   * it once its value dies: the releaser passes by a holding so marked. Seen: 538 of 2.45 million
   * released twice in 20 s of a put-and-evict hammer before the mark.
   */
  static final Holding RELEASED = new Holding(null, null, null, 0);

  static final VarHandle NEXT;

  static {
    try {
      NEXT = MethodHandles.lookup().findVarHandle(Holding.class, "next", Holding.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Account account;
  private final int bytes;
  Holding next;

  Holding(Object value, ReferenceQueue<Object> queue, Account account, long bytes) {
    super(value, queue);
    this.account = account;
    this.bytes = (int) Math.min(bytes, MAX_SMALL);
  }

  /** Returns a holding of {@code value} for {@code bytes}: a {@link Big} past 4 GiB - 1. */
  static Holding of(Object value, ReferenceQueue<Object> queue, Account account, long bytes) {
    return bytes <= MAX_SMALL
        ? new Holding(value, queue, account, bytes)
        : new Big(value, queue, account, bytes);
  }

  long bytes() {
    return Integer.toUnsignedLong(bytes);
  }

  /**
   * Returns the bytes handed back, for {@code cause} (a {@link CacheSite} kind of release), counted
   * on {@code t} (the calling thread's state); called once, by whoever unlinked this holding or the
   * releaser.
   */
  final long release(int cause, GateThread t) {
    long b = bytes();
    TierLedger ledger = account.ledger();
    ledger.giveBack(b);
    CacheSite site = account.site();
    long weight = site.count(t, ledger.tier(), cause, b, false, Recorder.on());
    if (weight > 0) {
      try {
        long held = ledger.held();
        if (ReleaseEvent.emit(
            site.name(), Labels.of(ledger.tier()), b, CacheSite.NAMES[cause], held, weight)) {
          site.sampled(cause, new CacheSite.Sample("", b, b, b, false, false, held, -1, -1));
          Holdings.EVENTS.increment();
        }
      } catch (Throwable ignored) {
        // Recording is best effort; the books are already right.
      }
    }
    return b;
  }

  /** A holding of 4 GiB or more. */
  static final class Big extends Holding {
    private final long bigBytes;

    Big(Object value, ReferenceQueue<Object> queue, Account account, long bytes) {
      super(value, queue, account, bytes);
      this.bigBytes = bytes;
    }

    @Override
    long bytes() {
      return bigBytes;
    }
  }
}
