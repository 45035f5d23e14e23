package org.flodl.budget.pricing;

import java.lang.ref.Cleaner;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The pricer's {@link Releases}: one {@link Cleaner}, made at the first registration, whose daemon
 * thread ({@value #THREAD}) runs each action once its holder is phantom reachable. An action that
 * throws is said once (the first) and counted as run.
 */
final class Cleanup implements Releases {
  static final String THREAD = "flodl-budget releases";

  private final Consumer<String> notice;
  private final AtomicLong ran = new AtomicLong();
  private final AtomicBoolean toldFailure = new AtomicBoolean();
  private volatile Cleaner cleaner;

  Cleanup(Consumer<String> notice) {
    this.notice = notice;
  }

  @Override
  public void whenUnreachable(Object holder, Runnable action) {
    cleaner().register(holder, new Once(action, this));
  }

  long ran() {
    return ran.get();
  }

  private Cleaner cleaner() {
    Cleaner c = cleaner;
    if (c == null) {
      synchronized (this) {
        c = cleaner;
        if (c == null) {
          c =
              Cleaner.create(
                  new ThreadFactory() {
                    @Override
                    public Thread newThread(Runnable r) {
                      Thread t = new Thread(r, THREAD);
                      t.setDaemon(true);
                      return t;
                    }
                  });
          cleaner = c;
        }
      }
    }
    return c;
  }

  /** An action that counts itself and never throws; holds nothing of its holder. */
  private static final class Once implements Runnable {
    private final Runnable action;
    private final Cleanup owner;

    Once(Runnable action, Cleanup owner) {
      this.action = action;
      this.owner = owner;
    }

    @Override
    public void run() {
      try {
        action.run();
      } catch (RuntimeException | LinkageError e) {
        if (owner.toldFailure.compareAndSet(false, true)) {
          try {
            owner.notice.accept("handing a declined value back to its library failed: " + e);
          } catch (RuntimeException ignored) {
            // a notice that fails is not the release's problem
          }
        }
      } finally {
        owner.ran.incrementAndGet();
      }
    }
  }
}
