#!/usr/bin/env bash
# Start-up cost of the agent on a small JVM that loads one woven class: StartupMain creates a
# BenchSampleCache (named by a sites file), puts and evicts one sample, exits. Three variants run
# alternately, N rounds (so a burst of load from elsewhere hits all of them alike): no agent, the
# agent with mode=off (the jar loaded, nothing installed), the agent weaving the one class.
# Prints the median and mean wall time of each and the agent's cost over the bare JVM.
#
#   mvn -B -q -pl agent,benchmarks -am package -DskipTests
#   benchmarks/startup.sh [ROUNDS]        (default 15; run from anywhere)
#
# Writes benchmarks/target/startup.md (the table) for benchmarks/scenarios.sh and docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-15}
AGENT=${AGENT:-agent/target/flodl-budget-agent.jar}
JAR=benchmarks/target/benchmarks.jar
JAVA=${JAVA:-java}
OUT=benchmarks/target/startup
for f in "$AGENT" "$JAR"; do
  [[ -f $f ]] || { echo "startup.sh: no $f (mvn -B -q -pl agent,benchmarks -am package -DskipTests)" >&2; exit 2; }
done
mkdir -p "$OUT"
SITES=$OUT/sites.properties
cat > "$SITES" <<'SITES'
site.bench.kind = cache-admit
site.bench.method = org.flodl.budget.benchmarks.BenchSampleCache#put(java.lang.Object,java.lang.Object)
site.bench.value = 1
site.bench.release = org.flodl.budget.benchmarks.BenchSampleCache#evict
SITES

NAMES=("no agent" "agent, mode=off" "agent, one woven class")
ARGS=("" "-javaagent:$AGENT=mode=off" "-javaagent:$AGENT=sites=$SITES")
: > "$OUT/times.tsv"

run() { # $1 = variant index; prints wall milliseconds
  local t0 t1
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  "$JAVA" ${ARGS[$1]} -cp "$JAR" org.flodl.budget.benchmarks.StartupMain > "$OUT/last.out" 2> "$OUT/last.err"
  t1=$(date +%s%N)
  grep -q '^size=0$' "$OUT/last.out" || { echo "startup.sh: ${NAMES[$1]} failed:" >&2; cat "$OUT/last.err" >&2; exit 1; }
  echo $(( (t1 - t0) / 1000000 ))
}

# The woven run must really weave: one check with the agent's log at info.
"$JAVA" "-javaagent:$AGENT=sites=$SITES,log=info" -cp "$JAR" org.flodl.budget.benchmarks.StartupMain > "$OUT/check.out" 2> "$OUT/check.err" || true
for i in 0 1 2; do run $i > /dev/null; done   # warm the page cache
for ((r = 1; r <= ROUNDS; r++)); do
  for i in 0 1 2; do
    printf '%d\t%d\n' "$i" "$(run $i)" >> "$OUT/times.tsv"
  done
done

stats() { # $1 = variant index; prints "median mean min"
  awk -F'\t' -v v="$1" '$1 == v { print $2 }' "$OUT/times.tsv" | sort -n | awk '
    { a[NR] = $1; s += $1 }
    END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%d %d %d", m, s / NR, a[1] }'
}
read -r m0 a0 n0 <<< "$(stats 0)"
{
  echo "| JVM (\`StartupMain\`, $ROUNDS alternating rounds) | median ms | mean ms | min ms | median over no agent |"
  echo "|---|---:|---:|---:|---:|"
  for i in 0 1 2; do
    read -r m a n <<< "$(stats $i)"
    if [[ $i == 0 ]]; then d="-"; else d="+$((m - m0)) ms ($(awk -v a="$m" -v b="$m0" 'BEGIN { printf "%.2fx", a / b }'))"; fi
    echo "| ${NAMES[$i]} | $m | $a | $n | $d |"
  done
} > "$OUT/startup.md"
cat "$OUT/startup.md"
echo
echo "agent log of the woven run (log=info):"
sed 's/^/  /' "$OUT/check.err" | head -5
