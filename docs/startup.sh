#!/usr/bin/env bash
# Start-up cost of the agent: a small JVM that loads one class named in a sites file and calls the
# woven method once, with and without the agent. Needs the built jar (mvn -B -q -pl agent -am
# package -DskipTests) and hyperfine (apt-get install hyperfine), else falls back to a bash loop.
# Usage: docs/startup.sh [runs]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-15}
JAR=$PWD/agent/target/flodl-budget-agent.jar
[ -f "$JAR" ] || { echo "build the agent first: mvn -B -q -pl agent -am package -DskipTests" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/src/demo" "$W/classes"
cat > "$W/src/demo/Store.java" <<'JAVA'
package demo;
public final class Store {
  private final java.util.concurrent.ConcurrentHashMap<Object, Object> m = new java.util.concurrent.ConcurrentHashMap<>();
  public Object put(Object k, Object v) { return m.put(k, v); }
  public int size() { return m.size(); }
}
JAVA
cat > "$W/src/demo/Main.java" <<'JAVA'
package demo;
public final class Main {
  public static void main(String[] a) { Store s = new Store(); s.put(1, new byte[1024]); System.out.println(s.size()); }
}
JAVA
javac -d "$W/classes" "$W"/src/demo/*.java
cat > "$W/sites.properties" <<'PROPS'
site.store.kind = cache-admit
site.store.method = demo.Store#put(java.lang.Object,java.lang.Object)
site.store.value = 1
PROPS
: > "$W/empty.properties"
JAVA=${JAVA:-java}
CP="-cp $W/classes demo.Main"
declare -a NAMES=("no agent" "agent, mode=off" "agent, no sites" "agent, one woven class")
declare -a CMDS=(
  "$JAVA $CP"
  "$JAVA -javaagent:$JAR=mode=off $CP"
  "$JAVA -javaagent:$JAR=sites=$W/empty.properties $CP"
  "$JAVA -javaagent:$JAR=sites=$W/sites.properties $CP"
)
"$JAVA" -version 2>&1 | head -1
if command -v hyperfine > /dev/null; then
  args=()
  for i in "${!CMDS[@]}"; do args+=(-n "${NAMES[$i]}" "${CMDS[$i]}"); done
  hyperfine -N --warmup 3 --runs "$RUNS" "${args[@]}"
else
  for i in "${!CMDS[@]}"; do
    total=0
    for r in $(seq "$RUNS"); do
      s=$(date +%s%N); ${CMDS[$i]} > /dev/null; e=$(date +%s%N); total=$((total + e - s))
    done
    echo "${NAMES[$i]}: mean $((total / RUNS / 1000000)) ms over $RUNS runs"
  done
fi
