package org.flodl.budget.agent.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sites of a start without two on one method, nor one name on two kinds of site. */
final class SiteConflicts {
  private SiteConflicts() {}

  /**
   * Returns {@code sites} without the blocks that budget a method an earlier block already budgets
   * (two sites on one method would each book its values), adding one line per refused block to
   * {@code warnings}. Blocks that share a {@code name} must share a kind.
   */
  static List<SiteSpec> withoutConflicts(List<SiteSpec> sites, List<String> warnings) {
    List<SiteSpec> kept = new ArrayList<>();
    Map<String, String> kinds = new LinkedHashMap<>();
    for (SiteSpec s : sites) {
      String conflict = null;
      for (SiteSpec k : kept) {
        if (BlockFields.sameMethod(s.method(), k.method())
            && String.valueOf(s.in()).equals(String.valueOf(k.in()))) {
          conflict =
              "it budgets "
                  + s.method()
                  + (s.in() == null ? "" : " in " + s.in())
                  + " as site '"
                  + k.block()
                  + "' ("
                  + k.origin()
                  + ") already does; one site per"
                  + " method, or each value would be booked twice";
          break;
        }
        if (s instanceof CacheAdmitSite c
            && c.release() != null
            && k instanceof CacheAdmitSite o
            && BlockFields.sameMethod(c.release(), o.method())) {
          conflict =
              "its release " + c.release() + " is the method site '" + k.block() + "' admits at";
          break;
        }
      }
      String kind = kinds.putIfAbsent(s.name(), s.kind());
      if (conflict == null && kind != null && !kind.equals(s.kind())) {
        conflict = "name '" + s.name() + "' is a " + kind + " site already";
      }
      if (conflict != null) {
        warnings.add(
            ConfigException.PREFIX
                + s.origin()
                + ": site '"
                + s.block()
                + "' disabled: "
                + conflict);
      } else {
        kept.add(s);
      }
    }
    return kept;
  }
}
