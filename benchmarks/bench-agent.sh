#!/usr/bin/env bash
# Epoch time of a training app (TrainDjl by default; APP=dl4j: TrainDl4j) with and without the agent, side by side: ROUNDS rounds, each running a bare
# JVM and an agent JVM at the same time (the one started first alternates), so both see the same load
# on a shared machine; EPOCHS epochs each, the first (engine warm-up) left out. Prints each run's median
# wall and process-CPU milliseconds per epoch, then the medians over rounds and the ratios agent / bare.
# SKIP=N (environment, default 1) leaves out the first N epochs of each run (warm-up, JIT).
# BASE_ARGS=ARGS (environment) runs the "bare" side with the agent too, with ARGS (e.g. djl=off), to
# isolate what AGENT_ARGS adds.
# SEQUENTIAL=1 (environment) runs the two JVMs of a round one after the other (the one first
# alternating) instead of at the same time: on a quiet machine with few cores, two training JVMs at
# once mostly measure which one the scheduler favoured.
# JVM_ARGS=ARGS (environment) goes to both JVMs (e.g. -Xmx1g).
# Usage (from the repository root, after `mvn -B -q -pl agent,test-apps/djl-app -am package -DskipTests`,
# or test-apps/dl4j-app for APP=dl4j):
#   benchmarks/bench-agent.sh [ROUNDS] [EPOCHS] [AGENT_ARGS] [-- app options]
set -euo pipefail
ROUNDS=${1:-5}; EPOCHS=${2:-6}; AGENT_ARGS=${3:-mode=enforce}
shift $(( $# < 3 ? $# : 3 )); [ "${1:-}" = "--" ] && shift
case "${APP:-djl}" in
  djl) A=test-apps/djl-app/target; MAIN=com.acme.djl.TrainDjl ;;
  dl4j) A=test-apps/dl4j-app/target; MAIN=com.acme.dl4j.TrainDl4j ;;
  *) echo "bench-agent.sh: APP is djl or dl4j" >&2; exit 2 ;;
esac
CP="$A/classes:$(cat $A/classpath.txt)"
AGENT=agent/target/flodl-budget-agent.jar
OUT=$(mktemp -d)
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
SKIP=${SKIP:-1}
field() { grep '^epoch=' "$1" | awk -v k="$2=" -v skip="$SKIP" 'NR>skip {for (i=1;i<=NF;i++) if (index($i,k)==1) print substr($i,length(k)+1)}' | median; }
start() { # $1: bare|agent, $2: output file, then TrainDjl options
  local mode=$1 out=$2; shift 2
  local opts=()
  [ "$mode" = agent ] && opts=("-javaagent:$AGENT=$AGENT_ARGS")
  [ "$mode" = bare ] && [ -n "${BASE_ARGS:-}" ] && opts=("-javaagent:$AGENT=$BASE_ARGS")
  java ${JVM_ARGS:-} "${opts[@]}" -cp "$CP" "$MAIN" --epochs="$EPOCHS" "$@" >"$out" 2>/dev/null &
}
bw=(); aw=(); bc=(); ac=(); rw=(); rc=()
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a/b}'; }
for i in $(seq 1 "$ROUNDS"); do
  if [ "${SEQUENTIAL:-0}" = 1 ]; then
    if (( i % 2 )); then start bare "$OUT/b$i" "$@"; wait; start agent "$OUT/a$i" "$@"; wait;
    else start agent "$OUT/a$i" "$@"; wait; start bare "$OUT/b$i" "$@"; wait; fi
  else
    if (( i % 2 )); then start bare "$OUT/b$i" "$@"; start agent "$OUT/a$i" "$@";
    else start agent "$OUT/a$i" "$@"; start bare "$OUT/b$i" "$@"; fi
    wait
  fi
  bw+=("$(field "$OUT/b$i" millis)"); aw+=("$(field "$OUT/a$i" millis)")
  bc+=("$(field "$OUT/b$i" cpu_millis)"); ac+=("$(field "$OUT/a$i" cpu_millis)")
  rw+=("$(ratio "${aw[-1]}" "${bw[-1]}")"); rc+=("$(ratio "${ac[-1]}" "${bc[-1]}")")
  echo "round $i: wall bare ${bw[-1]} agent ${aw[-1]} ms/epoch (${rw[-1]}); cpu bare ${bc[-1]} agent ${ac[-1]} ms/epoch (${rc[-1]})"
done
mbw=$(printf '%s\n' "${bw[@]}" | median); maw=$(printf '%s\n' "${aw[@]}" | median)
mbc=$(printf '%s\n' "${bc[@]}" | median); mac=$(printf '%s\n' "${ac[@]}" | median)
echo "median over rounds: wall bare ${mbw} agent ${maw} ms/epoch (ratio $(ratio "$maw" "$mbw")); cpu bare ${mbc} agent ${mac} ms/epoch (ratio $(ratio "$mac" "$mbc"))"
echo "median of the per-round ratios agent/bare: wall $(printf '%s\n' "${rw[@]}" | median), cpu $(printf '%s\n' "${rc[@]}" | median)"
rm -rf "$OUT"
