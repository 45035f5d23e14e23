#!/usr/bin/env bash
# Two builds of the agent side by side on TrainDjl (issue #19): ROUNDS rounds, each running the
# app under jar A and under jar B one after the other (the one first alternating), mode=enforce,
# 24 epochs; prints each round's median epoch (wall, the first 6 epochs left out) under A and B and
# their ratio B/A, then the median of the ratios and the means. With the same jar as A and B it is
# the method's own noise (its negative control).
#
#   mvn -B -q -pl agent,test-apps/djl-app -am package -DskipTests   (and build jar A elsewhere)
#   benchmarks/ab-agent-jars.sh JAR_A JAR_B [ROUNDS]                  (about 9 s a round)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: benchmarks/ab-agent-jars.sh JAR_A JAR_B [ROUNDS]" >&2; exit 2; }
JA=$1; JB=$2; ROUNDS=${3:-24}
D=test-apps/djl-app/target
CP="$D/classes:$(cat $D/classpath.txt)"
OUT=$(mktemp -d)
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
epoch() { grep '^epoch=' "$1" | awk 'NR>6 {for (i=1;i<=NF;i++) if (index($i,"millis=")==1) print substr($i,8)}' | median; }
run() { java "-javaagent:$1=mode=enforce" -cp "$CP" com.acme.djl.TrainDjl --epochs=24 --samples=8192 \
  > "$2" 2>/dev/null; }
echo "# A=$JA B=$JB, $(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$ROUNDS"); do
  if (( i % 2 )); then run "$JA" "$OUT/a"; run "$JB" "$OUT/b"; else run "$JB" "$OUT/b"; run "$JA" "$OUT/a"; fi
  a=$(epoch "$OUT/a"); b=$(epoch "$OUT/b")
  echo "round $i: A $a B $b ms/epoch ($(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b / a}'))"
done | tee "$OUT/rounds"
awk '{r = $NF; gsub(/[()]/, "", r); print r}' "$OUT/rounds" | median | xargs printf 'median of the per-round ratios B/A: %s\n'
awk '{a += $4; b += $6} END {printf "mean epoch: A %.1f B %.1f ms\n", a / NR, b / NR}' "$OUT/rounds"
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
