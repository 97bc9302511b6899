#!/usr/bin/env bash
# run_tests.sh STEP...: run test steps through one `make -k -jJOBS` (TEST_JOBS, default: the
# number of cores), each step writing build/results/STEP.result ("passed failed seconds",
# scripts/runbench.sh), then print the timing report (the slowest steps and Verilator builds)
# and the one closing line 'N passed, N failed'. A step that did not produce its result file (a
# build failure) counts as one failure. TEST_REPORT=0 leaves out the timing report.
set -u
top=$(cd "$(dirname "$0")/.." && pwd); cd "$top"
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p build/results/time build/logs
for step in "$@"; do rm -f "build/results/$step.result"; done
rm -f build/results/time/*.s
start=$(date +%s)
# what most steps share first (the libraries, the command-line tool), then the steps; -k: a
# step whose build fails does not stop the others; -O: each step's lines together
${MAKE:-make} --no-print-directory -j"$jobs" test-prereqs >build/logs/test-prereqs.log 2>&1 ||
  { echo "  the shared build failed (build/logs/test-prereqs.log):"; tail -20 build/logs/test-prereqs.log; }
${MAKE:-make} --no-print-directory -k -j"$jobs" -O "$@" || true
wall=$(( $(date +%s) - start ))
tp=0; tf=0; rows=()
for step in "$@"; do
  r=build/results/$step.result
  if [[ -f $r ]]; then
    read -r p f s <"$r"; tp=$((tp+p)); tf=$((tf+f)); rows+=("${s:-0} run   $step")
  else echo "  $step: no result (build failure)"; tf=$((tf+1)); fi
done
for t in build/results/time/*.s; do
  [[ -f $t ]] || continue
  rows+=("$(awk '{ s += $1 } END { printf "%.0f", s }' "$t") build $(basename "$t" .s)")
done
if [[ ${TEST_REPORT:-1} != 0 ]]; then
  echo "timing: ${wall} s wall with -j$jobs; the slowest steps (run) and Verilator builds (build), seconds:"
  printf '%s\n' "${rows[@]}" | sort -rn | head -15 | awk '{ printf "  %6d  %-5s %s\n", $1, $2, $3 }'
fi
echo "test time: $wall s"
echo "$tp passed, $tf failed"
[[ $tf -eq 0 ]]
