#!/usr/bin/env bash
# step_report.sh BIN: MultiTree step counts against the all-gather lower bound
# max(max_n ceil((N-1)/in-degree(n)), diameter), each schedule proven by the checker.
set -eu
BIN=${1:-build/multitree}
echo "| topology | nodes | all-gather steps | lower bound | diameter | all-reduce steps | ring all-reduce steps | checker |"
echo "|---|---|---|---|---|---|---|---|"
for t in torus:4x4 torus:8x8 torus:16x16 torus:32x32 mesh:4x4 mesh:8x8 mesh:16x16 torus:3x5 mesh:3x5 torus:4x4x4; do
  out=$("$BIN" check --topo "$t" --algo multitree --bytes 64M) || true
  n=$(echo "$out" | sed -n 's/.*, \([0-9]*\) nodes.*/\1/p')
  ag=$(echo "$out" | sed -n 's/.*+ \([0-9]*\) all-gather.*/\1/p')
  lb=$(echo "$out" | sed -n 's/.*lower bound \([0-9]*\).*/\1/p')
  di=$(echo "$out" | sed -n 's/.*diameter \([0-9]*\)).*/\1/p')
  st=$(echo "$out" | sed -n 's/^steps: \([0-9]*\) .*/\1/p')
  ok=$(echo "$out" | sed -n 's/^check: .*: \(OK\|VIOLATIONS\)$/\1/p')
  echo "| $t | $n | $ag | $lb | $di | $st | $((2 * (n - 1))) | $ok |"
done
