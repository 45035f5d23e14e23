package org.flodl.budget.agent.weave;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import org.flodl.budget.agent.gate.Gate;

/**
 * The advice the weaver inlines into site methods: each body is a line or two that hands the
 * site's constant id and the value to {@link Gate}, the only thing advice calls. The weaver refers
 * to these classes by name and reads their class files; they are never loaded to run. Every
 * advice suppresses what it throws, so the woven method runs on whatever happens in the gate.
 */
final class Advices {
  private Advices() {}

  /** cache-admit on a method: replace the retained value by its owned copy, or skip the call. */
  static final class CacheAdmit {
    private CacheAdmit() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    static boolean enter(@SiteId int site, @SiteArgument Object value) {
      Object admitted = Gate.admit(site, value);
      if (admitted == Gate.DECLINED) {
        return true;
      }
      value = admitted;
      return false;
    }
  }

  /** prefetch-depth on an argument (a constructor too: enter advice runs before it, never skips). */
  static final class DepthArgument {
    private DepthArgument() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@SiteId int site, @SiteArgument int depth) {
      depth = Gate.depth(site, depth);
    }
  }

  /** prefetch-depth on an {@code int} return value. */
  static final class DepthReturn {
    private DepthReturn() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(@SiteId int site, @Advice.Return(readOnly = false) int depth) {
      depth = Gate.depth(site, depth);
    }
  }

  /** A release site: its arguments and return value hand back what they retained, by identity. */
  static final class Release {
    private Release() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @SiteId int site,
        @Advice.AllArguments Object[] arguments,
        @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object returned) {
      Gate.release(site, arguments, returned);
    }
  }

  /** A batch site: the returned batch prices the next depth decision of its prefetch site. */
  static final class Batch {
    private Batch() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(@SiteId int site, @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object batch) {
      Gate.batch(site, batch);
    }
  }
}
