package org.flodl.budget.agent.config;

/**
 * One block of a sites file (or of a preset): a {@link CacheAdmitSite} or a {@link
 * PrefetchDepthSite}. A site without {@link #in()} weaves the body of {@link #method()} in the
 * named type and every subtype that declares one; a site with {@code in} weaves the calls to {@code
 * method} made inside the code {@code in} names.
 */
public sealed interface SiteSpec permits CacheAdmitSite, PrefetchDepthSite {
  /** The argument index that means the method's return value ({@code value = return}). */
  int RETURN = -1;

  /** The {@code role} of a site that feeds a stager. */
  String STAGER = "stager";

  /** Returns the block's name in its file ({@code site.BLOCK.field}). */
  String block();

  /** Returns the site's name in events and the report: {@code name =}, else the block's. */
  String name();

  /** Returns the method whose calls or bodies the site budgets. */
  MethodRef method();

  /** Returns where its calls are woven, or null for a site on the method's bodies. */
  Scope in();

  /** Returns whether the site feeds a stager ({@code role = stager}). */
  boolean stager();

  /** Returns where the block came from: the sites file's path, or {@code preset NAME}. */
  String origin();

  /** Returns whether calls are woven ({@code in = ...}) rather than bodies. */
  default boolean isCallSite() {
    return in() != null;
  }

  /** Returns the kind as the sites file writes it. */
  String kind();
}
