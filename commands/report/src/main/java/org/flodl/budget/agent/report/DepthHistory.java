package org.flodl.budget.agent.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a recording says of one prefetch or ring site: the device it feeds, where recorded, and its
 * depth decisions, in time order once the recording is read.
 */
final class DepthHistory {
  final String name;
  String device = "";
  final List<DepthChoice> points = new ArrayList<>();

  DepthHistory(String name) {
    this.name = name;
  }

  /** Puts the decisions in time order. */
  void finish() {
    points.sort(Comparator.comparing(p -> p.time));
  }
}
