#!/usr/bin/env bash
# vtimed.sh ARGS...: verilator ARGS, with its wall time added to build/results/time/<Mdir>.s
# (the make variable VERILATOR; scripts/run_tests.sh lists the slowest builds from these files).
set -u
mdir=""; prev=""
for a in "$@"; do [[ $prev == -Mdir ]] && mdir=$a; prev=$a; done
start=$(date +%s.%N)
"${VERILATOR_BIN:-verilator}" "$@"; rc=$?
if [[ -n $mdir ]]; then
  d=${MT_TIME_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build/results/time}
  mkdir -p "$d" && awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", e - s }' >>"$d/$(basename "$mdir").s"
fi
exit $rc
