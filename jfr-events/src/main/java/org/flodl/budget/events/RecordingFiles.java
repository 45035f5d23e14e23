package org.flodl.budget.events;

/**
 * How a recording lies on disk, for the agent that writes it and the {@code report} that reads it:
 * {@code record=FILE} is written at exit, and while the JVM runs its chunks are kept in a folder
 * beside it. Compile-time constants: a reader copies them and loads nothing of this module.
 */
public final class RecordingFiles {
  private RecordingFiles() {}

  /** The suffix of the folder of chunks a running JVM keeps beside FILE. */
  public static final String CHUNKS = ".chunks";
}
