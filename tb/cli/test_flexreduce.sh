#!/usr/bin/env bash
# test_flexreduce.sh BIN: FlexReduce and BlueConnect end to end (docs/reference/flexreduce.md): plan and
# check on asymmetric and symmetric hierarchies (hier:), the cycle model runs FlexReduce on
# machines of 4 and 3 learners and BlueConnect on 4 + 4 with correct results, the flow level
# gives FlexReduce below the ring on hier:4+3, and bad inputs are refused with exit 2 and the
# reason.
set -u
bin=${1:-build/multitree}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
for t in "hier:4+3@16:500,@1.25:5000" "hier:4+4+3@16,@1.25" "hier:3+2+2+3+1@16,2+3@4,@1" dgx2 "hier:1+4,2"; do
  out=$("$bin" check --topo "$t" --algo flexreduce --bytes 4804 2>&1)
  if grep -q ": OK" <<<"$out"; then ok; else bad "check $t flexreduce: $(head -3 <<<"$out")"; fi
done
for t in "hier:4+4@16,@1.25" "hier:2+2+2+2,2+2,2"; do
  for a in flexreduce blueconnect; do
    out=$("$bin" check --topo "$t" --algo $a --bytes 4800 2>&1)
    if grep -q ": OK" <<<"$out"; then ok; else bad "check $t $a: $(head -3 <<<"$out")"; fi
  done
done
# (the cycle model paces links by whole ratios to the fastest: 16:2, not 16:1.25)
for c in "hier:4+3@16:50,@2:500 flexreduce" "hier:4+4@16,@2 blueconnect"; do
  read -r t a <<<"$c"
  out=$("$bin" sim --topo "$t" --algo "$a" --bytes 64K 2>&1 | grep -v "^sim: $t: links" | head -1)
  if grep -q "result correct on every node" <<<"$out"; then ok; echo "$out"; else bad "sim $t $a: $out"; fi
done
ns() { "$bin" sim --level flow --topo "hier:4+3@16:500,@1.25:5000" --algo "$1" --bytes 4M 2>&1 | sed -n 's/^sim: flow level.*: \([0-9]*\) ns,.*/\1/p'; }
fr=$(ns flexreduce) ring=$(ns ring)
if [[ -n $fr && -n $ring && $fr -lt $ring ]]; then ok; echo "flow level hier:4+3 4 MiB: flexreduce $fr ns, ring $ring ns"; else bad "flow level: flexreduce '$fr' ring '$ring'"; fi
refuse "falls back to a flat ring here: use --algo ring" plan --topo "hier:4+3,2" --algo blueconnect --bytes 1M
refuse "has no switches" plan --topo torus:4x4 --algo flexreduce --bytes 1M
refuse "the switches do not form a tree (a cycle)" plan --topo fattree:4,2 --algo flexreduce --bytes 1M
refuse "at character 3 ('x'): expected a learner count 1..4096" plan --topo "hier:4+x,@1" --algo flexreduce --bytes 1M
refuse "level 1 groups 3 switches but level 0 has 2" plan --topo "hier:4+3,3" --algo flexreduce --bytes 1M
refuse "the last level must be one switch" plan --topo "hier:4+3" --algo flexreduce --bytes 1M
refuse "not a whole number of 4-byte elements" plan --topo "hier:4+3,2" --algo flexreduce --bytes 1001
echo "RESULT flexreduce_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
