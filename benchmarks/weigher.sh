#!/usr/bin/env bash
# The agent against what a user would pick instead (issue #19): a Caffeine cache bounded with
# maximumWeight and a byte weigher, at the agent's own byte budget, side by side with an unbounded
# Caffeine cache under presets=caffeine, on the custom-loader app's globally shuffled epochs
# (test-apps/loader-app, which knows nothing of the agent; --cache-impl=caffeine). Two datasets:
#   owned   4,096 samples of 64 KiB (byte[] of their own), 256 MiB an epoch, globally shuffled,
#           at -Xmx256m
#   sliced  8,192 samples of 64 KiB as slices of 8 MiB heap row groups, every 16th cached (the
#           "hot set": 32 MiB of samples), 512 MiB an epoch, row groups shuffled and then the
#           samples within each (each row group read once an epoch, so the hot set pins all 64 of
#           them), at -Xmx1g (HEAP=...); SHUFFLE=global reads a row group anew for every sample,
#           and each cached slice then pins a row group of its own
# Each dataset runs: the agent with a recording (budget B: its last heap RamBudget), the agent
# without one (the run measured: a recording's buffers would count in its RSS and its puts), the
# weigher at maximumWeight=B, then (owned) the unbounded cache without the agent. Every run reports
# memory after a full GC at each epoch's end (--report-memory=true) and its peak RSS.
#
#   mvn -B -q -pl agent,test-apps/loader-app -am install -DskipTests
#   benchmarks/weigher.sh [owned|sliced ...]          (about 2 minutes on 2 cores)
#
# Prints one table a dataset: per run, the hit rate of each epoch, the mean put (SampleCache.put
# timed around Caffeine's put, which is where the preset's gate runs: epoch 1, then epochs 2-4),
# the entries at the end, live heap after GC at the last epoch, and peak RSS. Output of every run: benchmarks/target/weigher/NAME.{out,err}.
set -uo pipefail
cd "$(dirname "$0")/.."
AGENT=agent/target/flodl-budget-agent.jar
APP=$(ls test-apps/loader-app/target/flodl-budget-loader-app-*.jar 2>/dev/null | grep -v -e sources -e tests | head -n 1)
CAFFEINE=$(ls ~/.m2/repository/com/github/ben-manes/caffeine/caffeine/3.3.1/caffeine-3.3.1.jar 2>/dev/null)
OUT=benchmarks/target/weigher
[[ -f $AGENT && -n $APP && -n $CAFFEINE ]] || {
  echo "weigher.sh: build first: mvn -B -q -pl agent,test-apps/loader-app -am install -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"
SETS=("$@"); [[ ${#SETS[@]} -gt 0 ]] || SETS=(owned sliced)

run() { # NAME HEAP AGENT_ARGS|- APP_ARGS...
  local name=$1 heap=$2 agent=$3; shift 3
  local opts=("-Xmx$heap")
  [[ $agent != - ]] && opts+=("-javaagent:$AGENT=$agent")
  echo "java ${opts[*]} -cp loader-app.jar:caffeine.jar com.acme.train.TrainMain $*" > "$OUT/$name.cmd"
  java "${opts[@]}" -cp "$APP:$CAFFEINE" com.acme.train.TrainMain "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
  echo $? > "$OUT/$name.rc"
}
# The heap budget of the agent's run: its last RamBudget event of tier heap, in bytes.
budget() {
  jfr print --json --events flodl.budget.RamBudget "$OUT/$1.jfr" \
    | python3 -c 'import json,sys; e=[x for x in json.load(sys.stdin)["recording"]["events"] if x["values"]["tier"]=="heap"]; print(e[-1]["values"]["budgetBytes"])'
}
row() { # NAME SAMPLES
  local name=$1 samples=$2
  if [[ $(cat "$OUT/$name.rc") != 0 ]]; then
    printf '| %s | exit %s: %s | | | | | |\n' "$name" "$(cat "$OUT/$name.rc")" \
      "$(grep -m1 -o 'OutOfMemoryError[^"]*' "$OUT/$name.err" "$OUT/$name.out" | head -1 | cut -d: -f2- | cut -c1-60)"
    return
  fi
  awk -v name="$name" -v n="$samples" '
    /^epoch=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                hits = hits sprintf("%s%.1f %%", (e++ ? " / " : ""), 100 * v["cacheHits"] / n)
                if (e == 1) { puts1 = v["puts"]; nanos1 = v["putNanos"] }
                else { puts += v["puts"]; nanos += v["putNanos"] }
                size = v["cacheSize"]
                live = v["heapLive"] }
    /peakRss=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "peakRss") rss = kv[2] } }
    END { printf "| %s | %s | %s | %s | %d | %.0f MiB | %.0f MiB |\n", name, hits,
            (puts1 ? sprintf("%.0f ns", nanos1 / puts1) : "-"),
            (puts ? sprintf("%.0f ns (%d)", nanos / puts, puts) : "none"), size, live / 1048576,
            rss / 1048576 }' "$OUT/$name.out"
}

for set in "${SETS[@]}"; do
  case $set in
    owned) heap=256m; samples=4096
      args=(--samples=4096 --sample-bytes=64K --row-group-bytes=1M) ;;
    sliced) heap=${HEAP:-1g}; samples=8192
      args=(--samples=8192 --sample-bytes=64K --row-group-bytes=8M --sample-kind=slice --cache-every=16
        --shuffle="${SHUFFLE:-true}") ;;
    *) echo "weigher.sh: owned or sliced, not $set" >&2; exit 2 ;;
  esac
  [[ $set == owned ]] && args+=(--shuffle=global)
  args+=(--epochs=4 --cache-impl=caffeine --batch-size=16 --depth=4 --report-memory=true)
  echo "== $set (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  run "$set-budget" "$heap" "presets=caffeine,record=$OUT/$set-budget.jfr" "${args[@]}"
  b=$(budget "$set-budget")
  run "$set-agent" "$heap" "presets=caffeine" "${args[@]}"
  run "$set-weigher" "$heap" - "${args[@]}" --cache-weight="$b"
  [[ $set == owned ]] && run "$set-bare" "$heap" - "${args[@]}"
  echo
  echo "**$set**, -Xmx$heap, the agent's heap budget B = $(( b / 1048576 )) MiB ($b bytes; the recorded run's last), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| run | hits, epochs 1 / 2 / 3 / 4 | mean put, epoch 1 | mean put, epochs 2-4 (puts) | entries | live heap after GC, epoch 4 | peak RSS |"
  echo "|---|---|---|---|---|---|---|"
  row "$set-agent" "$samples"
  row "$set-weigher" "$samples"
  [[ $set == owned ]] && row "$set-bare" "$samples"
done
