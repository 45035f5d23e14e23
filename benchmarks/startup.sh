#!/usr/bin/env bash
# Start-up cost of the agent: a small JVM that loads one class named in a sites file and calls its
# woven method once, against the same JVM without the agent, with an agent whose premain does
# nothing (the JVM's own cost of -javaagent), with mode=off, with the agent installed but no
# site, with a second site, a prefetch depth on cuda:0 (on a machine without a GPU: what the
# VRAM probes cost when they find none), and with the bare flag (no argument: every library's
# preset observed; this job uses none of them). Prints each JVM's loaded classes first. Checks first that the woven run really weaves (log=info). Uses hyperfine when installed
# (apt-get install hyperfine; HYPERFINE=off to skip it), else alternating rounds timed in bash
# (medians).
#
#   mvn -B -q -pl agent -am package -DskipTests
#   benchmarks/startup.sh [RUNS]        (default 15; run from anywhere; JAVA=... picks the JVM;
#                                        BEFORE=old.jar adds an earlier build's two site runs)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-15}
JAR=$PWD/agent/target/flodl-budget-agent.jar
BEFORE=${BEFORE:-}   # an earlier build's jar: its two site runs are measured side by side too
if [ -n "$BEFORE" ] && [ "$(basename "$BEFORE")" != flodl-budget-agent.jar ]; then
  # Its manifest's Boot-Class-Path names flodl-budget-agent.jar: renamed, the agent runs from the
  # application's class path (it says so) and starts slower, which would be measured as the build's.
  echo "startup.sh: BEFORE must be a jar named flodl-budget-agent.jar (in a folder of its own)" >&2
  exit 2
