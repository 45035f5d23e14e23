#!/usr/bin/env bash
# Issue 40's end-to-end figures: a loader with one virtual thread per sample (and its platform-pool
# variant), com.acme.it.VirtualLoaderApp from the agent's test classes, with and without the agent,
# side by side: each round runs every configuration once without and once with the agent (the
# order flipped every other round), and the script prints per configuration the median wall time
# of each and the median of the rounds' ratios, with the kept and declined counts the app printed.
# A call site on the app's ConcurrentHashMap put and remove (VirtualThreadsIT's sites file).
#
#   mvn -B -q -pl agent -am package -DskipTests      (the agent jar and its test classes)
#   benchmarks/vthreads.sh [CONFIG ...]               (default: all; ROUNDS=3)
#
# Configurations: vt200k (200,000 virtual threads x 5 epochs, 4 KiB, -Xmx3g), vt1m (1,000,000 x 3,
# 1 KiB, -Xmx4g), vt100k (100,000 x 5, 4 KiB, -Xmx3g), pool8 (8 platform threads, 200,000 x 5,
# 4 KiB, -Xmx3g), pool2 and pool1 (likewise on 2 and 1), tight (200,000 virtual threads x 3, 4 KiB,
# -Xmx1g: the cache fits the heap only without a budget). JAVA (default: the newest JDK 21+ under
# /usr/lib/jvm) runs them. Output of every run: benchmarks/target/vthreads/NAME.{out,err}.
# BEFORE=JAR runs another build's agent jar (named flodl-budget-agent.jar, as the manifest's boot
# class path needs) beside AGENT in each round: none, before, agent, the order reversed every other
# round; each gets its median and its ratio to the runs without the agent.
# FLOOR=1 also runs, without the agent, the app keeping a weak reference per sample itself (floor:
# found by the sample's index, the app's own order; floorid: by the sample's identity hash, the
# order an identity table has, as the agent's must; see VirtualLoaderApp.Floor), before the agent
# in each round: what one reference a value and its lookup cost, with nothing else an agent does.
# CPU=1 also reads each JVM's threads' CPU time from /proc while it runs (every 0.2 s, in a shell
# loop that takes a little CPU of its own; a thread's last 0.2 s can be missed) and prints, per
# configuration, the medians by group: the application's threads (main, the carriers or the pool),
# the collector's (GC workers, G1's concurrent, refinement and service threads, the VM thread), the
# compilers, the agent's own (flodl-budget-*), the rest.
set -uo pipefail
cd "$(dirname "$0")/.."

AGENT=${AGENT:-agent/target/flodl-budget-agent.jar}
BEFORE=${BEFORE:-}
KINDS=(none)
[[ ${FLOOR:-} == 1 ]] && KINDS+=(floor floorid)
[[ -n $BEFORE ]] && KINDS+=(before)
KINDS+=(agent)
CLASSES=agent/target/test-classes
ROUNDS=${ROUNDS:-3}
OUT=benchmarks/target/vthreads
if [[ -z ${JAVA:-} ]]; then
  JAVA=$(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null | while read -r j; do
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$(dirname "$(dirname "$j")")/release" 2>/dev/null)
    [[ -n $v && $v -ge 21 ]] && echo "$v $j"
  done | sort -n | tail -n 1 | cut -d' ' -f2)
fi
[[ -n ${JAVA:-} ]] || { echo "vthreads.sh: no JDK 21+ found; set JAVA" >&2; exit 2; }
[[ -f $AGENT && -f $CLASSES/com/acme/it/VirtualLoaderApp.class ]] \
  || { echo "vthreads.sh: build first: mvn -B -q -pl agent -am package -DskipTests" >&2; exit 2; }
[[ -z $BEFORE || -f $BEFORE ]] || { echo "vthreads.sh: no such jar: BEFORE=$BEFORE" >&2; exit 2; }
mkdir -p "$OUT"
cat > "$OUT/sites.properties" <<'EOF'
site.samples.kind = cache-admit
site.samples.in = com.acme.it.VirtualLoaderApp$SampleCache
site.samples.method = java.util.Map#put(java.lang.Object,java.lang.Object)
site.samples.value = 1
site.samples.release = java.util.Map#remove(java.lang.Object)
EOF

