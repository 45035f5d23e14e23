package org.flodl.budget.agent.djl;

import java.util.concurrent.ExecutorService;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The advice inlined into DJL's data iteration; the weaver reads these class files and never runs
 * them. Each body hands plain Objects to {@link DjlGate} and suppresses what it throws, so DJL
 * runs on whatever happens in the agent.
 */
final class DjlAdvice {
  private DjlAdvice() {}

  /**
   * {@code DataIterable(dataset, manager, sampler, dataBatchifier, labelBatchifier, pipeline,
   * targetPipeline, executor, preFetchNumber, device)}: on enter (before {@code super()}) the
   * epoch's depth replaces {@code preFetchNumber}, or a depth of 0 drops the executor; on exit the
   * constructed subtype is checked for its own {@code fetch}.
   */
  static final class Epoch {
    private Epoch() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(
        @Advice.Argument(0) Object dataset,
        @Advice.Argument(1) Object manager,
        @Advice.Argument(2) Object sampler,
        @Advice.Argument(value = 7, readOnly = false) ExecutorService executor,
        @Advice.Argument(value = 8, readOnly = false) int prefetch,
        @Advice.Argument(9) Object device) {
      int depth = DjlGate.epoch(dataset, manager, sampler, executor != null, prefetch, device);
      if (depth == DjlGate.DROP_EXECUTOR) {
        executor = null;
      } else {
        prefetch = depth;
      }
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(@Advice.This Object self) {
      DjlGate.constructed(self);
    }
  }

  /** {@code Batch fetch(List<Long> indices, int progress)}: the returned batch is priced. */
  static final class Fetch {
    private Fetch() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @Advice.This Object self,
        @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object batch) {
      DjlGate.batch(self, batch);
    }
  }
}
