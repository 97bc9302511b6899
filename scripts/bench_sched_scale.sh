#!/usr/bin/env bash
# bench_sched_scale.sh BIN [REF]: schedules at scale (issue #14 item 6, docs/results/bench.md): wall
# time and peak memory (/usr/bin/time) of writing the 1024-node MultiTree schedule
# (`plan --topo torus:32x32 --algo multitree --bytes 1M --json`) and of planning torus:64x64
# (4096 nodes, no JSON), for BIN and, when REF (a commit) is given, for REF's multitree built
# from `git archive REF` in build/planner_ref/<sha> (its own Makefile), one after the other in
# the same run; the two JSON files are compared byte for byte. Targets: write < 3 s, 64x64
# < 10 s and < 1 GB. Writes build/bench/sched_scale.txt. About a minute for a REF without
# the streaming writer (34 s to write, 38 s and 3.3 GB to plan 64x64), seconds for BIN.
set -u
BIN=${1:?usage: bench_sched_scale.sh BIN [REF]}
REF=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p build/bench
out=build/bench/sched_scale.txt
bins=("$BIN")
names=(this)
if [ -n "$REF" ]; then
  sha=$(git -C "$top" rev-parse "$REF^{commit}") || exit 1
  src=$top/build/planner_ref/$sha
  if [ ! -x "$src/build/multitree" ]; then
    rm -rf "$src" && mkdir -p "$src"
    git -C "$top" archive "$sha" | tar -x -C "$src"
    make -C "$src" -j2 build/multitree >"$src.build.log" 2>&1 || { tail -20 "$src.build.log"; exit 1; }
  fi
  bins=("$src/build/multitree" "$BIN")
  names=("$(git -C "$top" rev-parse --short "$sha")" this)
fi
# run NAME ARGS...: "wall_s peak_MB" of one command (its output to build/bench/scale.log)
run() {
  /usr/bin/time -f '%e %M' -o build/bench/scale_time.log "$@" >build/bench/scale.log 2>&1 || { echo "failed: $*" >&2; tail -3 build/bench/scale.log >&2; echo "- -"; return; }
  awk '{ printf "%.2f %.0f\n", $1, $2 / 1024 }' build/bench/scale_time.log
}
{
  echo "# schedules at scale, $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| build | write torus:32x32 --json: wall s | peak MB | file bytes | plan torus:64x64: wall s | peak MB |"
  echo "|---|---|---|---|---|---|"
  for i in "${!bins[@]}"; do
    read -r w1 m1 < <(run "${bins[$i]}" plan --topo torus:32x32 --algo multitree --bytes 1M --json "build/bench/sched_$i.json")
    sz=$(stat -c %s "build/bench/sched_$i.json" 2>/dev/null || echo -)
    read -r w2 m2 < <(run "${bins[$i]}" plan --topo torus:64x64 --algo multitree --bytes 1M)
    echo "| ${names[$i]} | $w1 | $m1 | $sz | $w2 | $m2 |"
  done
  if [ ${#bins[@]} -eq 2 ]; then
    if cmp -s build/bench/sched_0.json build/bench/sched_1.json; then echo "the two 1024-node schedules: byte-identical"; else echo "the two 1024-node schedules: DIFFERENT"; fi
  fi
  rm -f build/bench/sched_*.json
} | tee "$out"