fi
[ -f "$JAR" ] || { echo "startup.sh: build the agent first: mvn -B -q -pl agent -am package -DskipTests" >&2; exit 2; }
JAVA=${JAVA:-java}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/src/demo" "$W/classes" "$W/empty-agent"
cat > "$W/src/demo/Store.java" <<'JAVA'
package demo;
public final class Store {
  private final java.util.concurrent.ConcurrentHashMap<Object, Object> m = new java.util.concurrent.ConcurrentHashMap<>();
  public Object put(Object k, Object v) { return m.put(k, v); }
  public int size() { return m.size(); }
}
JAVA
cat > "$W/src/demo/Feed.java" <<'JAVA'
package demo;
public final class Feed {
  private final java.util.concurrent.ArrayBlockingQueue<byte[]> q;
  public Feed(int depth) { q = new java.util.concurrent.ArrayBlockingQueue<>(Math.max(1, depth)); }
  public byte[] next() { byte[] b = new byte[1024]; q.offer(b); return q.poll(); }
  public int depth() { return q.remainingCapacity(); }
}
JAVA
cat > "$W/src/demo/Main.java" <<'JAVA'
package demo;
public final class Main {
  public static void main(String[] a) {
    Store s = new Store(); s.put(1, new byte[1024]);
    Feed f = new Feed(4); f.next();
    System.out.println(s.size() + " " + f.depth());
  }
}
JAVA
cat > "$W/src/EmptyAgent.java" <<'JAVA'
public final class EmptyAgent { public static void premain(String a, java.lang.instrument.Instrumentation i) {} }
JAVA
javac --release 17 -d "$W/classes" "$W"/src/demo/*.java
javac --release 17 -d "$W/empty-agent" "$W/src/EmptyAgent.java"
printf 'Premain-Class: EmptyAgent\n' > "$W/empty-agent.mf"
jar cfm "$W/empty-agent.jar" "$W/empty-agent.mf" -C "$W/empty-agent" .
cat > "$W/sites.properties" <<'PROPS'
site.store.kind = cache-admit
site.store.method = demo.Store#put(java.lang.Object,java.lang.Object)
site.store.value = 1
PROPS
cat > "$W/cuda.properties" <<'PROPS'
site.store.kind = cache-admit
site.store.method = demo.Store#put(java.lang.Object,java.lang.Object)
site.store.value = 1
site.feed.kind = prefetch-depth
site.feed.method = demo.Feed#<init>
site.feed.depth = 0
site.feed.batch = demo.Feed#next
site.feed.device = cuda:0
PROPS
: > "$W/empty.properties"

CP="-cp $W/classes demo.Main"
NAMES=("no agent" "empty agent" "agent, mode=off" "agent, no sites" "agent, one woven class"
  "agent, cuda:0 depth site" "agent, bare flag")
CMDS=(
  "$JAVA $CP"
  "$JAVA -javaagent:$W/empty-agent.jar $CP"
  "$JAVA -javaagent:$JAR=mode=off $CP"
  "$JAVA -javaagent:$JAR=sites=$W/empty.properties $CP"
  "$JAVA -javaagent:$JAR=sites=$W/sites.properties $CP"
  "$JAVA -javaagent:$JAR=sites=$W/cuda.properties $CP"
  "$JAVA -javaagent:$JAR $CP"
)
if [ -n "$BEFORE" ]; then
  NAMES+=("before: one woven class" "before: cuda:0 depth site")
  CMDS+=("$JAVA -javaagent:$BEFORE=sites=$W/sites.properties $CP"
    "$JAVA -javaagent:$BEFORE=sites=$W/cuda.properties $CP")
fi
# shellcheck disable=SC2086
$JAVA -javaagent:"$JAR"=sites="$W/sites.properties",log=info $CP > "$W/check.log" 2>&1 || true
if ! grep -q "wove site 'store' into demo.Store" "$W/check.log"; then
  echo "startup.sh: the agent did not weave demo.Store; not measuring:" >&2
  cat "$W/check.log" >&2
  exit 1
fi
# shellcheck disable=SC2086
$JAVA -javaagent:"$JAR"=sites="$W/cuda.properties",log=info $CP > "$W/check-cuda.log" 2>&1 || true
if ! grep -q "wove site 'feed' into demo.Feed: prefetch depth" "$W/check-cuda.log"; then
  echo "startup.sh: the agent did not weave demo.Feed's depth; not measuring:" >&2
  cat "$W/check-cuda.log" >&2
  exit 1
fi
# The classes each JVM loads (one run each, -Xlog:class+load), and of them the generated lambda
# and method-handle classes.
for i in "${!CMDS[@]}"; do
  read -r -a words <<< "${CMDS[$i]}"
  "${words[0]}" -Xlog:class+load:file="$W/classes-$i.txt" "${words[@]:1}" > /dev/null 2>&1 || true
  echo "${NAMES[$i]}: $(wc -l < "$W/classes-$i.txt") classes loaded, $(grep -c 'Lambda\|LambdaForm\|\$\$' "$W/classes-$i.txt") of them lambda or method-handle classes"
done
"$JAVA" -version 2>&1 | head -1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
if [ "${HYPERFINE:-on}" != off ] && command -v hyperfine > /dev/null; then
  args=()
  for i in "${!CMDS[@]}"; do args+=(-n "${NAMES[$i]}" "${CMDS[$i]}"); done
  hyperfine -N --warmup 3 --runs "$RUNS" "${args[@]}"
else
  : > "$W/times.tsv"
  for ((r = 0; r < RUNS + 1; r++)); do   # round 0 warms the page cache and is not counted
    for i in "${!CMDS[@]}"; do
      s=$(date +%s%N); ${CMDS[$i]} > /dev/null 2>&1; e=$(date +%s%N)
      ((r > 0)) && printf '%d\t%d\n' "$i" $(((e - s) / 1000000)) >> "$W/times.tsv"
    done
  done
  for i in "${!CMDS[@]}"; do
    m=$(awk -F'\t' -v v="$i" '$1 == v {print $2}' "$W/times.tsv" | sort -n |
      awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
    echo "${NAMES[$i]}: median $m ms over $RUNS alternating rounds"
  done
fi
