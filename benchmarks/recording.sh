#!/usr/bin/env bash
# What record= costs a cache at full rate (issue #26): the hammer (agent test app
# com.acme.it.HammerApp: THREADS threads putting and evicting 16 KiB values through one
# cache-admit site with a release, -Xmx256m) run side by side, round after round, without the
# agent, with the agent and no recording, and with the agent and record= at the defaults.
# Prints each round's puts a second and, per thread count, the median ratio of the recorded run to
# the unrecorded one, and the recordings' sizes.
#
#   mvn -B -q -pl agent -am install -DskipTests
#   benchmarks/recording.sh [SECONDS=20] [ROUNDS=3] [THREADS="1 2"]
#   LONG=600 benchmarks/recording.sh      (one recorded run of 600 s: its size and report's time)
#
# Output of every run: benchmarks/target/recording/.
set -uo pipefail
cd "$(dirname "$0")/.."
AGENT=agent/target/flodl-budget-agent.jar
CP=agent/target/test-classes
OUT=benchmarks/target/recording
SECONDS_EACH=${1:-20}
ROUNDS=${2:-3}
THREADS=${3:-"1 2"}
[[ -f $AGENT && -f $CP/com/acme/it/HammerApp.class ]] || {
  echo "recording.sh: build first: mvn -B -q -pl agent -am install -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"
cat > "$OUT/sites.properties" <<'SITES'
site.hammer.kind = cache-admit
site.hammer.method = com.acme.it.HammerStore#put(java.lang.Object,java.lang.Object)
site.hammer.value = 1
site.hammer.release = com.acme.it.HammerStore#evict
SITES
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"

hammer() { # NAME THREADS SECONDS JAVA_OPTS...
  local name=$1 threads=$2 secs=$3; shift 3
  rm -rf "$OUT/$name.jfr" "$OUT/$name.jfr.chunks"
  java -Xmx256m "$@" -cp "$CP" com.acme.it.HammerApp --seconds="$secs" --threads="$threads" \
    --window=4000 > "$OUT/$name.out" 2> "$OUT/$name.err"
  local puts; puts=$(grep -o '^PUTS=[0-9]*' "$OUT/$name.out" | cut -d= -f2)
  echo "${puts:-0}"
}

if [[ -n ${LONG:-} ]]; then
  name=long-$LONG
  puts=$(hammer "$name" 2 "$LONG" "-javaagent:$AGENT=sites=$OUT/sites.properties,record=$OUT/$name.jfr")
  size=$(stat -c %s "$OUT/$name.jfr")
  start=$(date +%s.%N)
  java -jar "$AGENT" report "$OUT/$name.jfr" > "$OUT/$name.report"
  end=$(date +%s.%N)
  printf '%s s, 2 threads: %s puts, recording %s bytes (%.1f MB an hour), report %.1f s\n' "$LONG" "$puts" \
    "$size" "$(echo "$size * 3600 / $LONG / 1000000" | bc -l)" "$(echo "$end - $start" | bc -l)"
  ls -la "$OUT" | grep "$name" 
  exit 0
fi

for t in $THREADS; do
  ratios=()
  for ((r = 1; r <= ROUNDS; r++)); do
    none=$(hammer "none-$t-$r" "$t" "$SECONDS_EACH")
    agent=$(hammer "agent-$t-$r" "$t" "$SECONDS_EACH" "-javaagent:$AGENT=sites=$OUT/sites.properties")
    rec=$(hammer "rec-$t-$r" "$t" "$SECONDS_EACH" \
      "-javaagent:$AGENT=sites=$OUT/sites.properties,record=$OUT/rec-$t-$r.jfr")
    size=$(stat -c %s "$OUT/rec-$t-$r.jfr" 2>/dev/null || echo 0)
    ratio=$(echo "$rec / $agent" | bc -l)
    ratios+=("$ratio")
    printf 'threads %s round %s: puts/s none %.0f, agent %.0f, agent+record %.0f (x%.3f of agent), recording %s bytes\n' \
      "$t" "$r" "$(echo "$none / $SECONDS_EACH" | bc -l)" "$(echo "$agent / $SECONDS_EACH" | bc -l)" \
      "$(echo "$rec / $SECONDS_EACH" | bc -l)" "$ratio" "$size"
  done
  median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf 'threads %s: median recorded/unrecorded %.3f over %s rounds of %s s\n' "$t" "$median" "$ROUNDS" "$SECONDS_EACH"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
