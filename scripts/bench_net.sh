#!/usr/bin/env bash
# bench_net.sh BIN [REF_BIN]: speed of the C network model (`multitree sim`), docs/bench.md.
# Runs the measurement set (1 MiB MultiTree and ring on torus:8x8 with the paper
# configuration, 1 MiB MultiTree on torus:4x4 small) and then the issue's target, a 64 MiB
# MultiTree all-reduce on torus:8x8 with the paper configuration. Prints, per run, the
# simulated cycles, the wall time of the simulation (`--json` wall_s: network set-up, run and
# the check against the reference), the process's wall time, and simulated cycles per second.
# With REF_BIN (another build, e.g. of an older tree) the measurement set runs with both,
# back to back, and the ratio is printed; the 64 MiB run only with BIN.
# BENCH_NET_BIG=0 skips the 64 MiB run. Writes build/bench/net.txt.
set -u
BIN=${1:-build/multitree}; REF=${2:-}
BIG=${BENCH_NET_BIG:-1}
mkdir -p build/bench
out=build/bench/net.txt
tmp=build/bench/net.json
TIMEFORMAT='%R'

# run BIN ARGS...: prints "cycles wall_s process_s cycles_per_s"
run() {
  local bin=$1; shift
  rm -f "$tmp"
  local t
  t=$( { time "$bin" sim "$@" --json "$tmp" >build/bench/net.log 2>&1; } 2>&1 ) ||
    { echo "# FAILED: $bin sim $* (build/bench/net.log)" >&2; echo "0 0 0 0"; return; }
  local cyc wall
  cyc=$(sed -n 's/.*"cycles":\([0-9]*\).*/\1/p' "$tmp")
  wall=$(sed -n 's/.*"wall_s":\([0-9.]*\).*/\1/p' "$tmp")
  awk -v c="$cyc" -v w="$wall" -v t="$t" 'BEGIN { printf "%d %.2f %.2f %.0f\n", c, w, t, c / w }'
}

set_cases=(
  "torus:8x8 multitree 1M paper"
  "torus:8x8 ring 1M paper"
  "torus:4x4 multitree 1M small"
)
{
  echo "# bench-net $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# $BIN${REF:+ against $REF}"
  if [[ -n $REF ]]; then
    echo "| run (int32, message flow control, seed 0) | cycles | ref wall s | ref cycles/s | new wall s | new cycles/s | speed-up |"
    echo "|---|---|---|---|---|---|---|"
  else
    echo "| run (int32, message flow control, seed 0) | cycles | sim wall s | process wall s | cycles/s |"
    echo "|---|---|---|---|---|"
  fi
  for c in "${set_cases[@]}"; do
    read -r topo algo bytes cfg <<<"$c"
    args=(--topo "$topo" --algo "$algo" --bytes "$bytes" --config "$cfg")
    read -r cy w pw cps <<<"$(run "$BIN" "${args[@]}")"
    if [[ -n $REF ]]; then
      read -r rcy rw rpw rcps <<<"$(run "$REF" "${args[@]}")"
      [[ $rcy == "$cy" ]] || echo "# cycle counts differ: $rcy (ref) vs $cy"
      awk -v n="$topo $algo $bytes $cfg" -v c="$cy" -v rw="$rw" -v rc="$rcps" -v w="$w" -v cc="$cps" \
        'BEGIN { printf "| %s | %d | %.2f | %.0f | %.2f | %.0f | %.2f |\n", n, c, rw, rc, w, cc, cc / rc }'
    else
      echo "| $topo $algo $bytes $cfg | $cy | $w | $pw | $cps |"
    fi
  done
  if [[ $BIG != 0 ]]; then
    read -r cy w pw cps <<<"$(run "$BIN" --topo torus:8x8 --algo multitree --bytes 64M --config paper)"
    echo "64 MiB torus:8x8 multitree paper: $cy cycles, simulation $w s, process $pw s wall, $cps cycles/s"
  fi
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
