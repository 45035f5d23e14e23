package org.flodl.budget.agent.suggest;

import java.util.List;

/**
 * One suggested site: the fields of its block and the evidence for it.
 *
 * @param kind {@code cache-admit} or {@code prefetch-depth}
 * @param name the block's name before it is made unique
 * @param in the method whose calls are woven ({@code com.acme.Dataset#get(int)})
 * @param method the called method ({@code
 *     java.util.HashMap#put(java.lang.Object,java.lang.Object)})
 * @param value the value's argument index or {@code return} (cache-admit), else null
 * @param release the release call, or null
 * @param decline the decline call of a returned value, or null
 * @param depth the depth's argument index (prefetch-depth), else -1
 * @param batch the method that hands out batches, or null
 * @param sure 0 sure, 1 likely, 2 possible: how strong the evidence is
 * @param why the evidence, as sentences for the block's comment
 * @param className the class the site is in (internal name), for ordering and checks
 * @param inName the {@code in} method's name
 * @param inDescriptor the {@code in} method's descriptor
 */
record Candidate(
    String kind,
    String name,
    String in,
    String method,
    String value,
    String release,
    String decline,
    int depth,
    String batch,
    int sure,
    List<String> why,
    String className,
    String inName,
    String inDescriptor) {

  /** Returns how sure the evidence is, in a word. */
  String sureness() {
    return switch (sure) {
      case 0 -> "sure";
      case 1 -> "likely";
      default -> "possible";
    };
  }
}
