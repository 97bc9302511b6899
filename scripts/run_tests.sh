#!/usr/bin/env bash
# run_tests.sh STEP...: run every test step through make (each writes build/results/STEP.result),
# then print the one closing line 'N passed, N failed'. A step that did not produce its
# result file (build failure) counts as one failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd); cd "$top"
mkdir -p build/results
for step in "$@"; do rm -f "build/results/$step.result"; done
start=$(date +%s)
for step in "$@"; do
  echo "== $step"
  ${MAKE:-make} --no-print-directory "$step" || echo "  ($step: make failed)"
done
tp=0; tf=0
for step in "$@"; do
  r=build/results/$step.result
  if [[ -f $r ]]; then read -r p f <"$r"; tp=$((tp+p)); tf=$((tf+f))
  else echo "  $step: no result (build failure)"; tf=$((tf+1)); fi
done
echo "test time: $(( $(date +%s) - start )) s"
echo "$tp passed, $tf failed"
[[ $tf -eq 0 ]]
