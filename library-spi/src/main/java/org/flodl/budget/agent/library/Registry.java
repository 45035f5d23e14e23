package org.flodl.budget.agent.library;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The libraries {@link java.util.ServiceLoader} finds, read once, when a list of them is first
 * asked for. The agent's own (defined by the loader that defined {@link Library}) come first, in
 * the order of its services file, then any the application's class path provides; a support that
 * cannot be loaded, or repeats a name already found, is left out and said in {@link #PROBLEMS}.
 */
final class Registry {
  /** At most this many providers are asked for, against an iterator that never ends. */
  private static final int MOST = 256;

  /** The services file that names library supports. */
  static final String SERVICES = "META-INF/services/" + Library.class.getName();

  static final List<Library> ALL;
  static final List<String> NAMES;
  static final List<String> PROBLEMS;

  /** Counts the new sources of the libraries' bounds ({@link Library#boundChanged}). */
  static final java.util.concurrent.atomic.AtomicLong BOUND_CHANGES =
      new java.util.concurrent.atomic.AtomicLong();

  static {
    List<Library> own = new ArrayList<>();
    List<Library> others = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    ClassLoader agent = Library.class.getClassLoader(); // null on the boot class path
    // With null, ServiceLoader reads the system loader's services files: the agent jar is on it.
    // Where nothing on the class path can provide one, the agent's own are read from the boot
    // class path alone (the platform loader's view): the system loader's scan would open the
    // agent jar a second time, milliseconds at start-up that find nothing more.
    Iterator<Library> found =
        (agent == null && !ClassPath.mayProvide(SERVICES)
                ? ServiceLoader.loadInstalled(Library.class)
                : ServiceLoader.load(Library.class, agent))
            .iterator();
    for (int i = 0; i < MOST; i++) {
      Library l;
      try {
        if (!found.hasNext()) {
          break;
        }
        l = found.next();
      } catch (ServiceConfigurationError | LinkageError | RuntimeException e) {
        problems.add("a library support cannot be loaded and is left out (" + e.getMessage() + ")");
        continue;
      }
      (l.getClass().getClassLoader() == agent ? own : others).add(l);
    }
    own.addAll(others);
    List<Library> all = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Library l : own) {
      String name;
      try {
        name = l.name();
      } catch (RuntimeException | LinkageError e) {
        problems.add(
            "library support "
                + l.getClass().getName()
                + " is left out: its name "
                + "cannot be read ("
                + e
                + ")");
        continue;
      }
      if (name == null || name.isEmpty() || !name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
        problems.add(
            "library support "
                + l.getClass().getName()
                + " is left out: its name '"
                + name
                + "' is not a lower-case word");
      } else if (names.contains(name)) {
        problems.add(
            "library support "
                + l.getClass().getName()
                + " is left out: '"
                + name
                + "' is already "
                + all.get(names.indexOf(name)).getClass().getName());
      } else {
        all.add(l);
        names.add(name);
      }
    }
    ALL = List.copyOf(all);
    NAMES = List.copyOf(names);
    PROBLEMS = List.copyOf(problems);
  }

  private Registry() {}
}
