#!/usr/bin/env bash
# bench_net.sh BIN [REF_BIN]: speed of the C network model (`multitree sim`), docs/results/bench.md.
# Runs the measurement set (1 MiB MultiTree and ring on torus:8x8 with the paper
# configuration, 1 MiB MultiTree on torus:4x4 small) and then the issue's target, a 64 MiB
# MultiTree all-reduce on torus:8x8 with the paper configuration. Prints, per run, the
# simulated cycles, the wall time of the simulation (`--json` wall_s: network set-up, run and
# the check against the reference), the process's wall time, and simulated cycles per second.
# With REF_BIN (another build, e.g. of an older tree) the measurement set runs with both,
# back to back, and the ratio is printed; the 64 MiB run only with BIN.
# Threads and data modes (issue #14): each run of the set again with --threads 2 (the ratio
# to one thread); the 64 MiB run with 1 and 2 threads at --data full and with 2 threads at
# --data none (wall time and peak memory, the JSON's peak_rss_bytes); the 256-node weak-scaling
# point of Fig. 10 (torus:16x16, 96 MiB) set up at --data none and sample (peak memory of a run
# cut after 2,000 cycles; --data full needs 24 GiB). BENCH_NET_BIG_REF=1: the 64 MiB run with
# REF_BIN too, at 1 and 2 threads.
# BENCH_NET_BIG=0 skips the 64 MiB and 256-node runs. Writes build/bench/net.txt.
set -u
BIN=${1:-build/multitree}; REF=${2:-}
BIG=${BENCH_NET_BIG:-1}
mkdir -p build/bench
out=build/bench/net.txt
tmp=build/bench/net.json
TIMEFORMAT='%R'

# run BIN ARGS...: prints "cycles wall_s process_s cycles_per_s peak_rss_MB"
run() {
  local bin=$1; shift
  rm -f "$tmp"
  local t
  t=$( { time "$bin" sim "$@" --json "$tmp" >build/bench/net.log 2>&1; } 2>&1 ) ||
    { echo "# FAILED: $bin sim $* (build/bench/net.log)" >&2; echo "0 0 0 0 0"; return; }
  local cyc wall rss
  cyc=$(sed -n 's/.*"cycles":\([0-9]*\).*/\1/p' "$tmp")
  wall=$(sed -n 's/.*"wall_s":\([0-9.]*\).*/\1/p' "$tmp")
  rss=$(sed -n 's/.*"peak_rss_bytes":\([0-9]*\).*/\1/p' "$tmp")
  awk -v c="$cyc" -v w="$wall" -v t="$t" -v r="${rss:-0}" 'BEGIN { printf "%d %.2f %.2f %.0f %.0f\n", c, w, t, c / w, r / 1e6 }'
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
    read -r cy w pw cps _ <<<"$(run "$BIN" "${args[@]}")"
    if [[ -n $REF ]]; then
      read -r rcy rw rpw rcps _ <<<"$(run "$REF" "${args[@]}")"
      [[ $rcy == "$cy" ]] || echo "# cycle counts differ: $rcy (ref) vs $cy"
      awk -v n="$topo $algo $bytes $cfg" -v c="$cy" -v rw="$rw" -v rc="$rcps" -v w="$w" -v cc="$cps" \
        'BEGIN { printf "| %s | %d | %.2f | %.0f | %.2f | %.0f | %.2f |\n", n, c, rw, rc, w, cc, cc / rc }'
    else
      echo "| $topo $algo $bytes $cfg | $cy | $w | $pw | $cps |"
    fi
  done
  echo
  echo "| run, --threads 2 | cycles | 1 thread: sim wall s | 2 threads: sim wall s | 2 threads cycles/s | speed-up |"
  echo "|---|---|---|---|---|---|"
  for c in "${set_cases[@]}"; do
    read -r topo algo bytes cfg <<<"$c"
    args=(--topo "$topo" --algo "$algo" --bytes "$bytes" --config "$cfg")
    read -r cy w _ _ _ <<<"$(run "$BIN" "${args[@]}")"
    read -r cy2 w2 _ cps2 _ <<<"$(run "$BIN" "${args[@]}" --threads 2)"
    [[ $cy2 == "$cy" ]] || echo "# cycle counts differ: $cy (1 thread) vs $cy2 (2 threads)"
    awk -v n="$topo $algo $bytes $cfg" -v c="$cy" -v w="$w" -v w2="$w2" -v cc="$cps2" \
      'BEGIN { printf "| %s | %d | %.2f | %.2f | %.0f | %.2f |\n", n, c, w, w2, cc, w / w2 }'
  done
  if [[ $BIG != 0 ]]; then
    big=(--topo torus:8x8 --algo multitree --bytes 64M --config paper)
    bigrun() { # label BIN ARGS...
      local l=$1 b=$2; shift 2
      read -r cy w pw cps rss <<<"$(run "$b" "${big[@]}" "$@")"
      echo "64 MiB torus:8x8 multitree paper, $l: $cy cycles, simulation $w s, process $pw s wall, $cps cycles/s, peak $rss MB"
    }
    if [[ -n $REF && ${BENCH_NET_BIG_REF:-0} == 1 ]]; then
      bigrun "REF_BIN, 1 thread, --data full" "$REF"
      bigrun "REF_BIN, 2 threads, --data full" "$REF" --threads 2
    fi
    bigrun "1 thread, --data full" "$BIN"
    bigrun "2 threads, --data full" "$BIN" --threads 2
    bigrun "2 threads, --data none" "$BIN" --threads 2 --data none
    for m in none sample; do
      /usr/bin/time -f "%M" -o build/bench/rss.txt "$BIN" sim --topo torus:16x16 --algo multitree --bytes 96M --config paper --data $m \
        --set max_cycles=2000 >/dev/null 2>&1
      echo "256 nodes (torus:16x16) x 96 MiB, --data $m: peak $(( $(tail -1 build/bench/rss.txt) / 1024 )) MiB (set-up and 2,000 cycles)"
    done
  fi
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
