package org.flodl.budget.share;

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
 * anchored budget in proportion to their consumption rates ({@code budget_i ∝ rate_i}: every rank
 * gets the same seconds of lookahead, not the same bytes).
 *
 * <p>It is a folder per user, memory domain and job, {@code ROOT/flodl-budget-USER/DOMAIN/JOB}, in
 * {@code /dev/shm} (or the temp folder where there is none), readable and writable by its owner
 * only: ranks divide a budget only when they draw on the same memory (the same binding cgroup, or
 * the host), whatever their job's name. Each rank owns one file, {@code PID.rank}, replaced
 * atomically at every heartbeat. An entry counts only if it is valid: its process alive and started
 * when the entry says (a reused pid is not the rank), its heartbeat recent and not in the future,
 * its rate finite and bounded; one that is not is removed, said once per run. A {@code kill -9}
 * leaves a file that is removed the next time it is read. Job folders with no live rank are removed
 * when a rank joins the domain. Before any live rank reports a rate, shares are equal.
 */
public final class HostShareRegistry {
  /** Heartbeats older than this leave the sum. */
  public static final long DEFAULT_STALE_MILLIS = 3_000;

  /** Heartbeats further ahead than this are a wrong clock or a planted entry. */
  static final long FUTURE_TOLERANCE_MILLIS = 5_000;

  /** A process start may read this far from what its entry says (clock ticks, rounding). */
  static final long START_TOLERANCE_MILLIS = 2_000;

  /** Job folders older than this with no live rank are removed when a rank joins. */
  static final long DEAD_JOB_MILLIS = 60_000;

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
  private final long startMillis;
  private volatile double rate;
  private long removed;

  private HostShareRegistry(
      Path folder, long pid, long staleMillis, LongSupplier clock, Consumer<String> warn) {
    this.folder = folder;
    this.pid = pid;
    this.staleMillis = staleMillis;
    this.clock = clock;
    this.warn = warn;
    this.startMillis = startOf(pid);
  }

  /** Returns when process {@code pid} started (wall clock, ms), or -1 when that cannot be read. */
  static long startOf(long pid) {
    java.util.Optional<ProcessHandle> h = ProcessHandle.of(pid); // no lambda: start-up
    return h.isEmpty() ? -1 : startMillis(h.get());
  }

  private static long startMillis(ProcessHandle h) {
    java.util.Optional<java.time.Instant> started = h.info().startInstant();
    return started.isEmpty() ? -1 : started.get().toEpochMilli();
  }

  /** The system property that moves the registry's root (tests, hosts without a shared tmpfs). */
  public static final String ROOT_PROPERTY = "flodl.budget.registry";

