package org.flodl.budget.policy.share;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * The registry through which co-hosted ranks of one job find each other and divide the host's
 * anchored budget in proportion to their consumption rates ({@code budget_i ∝ rate_i}: every
 * rank gets the same seconds of lookahead, not the same bytes).
 *
 * <p>It is a folder per user and job, in {@code /dev/shm} (or the temp folder where there is
 * none), readable and writable by its owner only; each rank owns one file, {@code PID.rank},
 * replaced atomically at every heartbeat. A rank whose heartbeat is older than the staleness
 * window, or whose process is gone, drops out of the sum (a {@code kill -9} leaves a file that is
 * ignored, then removed); an entry that cannot be parsed is ignored with one warning. Before any
 * live rank reports a rate, shares are equal.
 */
public final class HostShareRegistry {
  /** Heartbeats older than this leave the sum. */
  public static final long DEFAULT_STALE_MILLIS = 3_000;

  private static final Pattern SAFE = Pattern.compile("[^A-Za-z0-9._-]");
  private static final Set<PosixFilePermission> OWNER_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");

  private final Path folder;
  private final long pid;
  private final long staleMillis;
  private final LongSupplier clock;
  private final Consumer<String> warn;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private volatile double rate;

  private HostShareRegistry(
      Path folder, long pid, long staleMillis, LongSupplier clock, Consumer<String> warn) {
    this.folder = folder;
    this.pid = pid;
    this.staleMillis = staleMillis;
    this.clock = clock;
    this.warn = warn;
  }

  /** Returns the default registry root: {@code /dev/shm} where it exists, else the temp folder. */
  public static Path defaultRoot() {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return shm;
    }
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /**
   * Returns this process's registry for {@code job} under {@code root}, creating the folder
   * owner-only.
   *
   * @throws IOException when the folder cannot be made, or exists and belongs to another user or
   *     is open to others (it is then not trusted)
   */
  public static HostShareRegistry join(
      Path root, String job, long pid, long staleMillis, Consumer<String> warn)
      throws IOException {
    Path folder = folderFor(root, job);
    ensureOwnerOnlyFolder(folder.getParent());
    ensureOwnerOnlyFolder(folder);
    return new HostShareRegistry(folder, pid, staleMillis, System::currentTimeMillis, warn);
  }

  /**
   * Returns the folder of {@code job}'s ranks under {@code root}: {@code
   * flodl-budget-USER/JOB}, both names reduced to letters, digits, '.', '_' and '-'.
   */
  public static Path folderFor(Path root, String job) {
    String user = SAFE.matcher(System.getProperty("user.name", "user")).replaceAll("_");
    String jobName = SAFE.matcher(job.isEmpty() ? "job" : job).replaceAll("_");
    return root.resolve("flodl-budget-" + user).resolve(jobName);
  }

  private static void ensureOwnerOnlyFolder(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // another rank made it first: checked below like any existing folder
      }
    }
    if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(dir + " is not a plain folder; the host-share registry refuses it");
    }
    String me = System.getProperty("user.name");
    String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
    if (me != null && !me.equals(owner)) {
      throw new IOException(dir + " belongs to " + owner + ", not " + me + "; refusing to share it");
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    if (!OWNER_DIR.containsAll(perms)) {
      throw new IOException(
          dir + " is open to other users (" + PosixFilePermissions.toString(perms)
              + "); the host-share registry must be rwx------");
    }
  }

  /** Returns the folder this registry reads and writes. */
  public Path folder() {
    return folder;
  }

  /** Sets this rank's smoothed consumption rate; written at the next {@link #heartbeat()}. */
  public void publish(double ratePerSecond) {
    if (Double.isFinite(ratePerSecond) && ratePerSecond >= 0) {
      rate = ratePerSecond;
    }
  }

  /** Writes this rank's entry now (atomically: a reader sees the old entry or the new one). */
  public void heartbeat() throws IOException {
    RankEntry entry = new RankEntry(pid, rate, clock.getAsLong());
    Path tmp = folder.resolve(pid + ".rank.tmp");
    Files.writeString(tmp, entry.format(), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(tmp, OWNER_FILE);
    try {
      Files.move(tmp, entry(pid), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, entry(pid), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private Path entry(long p) {
    return folder.resolve(p + ".rank");
  }

  /** Returns the live ranks' entries (this one included once it has beaten). */
  public List<RankEntry> liveRanks() {
    List<RankEntry> live = new ArrayList<>();
    long now = clock.getAsLong();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.rank")) {
      for (Path f : files) {
        RankEntry e = read(f);
        if (e == null) {
          continue;
        }
        boolean alive = e.pid() == pid || ProcessHandle.of(e.pid()).map(ProcessHandle::isAlive)
            .orElse(false);
        if (!alive) {
          Files.deleteIfExists(f); // a rank killed with -9: its share goes back at once
          continue;
        }
        if (now - e.heartbeatMillis() > staleMillis) {
          continue;
        }
        live.add(e);
      }
    } catch (IOException e) {
      warnOnce("list", "flodl-budget: cannot read the host-share registry " + folder + ": " + e);
    }
    return live;
  }

  private RankEntry read(Path f) {
    Properties props = new Properties();
    try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      props.load(r);
      return RankEntry.parse(props);
    } catch (java.nio.file.NoSuchFileException gone) {
      return null;
    } catch (IOException | RuntimeException e) {
      warnOnce(f.getFileName().toString(),
          "flodl-budget: ignoring a corrupted host-share entry " + f + ": " + e.getMessage());
      return null;
    }
  }

  /**
   * Returns this rank's share of the host: its rate over the live ranks' sum. A rank with no rate
   * yet (just started) counts at the mean of the known rates, so shares are equal before any rate
   * is known and a newcomer is neither starved nor handed the host; 1 when it is alone.
   */
  public double share() {
    return shareOf(pid, liveRanks());
  }

  /** Returns {@code self}'s share among {@code live} (the rule, apart from the files). */
  public static double shareOf(long self, List<RankEntry> live) {
    double known = 0;
    int knownCount = 0;
    boolean present = false;
    for (RankEntry e : live) {
      if (e.rate() > 0) {
        known += e.rate();
        knownCount++;
      }
      present |= e.pid() == self;
    }
    double unknownRate = knownCount == 0 ? 1.0 : known / knownCount;
    double sum = 0;
    double mine = unknownRate;
    for (RankEntry e : live) {
      double r = e.rate() > 0 ? e.rate() : unknownRate;
      sum += r;
      if (e.pid() == self) {
        mine = r;
      }
    }
    if (!present) {
      sum += mine;
    }
    return sum <= 0 ? 1.0 : mine / sum;
  }

  /** Removes this rank's entry (a clean exit hands its share back at once). */
  public void leave() {
    try {
      Files.deleteIfExists(entry(pid));
    } catch (IOException e) {
      warnOnce("leave", "flodl-budget: cannot remove " + entry(pid) + ": " + e);
    }
  }

  private void warnOnce(String key, String message) {
    if (warned.add(key)) {
      warn.accept(message);
    }
  }
}
