#!/usr/bin/env bash
# bench_planner.sh BIN: time MultiTree planning (trees + schedule tables) on 32x32 and
# 64x64 tori; wall and CPU seconds. Writes build/bench/planner.txt.
set -u
BIN=${1:-build/multitree}
mkdir -p build/bench
out=build/bench/planner.txt
TIMEFORMAT='%R %U %S'
{
  echo "# planner benchmark, $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| topology | nodes | steps | planner's own time s | wall s | cpu s (user+sys) |"
  echo "|---|---|---|---|---|---|"
  for topo in torus:32x32 torus:64x64; do
    { time "$BIN" plan --topo "$topo" --algo multitree --bytes 64M >build/bench/plan.log; } 2>build/bench/time.log
    read -r wall usr sys <build/bench/time.log
    steps=$(sed -n 's/^steps: \([0-9]*\).*/\1/p' build/bench/plan.log)
    own=$(sed -n 's/^planned in \([0-9.]*\) s/\1/p' build/bench/plan.log)
    n=$(sed -n 's/.*: \([0-9]*\) nodes.*/\1/p' build/bench/plan.log)
    awk -v t="$topo" -v n="$n" -v s="$steps" -v o="$own" -v w="$wall" -v u="$usr" -v y="$sys" \
      'BEGIN { printf "| %s | %s | %s | %s | %s | %.2f |\n", t, n, s, o, w, u + y }'
  done
} | tee "$out"
