#!/usr/bin/env bash
# bench_planner.sh BIN [CASES]: time MultiTree planning (trees + schedule tables): tori, and
# switch networks (fat-trees, stars of one switch generated here); wall and CPU seconds and
# peak memory (/usr/bin/time), and the trees' own CPU seconds (the --progress summary; "-"
# for a build without it). CASES: "small" (default: what make bench runs, about half a
# minute of CPU) or "large" (adds the 4096-node cases: the star,
# torus:64x64, fattree:16,3 and fattree:2,12, 16M bytes for the fat-trees; several minutes
# and up to 5 GB). Writes build/bench/planner.txt.
set -u
BIN=${1:-build/multitree}
CASES=${2:-small}
mkdir -p build/bench
out=build/bench/planner.txt
star() { # star N: N end nodes on one switch
  local f=build/bench/star$1.topo
  [ -f "$f" ] || { echo "nodes $1"; echo "switches 1"; for ((i = 0; i < $1; i++)); do echo "link $i s0"; done; } >"$f"
  echo "file:$f"
}
topos=(torus:32x32 fattree:2,8 fattree:8,3 fattree:2,9 fattree:2,10 "$(star 1024)" "$(star 2048)")
[ "$CASES" = large ] && topos+=("$(star 4096)" torus:64x64 fattree:16,3 fattree:2,12)
{
  echo "# planner benchmark, $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), load average $(cut -d' ' -f1-3 /proc/loadavg), $BIN"
  echo "| topology | nodes | steps | planner's own time s | wall s | cpu s (user+sys) | trees cpu s | peak MB |"
  echo "|---|---|---|---|---|---|---|---|"
  for topo in "${topos[@]}"; do
    bytes=64M
    case $topo in fattree:16,3 | fattree:2,12) bytes=16M ;; esac
    /usr/bin/time -f '%e %U %S %M' -o build/bench/time.log "$BIN" plan --topo "$topo" --algo multitree --bytes $bytes --progress >build/bench/plan.log 2>build/bench/progress.log
    read -r wall usr sys kb <build/bench/time.log
    steps=$(sed -n 's/^steps: \([0-9]*\).*/\1/p' build/bench/plan.log)
    own=$(sed -n 's/^planned in \([0-9.]*\) s/\1/p' build/bench/plan.log)
    n=$(sed -n 's/.*: \([0-9]*\) nodes.*/\1/p' build/bench/plan.log)
    trees=$(sed -n 's/.*trees built in [0-9.]* s (\([0-9.]*\) s CPU).*/\1/p' build/bench/progress.log)
    awk -v t="${topo##*/}" -v n="$n" -v s="$steps" -v o="$own" -v w="$wall" -v u="$usr" -v y="$sys" -v k="$kb" -v c="${trees:--}" \
      'BEGIN { printf "| %s | %s | %s | %s | %s | %.2f | %s | %.0f |\n", t, n, s, o, w, u + y, c, k / 1024 }'
  done
} | tee "$out"
