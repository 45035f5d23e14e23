package com.acme.it;

/**
 * Prints, for each class named on the command line, whether this application's class loader (and so
 * a class the agent weaves) can load it: {@code name=yes} or {@code name=no}.
 */
public final class ClassesSeen {
  private ClassesSeen() {}

  public static void main(String[] args) {
    for (String name : args) {
      boolean seen;
      try {
        Class.forName(name, false, ClassesSeen.class.getClassLoader());
        seen = true;
      } catch (ClassNotFoundException | LinkageError e) {
        seen = false;
      }
      System.out.println(name + "=" + (seen ? "yes" : "no"));
    }
  }
}
