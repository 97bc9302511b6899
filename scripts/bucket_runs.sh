#!/bin/sh
# The bucket table of docs/reference/planner.md: `multitree sim --config paper` one run at a time, each
# run's JSON in $OUT (default build/bucket_runs), skipped when it exists (resumable).
# usage: scripts/bucket_runs.sh BIN [RUNS...]   a run is topo,algo,flow,size (default: the table's list)
set -eu
BIN=$1; shift
OUT=${OUT:-build/bucket_runs}
mkdir -p "$OUT"
if [ $# -eq 0 ]; then
  set --
  for sz in 32K 1M 8M 64M; do
    for t in torus:4x4 mesh:4x4 torus:4x8 torus:8x8 mesh:8x8; do
      set -- "$@" "$t,bucket,message,$sz" "$t,multitree,message,$sz"
    done
  done
  for sz in 32K 1M 8M 64M; do
    for t in torus:4x4 mesh:4x4 torus:4x8 torus:8x8 mesh:8x8; do
      set -- "$@" "$t,ring,packet,$sz" "$t,ring2d,packet,$sz"
    done
  done
fi
for r in "$@"; do
  IFS=, read -r topo algo flow sz <<E
$r
E
  j="$OUT/$(echo "$topo" | tr ':' '_')_${algo}_${flow}_$sz.json"
  [ -s "$j" ] && continue
  nice -n 10 "$BIN" sim --config paper --topo "$topo" --algo "$algo" --flow "$flow" --bytes "$sz" --data sample --seed 1 --json "$j.tmp" >"$j.log" 2>&1 \
    && mv "$j.tmp" "$j" || echo "FAILED $r (see $j.log)"
done
