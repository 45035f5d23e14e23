#!/usr/bin/env bash
# The agent's heap per held value and what releasing them by collection costs (issue #19):
# HeldFootprint N without and with the agent, for each N, in two modes: full (System.gc(), a full
# collection, finds the dropped values) and concurrent (the same under
# -XX:+ExplicitGCInvokesConcurrent: G1's concurrent cycle, the one it starts by itself when the
# old generation fills, finds them). Each run logs its collections (-Xlog:gc); the longest pause
# after the values were dropped is read from the log (every pause G1 makes: young, remark,
# cleanup, full).
#
#   mvn -B -q -pl agent,benchmarks -am install -DskipTests
#   benchmarks/held.sh [N ...]            (default 10000 1000000 10000000; about 3 minutes)
#
# A third run of each, without the agent, is the floor of any identity table that hears of
# collections: the program takes each value's identity hash and keeps a weak reference with a
# reference queue per value itself.
# Prints per N and mode: heap held without and with the agent, the agent's bytes per held value
# and the floor's (read in the full mode, whose heap is compacted), how long the release took,
# and the longest pause after the drop: without the agent, with it, and the floor's.
# Output of every run: benchmarks/target/held/NAME.{out,gc}.
set -uo pipefail
cd "$(dirname "$0")/.."
AGENT=agent/target/flodl-budget-agent.jar
JAR=benchmarks/target/benchmarks.jar
OUT=benchmarks/target/held
[[ -f $AGENT && -f $JAR ]] || {
  echo "held.sh: build first: mvn -B -q -pl agent,benchmarks -am install -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"
NS=("$@"); [[ ${#NS[@]} -gt 0 ]] || NS=(10000 1000000 10000000)
cat > "$OUT/held.properties" <<'SITES'
site.bench.kind = cache-admit
site.bench.method = org.flodl.budget.benchmarks.BenchSampleCache#put(java.lang.Object,java.lang.Object)
site.bench.value = 1
site.bench.release = org.flodl.budget.benchmarks.BenchSampleCache#evict
SITES

run() { # NAME N MODE with|without|weak
  local name=$1 n=$2 mode=$3 opts=(-Xmx6g "-Xlog:gc:file=$OUT/$1.gc") extra=()
  [[ $mode == concurrent ]] && opts+=(-XX:+ExplicitGCInvokesConcurrent)
  [[ $4 == with ]] && opts+=("-javaagent:$AGENT=sites=$OUT/held.properties,heap_max_usage=1")
  [[ $4 == weak ]] && extra=(weak)
  java "${opts[@]}" -cp "$JAR" org.flodl.budget.benchmarks.HeldFootprint "$n" "${extra[@]}" \
    > "$OUT/$name.out" 2>&1
}
val() { sed -n "s/^$2=//p" "$OUT/$1.out" | tail -n 1; }
# The longest pause (ms) the log shows after DROPPED_AT_MS.
maxpause() {
  local at; at=$(val "$1" DROPPED_AT_MS)
  awk -v at="${at:-0}" '
    /Pause/ {
      t = $1; gsub(/^\[|s\].*$/, "", t)
      ms = $NF; sub(/ms$/, "", ms)
      if (t * 1000 >= at && ms + 0 > m) { m = ms + 0; what = $0; sub(/^.*Pause /, "", what); sub(/ [0-9]+M->.*$/, "", what) }
    }
    END { printf "%.1f (%s)", m, what }' "$OUT/$1.gc"
}

echo "# main at $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| N | mode | heap held, no agent | with the agent | agent bytes / value | floor bytes / value | released in | longest pause after the drop: no agent | with the agent | floor |\n'
printf '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for n in "${NS[@]}"; do
  for mode in full concurrent; do
    run "none-$n-$mode" "$n" "$mode" without
    run "agent-$n-$mode" "$n" "$mode" with
    run "floor-$n-$mode" "$n" "$mode" weak
    f0=$(val "none-$n-$mode" HEAP_FILLED); f1=$(val "agent-$n-$mode" HEAP_FILLED)
    f2=$(val "floor-$n-$mode" HEAP_FILLED)
    per=$(awk -v a="$f1" -v b="$f0" -v n="$n" 'BEGIN { printf "%.1f", (a - b) / n }')
    floor=$(awk -v a="$f2" -v b="$f0" -v n="$n" 'BEGIN { printf "%.1f", (a - b) / n }')
    if [[ $mode == concurrent ]]; then per="(full)"; floor="(full)"; fi # no compacted heap to read
    printf '| %s | %s | %.1f MB | %.1f MB | %s | %s | %s ms | %s ms | %s ms | %s ms |\n' "$n" \
      "$mode" "$(awk -v x="$f0" 'BEGIN { print x / 1e6 }')" \
      "$(awk -v x="$f1" 'BEGIN { print x / 1e6 }')" "$per" "$floor" \
      "$(val "agent-$n-$mode" RELEASED_MS)" "$(maxpause "none-$n-$mode")" \
      "$(maxpause "agent-$n-$mode")" "$(maxpause "floor-$n-$mode")"
  done
done
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
