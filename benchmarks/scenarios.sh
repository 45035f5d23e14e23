#!/usr/bin/env bash
# The four scenarios of issue #8 at full size, side by side, with and without the agent, on the
# custom-loader app (test-apps/loader-app, which knows nothing of the agent). Writes the figures,
# as ratios, with the machine and the commands, into docs/BENCHMARKS.md between the markers
# "<!-- BEGIN scenarios.sh -->" and "<!-- END scenarios.sh -->" (appended when missing; the rest of
# the file is left alone). The child-JVM tests (agent/src/test/java/.../scenario/*ScenarioIT) run
# the same scenarios small and assert behaviour; this script measures.
#
#   mvn -B -q -pl agent,test-apps/loader-app -am package -DskipTests
#   benchmarks/scenarios.sh [heap|views|rig|overhead ...]   (default: all four; ROUNDS=3 for overhead)
#
# Output of every run: benchmarks/target/scenarios/NAME.{out,err}. About 5 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."

AGENT=${AGENT:-agent/target/flodl-budget-agent.jar}
APP=$(ls test-apps/loader-app/target/flodl-budget-loader-app-*.jar 2>/dev/null | grep -v -e sources -e tests | head -n 1)
JAVA=${JAVA:-java}
OUT=benchmarks/target/scenarios
DOC=${DOC:-docs/BENCHMARKS.md}
ROUNDS=${ROUNDS:-3}
SITES=test-apps/loader-app/sites.properties
RIG_SITES=test-apps/loader-app/sites-rig.properties
SCENARIOS=("$@")
[[ ${#SCENARIOS[@]} -gt 0 ]] || SCENARIOS=(heap views rig overhead)
[[ -f $AGENT && -n $APP ]] || { echo "scenarios.sh: build first: mvn -B -q -pl agent,test-apps/loader-app -am package -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"

# The sections of the scenarios not run now come from the document as it stands (a fresh build
# folder has none of its own), so running one scenario again keeps the others' figures.
if grep -q '^<!-- BEGIN scenarios.sh' "$DOC" 2>/dev/null; then
  awk -v out="$OUT" '
    /^<!-- BEGIN scenarios.sh/ { in_block = 1; next }
    /^<!-- END scenarios.sh -->/ { in_block = 0; name = ""; next }
    in_block && /^### [1-4]\. / {
      split("heap views rig overhead", names, " ")
      name = names[substr($2, 1, 1) + 0]
      file = out "/section-" name ".md"
      if ((getline probe < file) > 0) { close(file); name = "" } else { close(file); printf "" > file }
    }
    in_block && name != "" { print >> (out "/section-" name ".md") }' "$DOC"
fi

# run NAME JVM-OPTIONS... -- APP-ARGS...: runs the app, output in $OUT/NAME.{out,err,rc,ms}.
run() {
  local name=$1; shift
  local jvm=()
  while [[ $1 != -- ]]; do jvm+=("$1"); shift; done
  shift
  echo "  $name: java ${jvm[*]} -jar loader-app.jar $*" >&2
  echo "java ${jvm[*]} -jar $APP $*" > "$OUT/$name.cmd"
  local t0 t1
  t0=$(date +%s%N)
  "$JAVA" "${jvm[@]}" -jar "$APP" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
  echo $? > "$OUT/$name.rc"
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 )) > "$OUT/$name.ms"
}
rc() { cat "$OUT/$1.rc"; }
wall() { cat "$OUT/$1.ms"; }
# field NAME KEY [EPOCH]: the value of KEY= on the epoch line (or on the first line that has it).
field() {
  local line
  if [[ $# -ge 3 ]]; then line=$(grep -m1 "^epoch=$3 " "$OUT/$1.out"); else line=$(grep -m1 -E "(^| )$2=" "$OUT/$1.out"); fi
  sed -E "s/.*(^| )$2=([^ ]*).*/\\2/" <<< "$line"
}
# sum_epochs NAME FROM TO: the sum of the epochs' millis.
sum_epochs() {
  awk -v a="$2" -v b="$3" '/^epoch=/ { split($1, e, "="); if (e[2] >= a && e[2] <= b) for (i = 1; i <= NF; i++) if ($i ~ /^millis=/) { split($i, m, "="); s += m[2] } } END { print s + 0 }' "$OUT/$1.out"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
mib() { awk -v a="$1" 'BEGIN { printf "%.0f", a / 1048576 }'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ok() { [[ $(rc "$1") == 0 ]] && grep -q "exactly_once=true epochs" "$OUT/$1.out"; }
status() { if ok "$1"; then echo "completes, exactly once"; elif grep -q OutOfMemoryError "$OUT/$1.err"; then echo "**OutOfMemoryError** (exit $(rc "$1"))"; else echo "fails (exit $(rc "$1"))"; fi; }

# Each scenario writes its own fragment ($OUT/section-NAME.md); the doc's section is every fragment
# there, so running one scenario again updates its part and keeps the others' last figures.
emit() { printf '%s\n' "$@" >> "$OUT/section-$CURRENT.md"; }

heap() {
  echo "== heap" >&2
  local args=(--sample-bytes=1M --samples=1024 --epochs=3 --batch-size=4 --depth=8 --compute-iters=100000)
  run heap-bare -Xmx256m -- "${args[@]}"
  run heap-uncached -Xmx256m -- "${args[@]}" --cache=false
  run heap-agent -Xmx256m "-javaagent:$AGENT=sites=$SITES" -- "${args[@]}"
  local hits size e2a e2u
  hits=$(field heap-agent cacheHits 2); size=$(field heap-agent cacheSize 1)
  e2a=$(sum_epochs heap-agent 2 3); e2u=$(sum_epochs heap-uncached 2 3)
  emit "### 1. Heap: an epoch four times the heap" "" \
    "1,024 samples of 1 MiB (1 GiB an epoch), \`-Xmx256m\`, 3 epochs, batches of 4, depth 8, the unbounded \`SampleCache\`." "" \
    "| run | outcome | epochs 2-3 ms | cached | epoch-2 hit rate |" "|---|---|---:|---:|---:|" \
    "| no agent | $(status heap-bare) after $(wall heap-bare) ms | - | - | - |" \
    "| no agent, \`--cache=false\` (reference) | $(status heap-uncached) | $e2u | 0 | 0 |" \
    "| agent (\`sites.properties\`) | $(status heap-agent) | $e2a ($(ratio "$e2a" "$e2u")x the uncached run) | $size samples, $(mib "$(field heap-agent cacheBytes 1)") MiB ($(ratio "$(field heap-agent cacheBytes 1)" 268435456)x the heap) | $hits / 1024 ($(awk -v h="$hits" 'BEGIN { printf "%.1f%%", 100 * h / 1024 }')) |" "" \
    "Checksums: agent \`$(field heap-agent checksum)\`, uncached \`$(field heap-uncached checksum)\` (equal: the same samples trained on)." ""
}

views() {
  echo "== views" >&2
  local args=(--sample-kind=slice --row-group-bytes=64M --sample-bytes=64K --samples=8192 --cache-every=100 --epochs=2 --batch-size=16 --depth=2 --report-memory=true --evict-at-end=false)
  local dargs=(--sample-kind=direct-slice --row-group-bytes=64M --sample-bytes=64K --samples=8192 --cache-every=100 --epochs=2 --batch-size=16 --depth=2 --report-memory=true --evict-at-end=false)
  run views-bare -Xmx1g -- "${args[@]}"
  run views-agent -Xmx1g "-javaagent:$AGENT=sites=$SITES" -- "${args[@]}"
  run views-direct-bare -Xmx256m -XX:MaxDirectMemorySize=1g -- "${dargs[@]}"
  run views-direct-agent -Xmx256m -XX:MaxDirectMemorySize=1g "-javaagent:$AGENT=sites=$SITES" -- "${dargs[@]}"
  local cb; cb=$(field views-agent cacheBytes 2)
  emit "### 2. Views: 1% of the samples, as slices of 64 MiB row groups" "" \
    "8,192 samples of 64 KiB in 8 row groups of 64 MiB (512 MiB), every 100th sample cached (82 samples, $(mib "$cb") MiB), 2 epochs; memory after a full GC at the end of epoch 2 (\`--report-memory\`: live heap, direct buffers, RSS from /proc/self/status)." "" \
    "| row groups | run | outcome | live heap MiB | direct MiB | RSS MiB |" "|---|---|---|---:|---:|---:|"
  local n
  for n in views-bare views-agent views-direct-bare views-direct-agent; do
    local kind="heap (\`slice\`, \`-Xmx1g\`)"; [[ $n == *direct* ]] && kind="direct (\`direct-slice\`, \`-Xmx256m\`)"
    local who="no agent"; [[ $n == *agent ]] && who="agent"
    emit "| $kind | $who | $(status "$n") | $(mib "$(field "$n" heapLive 2)") | $(mib "$(field "$n" directUsed 2)") | $(mib "$(field "$n" rss 2)") |"
  done
  emit "" \
    "- Heap slices: live heap without the agent / with it = **$(ratio "$(field views-bare heapLive 2)" "$(field views-agent heapLive 2)")x**; RSS $(ratio "$(field views-bare rss 2)" "$(field views-agent rss 2)")x. With the agent what stays live is the open row group (64 MiB, the app's own) plus the materialized copies." \
    "- Direct slices: direct memory without / with = **$(ratio "$(field views-direct-bare directUsed 2)" "$(field views-direct-agent directUsed 2)")x**, RSS $(ratio "$(field views-direct-bare rss 2)" "$(field views-direct-agent rss 2)")x (a direct row group is freed when its buffer is collected and its cleaner has run, which is why the app's report collects twice, 200 ms apart)." \
    "- Checksums equal with and without the agent: $( [[ $(field views-bare checksum) == "$(field views-agent checksum)" ]] && echo yes || echo NO)." ""
}

rig() {
  echo "== rig" >&2
  # One calibration of the step (about the read latency, 1 ms a batch), then the same work in every run.
  run rig-calibrate -- --samples=16 --batch-size=16 --epochs=1 --compute-us=1000 --cache=false
  local iters; iters=$(field rig-calibrate computeItersPerBatch)
  local args=(--sample-bytes=1K --batch-size=16 --samples=32768 --epochs=3 --depth=8 --latency-us=1000 "--compute-iters=$iters" --cache=false)
  local r
  for ((r = 1; r <= ROUNDS; r++)); do
    run rig-floor-$r "-javaagent:$AGENT=sites=$RIG_SITES,vram_probe=fixed:5592M/6360465408" -- "${args[@]}"
    run rig-sync-$r "-javaagent:$AGENT=sites=$RIG_SITES,vram_probe=fixed:6358368256/6360465408" -- "${args[@]}"
    run rig-bare-$r -- "${args[@]}"
    run rig-bare-sync-$r -- "${args[@]/--depth=8/--depth=0}"
  done
  med() { for ((r = 1; r <= ROUNDS; r++)); do printf '%s ' "$(sum_epochs "$1-$r" 2 3)"; done | median; }
  local f s b bs
  f=$(med rig-floor); s=$(med rig-sync); b=$(med rig-bare); bs=$(med rig-bare-sync)
  emit "### 3. The seed's rig: the double-buffer floor" "" \
    "\`sites-rig.properties\` (the loader feeds \`cuda:0\`, 16 KiB batches), 32,768 samples of 1 KiB = 2,048 batches of 16 an epoch, 3 epochs, read latency 1 ms a batch, a step of $iters iterations (calibrated to about 1 ms), requested depth 8; $ROUNDS rounds of the four runs alternating, median of epochs 2-3 (epoch 1 also pays for the JIT and, with the agent, its start-up)." "" \
    "| run | VRAM probe | depth | reason | epochs 2-3 ms | vs. the floor |" "|---|---|---:|---|---:|---:|" \
    "| agent | \`fixed:5592M/6360465408\` (the seed's numbers: over the 0.90 cap) | $(field rig-floor-1 depth 2) | DOUBLE_BUFFER_FLOOR | $f | 1.00x |" \
    "| agent | \`fixed:6358368256/6360465408\` (2 MiB free: under 256 batches) | $(field rig-sync-1 depth 2) | SYNC_FALLBACK | $s | $(ratio "$s" "$f")x |" \
    "| no agent | - | $(field rig-bare-1 depth 2) | (requested) | $b | $(ratio "$b" "$f")x |" \
    "| no agent, \`--depth=0\` | - | 0 | (synchronous) | $bs | $(ratio "$bs" "$f")x |" "" \
    "The synchronous path spends $(awk -v s="$s" -v f="$f" 'BEGIN { printf "%.0f%%", 100 * (s - f) / s }') of its wall time waiting for reads the floor overlaps with the step (the seed measured 45% of delivered wall on its rig). Checksums equal across the runs: $( [[ $(field rig-floor-1 checksum) == "$(field rig-sync-1 checksum)" && $(field rig-sync-1 checksum) == "$(field rig-bare-1 checksum)" ]] && echo yes || echo NO)." ""
}

overhead() {
  echo "== overhead" >&2
  local args=(--sample-bytes=16K --samples=8192 --epochs=5 --batch-size=16 --depth=4 --compute-iters=400000)
  local names=(bare off observe enforce)
  local r n
  for ((r = 1; r <= ROUNDS; r++)); do
    run overhead-bare-$r -Xmx1g -- "${args[@]}"
    for n in off observe enforce; do
      run overhead-$n-$r -Xmx1g "-javaagent:$AGENT=sites=$SITES,mode=$n" -- "${args[@]}"
    done
  done
  emit "### 4. Overhead: a budget that never binds" "" \
    "8,192 samples of 16 KiB (128 MiB, all cached), \`-Xmx1g\`, 5 epochs of 512 batches, depth 4, a step of 400,000 iterations; $ROUNDS rounds, the four runs alternating within each round. Median of the rounds; epochs 2-5 are the steady state, epoch 1 also holds the agent's start-up and the first weave." "" \
    "| run | epochs 2-5 ms (median) | vs. no agent | epochs 1-5 ms (median) | vs. no agent | every round, epochs 2-5 ms |" "|---|---:|---:|---:|---:|---|"
  local base2 base all
  base2=$(for ((r = 1; r <= ROUNDS; r++)); do printf '%s ' "$(sum_epochs overhead-bare-$r 2 5)"; done | median)
  base=$(for ((r = 1; r <= ROUNDS; r++)); do printf '%s ' "$(sum_epochs overhead-bare-$r 1 5)"; done | median)
  for n in "${names[@]}"; do
    local m2 m each
    m2=$(for ((r = 1; r <= ROUNDS; r++)); do printf '%s ' "$(sum_epochs overhead-$n-$r 2 5)"; done | median)
    m=$(for ((r = 1; r <= ROUNDS; r++)); do printf '%s ' "$(sum_epochs overhead-$n-$r 1 5)"; done | median)
    each=$(for ((r = 1; r <= ROUNDS; r++)); do printf '%s ' "$(sum_epochs overhead-$n-$r 2 5)"; done)
    local label="no agent"; [[ $n != bare ]] && label="agent, \`mode=$n\`"
    emit "| $label | $m2 | $(ratio "$m2" "$base2")x | $m | $(ratio "$m" "$base")x | $each|"
  done
  local bad=0
  for ((r = 1; r <= ROUNDS; r++)); do for n in "${names[@]}"; do ok overhead-$n-$r || bad=1; [[ $(field overhead-$n-$r checksum) == "$(field overhead-bare-1 checksum)" ]] || bad=1; done; done
  emit "" "Every run completed exactly once with the same checksum and model: $( [[ $bad == 0 ]] && echo yes || echo NO)." ""
}

for s in "${SCENARIOS[@]}"; do
  CURRENT=$s
  : > "$OUT/section-$s.md"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  started=$(date -u '+%Y-%m-%d %H:%M UTC')
  "$s"
  emit "($started, \`benchmarks/scenarios.sh ${SCENARIOS[*]}\`, load average $load before, $(cut -d' ' -f1-3 /proc/loadavg) after.)" ""
done
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
JV=$("$JAVA" -version 2>&1 | head -n 1)
{
  echo "<!-- BEGIN scenarios.sh (generated by benchmarks/scenarios.sh $(date -u +%Y-%m-%d); edit the script, not this section) -->"
  echo "## Scenarios: the custom-loader app with and without the agent"
  echo
  echo "\`benchmarks/scenarios.sh\` (after \`mvn -B -q -pl agent,test-apps/loader-app -am package -DskipTests\`; a scenario's name as argument runs that one again),"
  echo "$(nproc) cores ($CPU), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $JV, shared with other builds (each scenario gives its load average): read the ratios, not the milliseconds."
  echo "Each run's exact command and output: \`benchmarks/target/scenarios/NAME.{cmd,out,err}\`. The same scenarios run small, asserting behaviour, as \`*ScenarioIT\` in the agent's integration tests."
  echo
  for s in heap views rig overhead; do
    [[ -f $OUT/section-$s.md ]] && cat "$OUT/section-$s.md"
  done
  echo "<!-- END scenarios.sh -->"
} > "$OUT/generated.md"

if grep -q '^<!-- BEGIN scenarios.sh' "$DOC" 2>/dev/null; then
  awk -v gen="$OUT/generated.md" '
    /^<!-- BEGIN scenarios.sh/ { while ((getline line < gen) > 0) print line; skip = 1; next }
    /^<!-- END scenarios.sh -->/ { skip = 0; next }
    !skip { print }' "$DOC" > "$OUT/doc.md" && cp "$OUT/doc.md" "$DOC"
else
  { echo; cat "$OUT/generated.md"; } >> "$DOC"
fi
cat "$OUT/generated.md"
echo "scenarios.sh: wrote its section of $DOC" >&2
