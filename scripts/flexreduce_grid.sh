#!/usr/bin/env bash
# flexreduce_grid.sh BIN [OUT]: the FlexReduce paper's experiment grid (DAC 2020 Section V-A)
# at the flow level (docs/reference/flexreduce.md): 2 machines of 2-4 learners and 3 machines of 3-4,
# machines differing by at most one learner; ring (NCCL's allReduce), BlueConnect (on
# asymmetric machines the paper's BlueConnect falls back to the ring: the ring's time),
# FlexReduce and MultiTree; sizes 60 K to 120 M fp32 elements; then a sweep of the
# inter-machine bandwidth. Writes OUT (default build/flexreduce) /grid.md and /sweep.md.
set -eu
bin=${1:-build/multitree}
out=${2:-build/flexreduce}
mkdir -p "$out"
FAST=${FAST:-16:500}   # machine fabric: GB/s:ns (PCIe 3.0 x16 class)
SLOW=${SLOW:-1.25:5000} # between machines: 10 Gb Ethernet
CONFIGS=${CONFIGS:-"2+2 3+2 3+3 4+3 4+4 3+3+3 4+3+3 4+4+3 4+4+4"}
SIZES=${SIZES:-"60000 1200000 120000000"}
flow() { # topo algo bytes -> ns
  "$bin" sim --level flow --topo "$1" --algo "$2" --bytes "$3" 2>&1 | sed -n 's/^sim: flow level.*: \([0-9]*\) ns,.*/\1/p'
}
row() { # machines-spec elements -> a table row
  local m=$1 el=$2 bytes=$(($2 * 4)) topo="hier:$1@${FAST/:/:},@${SLOW}"
  topo="hier:$m@${FAST%%:*}:${FAST#*:},@${SLOW%%:*}:${SLOW#*:}"
  local N=$(($(tr '+' '\n' <<<"$m" | paste -sd+ | bc)))
  local ring fr mt blc line eq6 eqr calls
  ring=$(flow "$topo" ring $bytes)
  fr=$(flow "$topo" flexreduce $bytes)
  mt=$(flow "$topo" multitree $bytes)
  if blc=$(flow "$topo" blueconnect $bytes) && [[ -n $blc ]]; then :; else blc="($ring)"; fi
  line=$("$bin" plan --topo "$topo" --algo flexreduce --bytes $bytes | grep '^flexreduce:')
  calls=$(sed -n 's/.* \([0-9.]*\) per learner and level.*at most \([0-9]*\) (Eq. 12 bound \([0-9]*\)).*/\1 \/ \2 \/ \3/p' <<<"$line")
  eq6=$(sed -n 's/.*Eq. 6 predicts \([0-9]*\) ns.*/\1/p' <<<"$line")
  eqr=$(sed -n 's/.*) \([0-9]*\) ns (alpha.*/\1/p' <<<"$line")
  # the paper's "ideal": NCCL's measured time x the relative speedup Eq. 6 predicts
  awk -v m="$m" -v N=$N -v el=$el -v ring=$ring -v blc="$blc" -v fr=$fr -v mt=$mt -v eq6=$eq6 -v eqr=$eqr -v calls="$calls" 'BEGIN {
    ideal = ring * eq6 / eqr
    printf "| %s | %d | %s | %.3f | %s | %.3f | %.3f | %.1f %% | %.1f %% | %.1f %% | %s |\n", m, N, el, ring / 1e6, \
      (blc ~ /^\(/ ? "(ring)" : sprintf("%.3f", blc / 1e6)), fr / 1e6, mt / 1e6, 100 * (1 - fr / ring), 100 * eq6 / fr, 100 * ideal / fr, calls }'
}
{
  echo "| machines | learners | elements | ring ms | BlueConnect ms | FlexReduce ms | MultiTree ms | FR saving vs ring | Eq. 6 / FR | ideal / FR | FR calls avg / max / Eq. 12 |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for s in $SIZES; do for m in $CONFIGS; do row "$m" "$s"; done; done
} >"$out/grid.md"
# sensitivity: the inter-machine bandwidth from 1/32 to 1/1 of the machine fabric
{
  echo "| machines | elements | slow GB/s | fast/slow | ring ms | FlexReduce ms | MultiTree ms | FR saving vs ring | Eq. 6 / FR |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for m in 4+3 4+4+3; do
    for bw in 0.5 1.25 2.5 5 10 16; do
      SLOW="$bw:5000" row "$m" 12000000 | awk -F'|' -v bw=$bw -v f=${FAST%%:*} '{ printf "|%s|%s| %s | %.1f |%s|%s|%s|%s|%s|\n", $2, $4, bw, f / bw, $5, $7, $8, $9, $10 }'
    done
  done
} >"$out/sweep.md"
cat "$out/grid.md" "$out/sweep.md"