  /**
   * Returns the default registry root: the folder {@value #ROOT_PROPERTY} names, else {@code
   * /dev/shm} where it exists, else the temp folder.
   */
  public static Path defaultRoot() {
    String configured = System.getProperty(ROOT_PROPERTY, "");
    if (!configured.isBlank()) {
      return Path.of(configured);
    }
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
   * @throws IOException when the folder cannot be made, or exists and belongs to another user or is
   *     open to others (it is then not trusted)
   */
  public static HostShareRegistry join(
      Path root, String job, long pid, long staleMillis, Consumer<String> warn) throws IOException {
    return join(root, "host", job, pid, staleMillis, warn);
  }

  /**
   * Returns this process's registry for {@code job} in memory domain {@code domain} ({@code host},
   * or {@code cgroup:PATH}) under {@code root}, creating the folders owner-only, and removes the
   * folders of the domain's jobs that have no live rank left.
   *
   * @throws IOException when a folder cannot be made, or exists and belongs to another user or is
   *     open to others (it is then not trusted)
   */
  public static HostShareRegistry join(
      Path root, String domain, String job, long pid, long staleMillis, Consumer<String> warn)
      throws IOException {
    Path folder = folderFor(root, domain, job);
    ensureOwnerOnlyFolder(folder.getParent().getParent());
    ensureOwnerOnlyFolder(folder.getParent());
    ensureOwnerOnlyFolder(folder);
    HostShareRegistry r =
        new HostShareRegistry(
            folder,
            pid,
            staleMillis,
            new LongSupplier() { // no lambda
              @Override
              public long getAsLong() {
                return System.currentTimeMillis();
              }
            },
            warn);
    r.removeDeadJobs();
    return r;
  }

  /**
   * Joins under {@link #defaultRoot()}, or, where another user holds this user's folder there
   * (created it first, or opened it), under {@code ~/.cache} instead, said in one line: a squatted
   * folder never turns sharing off.
   */
  public static HostShareRegistry joinDefault(
      String domain, String job, long pid, long staleMillis, Consumer<String> warn)
      throws IOException {
    try {
      return join(defaultRoot(), domain, job, pid, staleMillis, warn);
    } catch (IOException e) {
      Path fallback = Path.of(System.getProperty("user.home"), ".cache");
      Files.createDirectories(fallback);
      warn.accept(
          "flodl-budget: the host-share registry meets under "
              + fallback
              + " instead: "
              + e.getMessage());
      return join(fallback, domain, job, pid, staleMillis, warn);
    }
  }

  private static String userFolderName() {
    return "flodl-budget-" + SAFE.matcher(System.getProperty("user.name", "user")).replaceAll("_");
  }

  /** Returns the folder of {@code job}'s ranks under {@code root}, in the host's domain. */
  public static Path folderFor(Path root, String job) {
    return folderFor(root, "host", job);
  }

  /**
   * Returns the folder of {@code job}'s ranks in {@code domain} under {@code root}: {@code
   * flodl-budget-USER/DOMAIN/JOB}, the names reduced to letters, digits, '.', '_' and '-' (a cgroup
   * domain as {@code cg-} and a hash of its path).
   */
  public static Path folderFor(Path root, String domain, String job) {
    String jobName = SAFE.matcher(job.isEmpty() ? "job" : job).replaceAll("_");
    if (jobName.length() > 100) {
      jobName = jobName.substring(0, 80) + "-" + Integer.toHexString(job.hashCode());
    }
    String domainName =
        domain.equals("host") ? "host" : "cg-" + Long.toHexString(domain.hashCode() & 0xffffffffL);
    return root.resolve(userFolderName()).resolve(domainName).resolve(jobName);
  }

  /** Removes the domain's job folders (not this one) whose ranks are all gone. */
  private void removeDeadJobs() {
    long now = clock.getAsLong();
    int seen = 0;
    try (DirectoryStream<Path> jobs = Files.newDirectoryStream(folder.getParent())) {
      for (Path job : jobs) {
        if (++seen > 256) {
          break;
        }
        if (job.equals(folder)
            || !Files.isDirectory(job, LinkOption.NOFOLLOW_LINKS)
            || now - Files.getLastModifiedTime(job, LinkOption.NOFOLLOW_LINKS).toMillis()
                < DEAD_JOB_MILLIS) {
          continue;
        }
        boolean live = false;
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(job)) {
          for (Path f : entries) {
            files.add(f);
            RankEntry e = f.getFileName().toString().endsWith(".rank") ? quietRead(f) : null;
            live |= e != null && alive(e);
          }
        }
        if (!live) {
          for (Path f : files) {
            Files.deleteIfExists(f);
          }
          Files.deleteIfExists(job);
        }
      }
    } catch (IOException | RuntimeException e) {
      // a folder another rank is removing, or filling: left for the next join
    }
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
      throw new IOException(
          dir + " belongs to " + owner + ", not " + me + "; refusing to share it");
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    if (!OWNER_DIR.containsAll(perms)) {
      throw new IOException(
          dir
              + " is open to other users ("
              + PosixFilePermissions.toString(perms)
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
    RankEntry entry = new RankEntry(pid, startMillis, rate, clock.getAsLong());
    Path tmp = folder.resolve(pid + ".rank.tmp");
    Files.writeString(tmp, entry.format(), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(tmp, OWNER_FILE);
    try {
      Files.move(
          tmp, entry(pid), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, entry(pid), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private Path entry(long p) {
    return folder.resolve(p + ".rank");
  }

  /**
   * Returns the live ranks' entries (this one included once it has beaten). An entry of a process
   * that is gone, or a pid another process now has, is removed; an entry that cannot be parsed,
   * beats in the future or claims an unbounded rate is removed too, the first said once.
   */
  public List<RankEntry> liveRanks() {
    List<RankEntry> live = new ArrayList<>();
    long now = clock.getAsLong();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.rank")) {
      for (Path f : files) {
        RankEntry e;
        try {
          e = read(f);
        } catch (IllegalArgumentException | IOException bad) {
          removeBad(f, bad.getMessage());
          continue;
        }
        if (e == null) {
          continue; // gone meanwhile
        }
        if (e.heartbeatMillis() - now > FUTURE_TOLERANCE_MILLIS) {
          removeBad(f, "its heartbeat is " + (e.heartbeatMillis() - now) + " ms in the future");
          continue;
        }
        if (e.pid() != pid && !alive(e)) {
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

  /** Returns whether {@code e}'s process is alive and is the one that wrote it. */
  static boolean alive(RankEntry e) {
    java.util.Optional<ProcessHandle> h = ProcessHandle.of(e.pid());
    if (h.isEmpty() || !h.get().isAlive()) {
      return false;
    }
    long started = startMillis(h.get());
    if (started < 0 || e.startMillis() < 0) {
      return started < 0; // an entry that hides its start counts only where none can be read
    }
    return Math.abs(started - e.startMillis()) <= START_TOLERANCE_MILLIS;
  }

  private void removeBad(Path f, String why) {
    try {
      Files.deleteIfExists(f);
    } catch (IOException ignored) {
      // another rank removed it, or will
    }
    synchronized (this) {
      removed++;
    }
    warnOnce(
        "bad",
        "flodl-budget: removed a bad host-share entry "
            + f.getFileName()
            + " ("
            + why
            + "); further bad entries are removed without a line");
  }

  /** Returns how many bad entries this registry has removed. */
  public synchronized long removedBadEntries() {
    return removed;
  }

  private RankEntry read(Path f) throws IOException {
    if (Files.size(f) > 4096) {
      throw new IllegalArgumentException("it is " + Files.size(f) + " bytes, not an entry");
    }
    Properties props = new Properties();
    try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      props.load(r);
      return RankEntry.parse(props);
    } catch (java.nio.file.NoSuchFileException gone) {
      return null;
    } catch (java.nio.charset.MalformedInputException e) {
      throw new IllegalArgumentException("not text");
    }
  }

  private RankEntry quietRead(Path f) {
    try {
      return read(f);
    } catch (IOException | RuntimeException e) {
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