declare -A HEAP=([vt200k]=3g [vt1m]=4g [vt100k]=3g [pool8]=3g [pool2]=3g [pool1]=3g [tight]=1g)
declare -A ARGS=(
  [vt200k]="--threads=virtual --samples=200000 --epochs=5 --bytes=4096"
  [vt1m]="--threads=virtual --samples=1000000 --epochs=3 --bytes=1024"
  [vt100k]="--threads=virtual --samples=100000 --epochs=5 --bytes=4096"
  [pool8]="--threads=8 --samples=200000 --epochs=5 --bytes=4096"
  [pool2]="--threads=2 --samples=200000 --epochs=5 --bytes=4096"
  [pool1]="--threads=1 --samples=200000 --epochs=5 --bytes=4096"
  [tight]="--threads=virtual --samples=200000 --epochs=3 --bytes=4096"
)
CONFIGS=("$@")
[[ ${#CONFIGS[@]} -gt 0 ]] || CONFIGS=(vt200k vt1m vt100k pool8 pool2 pool1 tight)

# run NAME CONFIG KIND: one JVM, without the agent (none), with AGENT (agent) or with BEFORE
# (before); its wall milliseconds in $OUT/NAME.ms.
run() {
  local name=$1 config=$2 kind=$3
  local jvm=("-Xmx${HEAP[$config]}")
  [[ $kind == agent ]] && jvm+=("-javaagent:$AGENT=sites=$OUT/sites.properties")
  [[ $kind == before ]] && jvm+=("-javaagent:$BEFORE=sites=$OUT/sites.properties")
  local app=()
  [[ $kind == floor ]] && app=(--floor=true)
  [[ $kind == floorid ]] && app=(--floor=identity)
  local t0 t1
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  "$JAVA" "${jvm[@]}" -cp "$CLASSES" com.acme.it.VirtualLoaderApp ${ARGS[$config]} "${app[@]}" \
    > "$OUT/$name.out" 2> "$OUT/$name.err" &
  local pid=$!
  [[ ${CPU:-} == 1 ]] && threads_cpu "$pid" > "$OUT/$name.cpu"
  wait "$pid"
  echo $? > "$OUT/$name.rc"
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 )) > "$OUT/$name.ms"
}
# threads_cpu PID: while PID runs, each thread's last CPU ticks read from /proc; then the seconds
# by group, one "group seconds" line each.
threads_cpu() {
  local pid=$1 hz stat name rest key line f
  declare -A ticks=() names=()
  hz=$(getconf CLK_TCK)
  while [[ -d /proc/$pid/task ]]; do # gone once the shell has reaped it
    for stat in /proc/"$pid"/task/*/stat; do
      IFS= read -r line 2> /dev/null < "$stat" || continue
      name=${line#*(}; name=${name%)*}; rest=${line##*) }
      read -r -a f <<< "$rest"
      key=$stat:${f[19]} # a thread id may be used again: its start time tells the threads apart
      ticks[$key]=$(( f[11] + f[12] )); names[$key]=$name
    done
    sleep 0.2
  done
  for key in "${!ticks[@]}"; do
    case ${names[$key]} in
      "GC Thread"* | "G1 "* | "VM Thread") echo "gc ${ticks[$key]}" ;;
      C1\ Compiler* | C2\ Compiler*) echo "jit ${ticks[$key]}" ;;
      flodl-budget*) echo "agent ${ticks[$key]}" ;;
      java | ForkJoinPool* | pool-*) echo "app ${ticks[$key]}" ;;
      *) echo "other ${ticks[$key]}" ;;
    esac
  done | awk -v hz="$hz" '{t[$1] += $2} END {for (g in t) printf "%s %.2f\n", g, t[g] / hz}'
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
field() { grep -o "$2=[0-9-]*" "$OUT/$1.out" | head -n 1 | cut -d= -f2; }

echo "vthreads.sh: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs; $("$JAVA" -version 2>&1 | head -n 1)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for config in "${CONFIGS[@]}"; do
  for ((r = 1; r <= ROUNDS; r++)); do
    order=("${KINDS[@]}")
    (( r % 2 )) || order=($(printf '%s\n' "${KINDS[@]}" | tac))
    for k in "${order[@]}"; do run "$config-$k-$r" "$config" "$k"; done
  done
  line=$(printf '%-7s %s | none %6.0f ms' "$config" "${ARGS[$config]} -Xmx${HEAP[$config]}" \
    "$(for ((r = 1; r <= ROUNDS; r++)); do cat "$OUT/$config-none-$r.ms"; done | median)")
  for k in "${KINDS[@]:1}"; do
    ms=$(for ((r = 1; r <= ROUNDS; r++)); do cat "$OUT/$config-$k-$r.ms"; done | median)
    ratio=$(for ((r = 1; r <= ROUNDS; r++)); do
      awk -v a="$(cat "$OUT/$config-$k-$r.ms")" -v n="$(cat "$OUT/$config-none-$r.ms")" 'BEGIN {printf "%.3f\n", a / n}'
    done | median)
    line+=$(printf ' | %s %6.0f ms, ratio %.3f' "$k" "$ms" "$ratio")
  done
  fails=$(for ((r = 1; r <= ROUNDS; r++)); do for k in "${KINDS[@]}"; do
    [[ $(cat "$OUT/$config-$k-$r.rc") == 0 ]] || echo "$config-$k-$r"; done; done | tr '\n' ' ')
  printf '%s | puts %s kept %s (last agent run) %s\n' "$line" \
    "$(field "$config-agent-$ROUNDS" PUTS)" "$(field "$config-agent-$ROUNDS" KEPT)" \
    "${fails:+FAILED: $fails}"
  if [[ ${CPU:-} == 1 ]]; then
    for k in "${KINDS[@]}"; do
      line="        CPU s, $k:"
      for g in app gc jit agent other; do
        v=$(for ((r = 1; r <= ROUNDS; r++)); do
          awk -v g="$g" '$1 == g {print $2; f = 1} END {if (!f) print 0}' "$OUT/$config-$k-$r.cpu"
        done | median)
        line+=" $g $v"
      done
      echo "$line"
    done
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
