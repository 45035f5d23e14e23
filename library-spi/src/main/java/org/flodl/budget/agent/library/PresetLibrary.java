package org.flodl.budget.agent.library;

/**
 * A library that its preset alone budgets: the sites file's format says all of it, and the support
 * class only names it. Subclasses pass their four facts to the constructor and keep a public one
 * without arguments, for {@link java.util.ServiceLoader}.
 */
public abstract class PresetLibrary implements Library {
  private final String name;
  private final String covers;
  private final String apiPackage;
  private final String marker;

  /** Returns a library named {@code name}; the others are as {@link Library} says. */
  protected PresetLibrary(String name, String covers, String apiPackage, String marker) {
    this.name = name;
    this.covers = covers;
    this.apiPackage = apiPackage;
    this.marker = marker;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String covers() {
    return covers;
  }

  @Override
  public final String apiPackage() {
    return apiPackage;
  }

  @Override
  public final String marker() {
    return marker;
  }
}
