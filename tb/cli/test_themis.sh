#!/usr/bin/env bash
# test_themis.sh BIN: Themis and the chunked baseline end to end (docs/themis.md): plan and
# check hier and themis (FIFO, SCF) on a heterogeneous 3-dimensional system and on
# torus:4x4x4, the cycle model runs hier and themis (4 chunks, 64 KiB) on torus:4x4x4 with a
# correct result, and bad options are refused with exit 2 and the reason.
set -u
bin=${1:-build/multitree}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
het="dims:ring4@1000x2:20ns,fc4@200x3:700ns,sw4@400x1:1700ns"
for t in "$het" torus:4x4x4; do
  for a in "hier --chunks 3" "themis --chunks 4 --intra fifo" "themis --chunks 4 --intra scf"; do
    # shellcheck disable=SC2086
    out=$("$bin" check --topo "$t" --algo $a --bytes 64K 2>&1)
    if grep -q ": OK" <<<"$out"; then ok; else bad "check $t $a: $(head -3 <<<"$out")"; fi
  done
done
for a in "hier" "hier --chunks 4" "themis --chunks 4"; do
  # shellcheck disable=SC2086
  out=$("$bin" sim --topo torus:4x4x4 --algo $a --bytes 64K 2>&1 | head -1)
  if grep -q "result correct on every node" <<<"$out"; then ok; echo "$out"; else bad "sim torus:4x4x4 $a: $out"; fi
done
refuse "--chunks and --intra apply to hier and themis" plan --topo torus:4x4 --algo multitree --chunks 2 --bytes 1M
refuse "expected fifo or scf" plan --topo torus:4x4 --algo themis --intra lifo --bytes 1M
refuse "expected 1..65536 chunks" plan --topo torus:4x4 --algo themis --chunks 0 --bytes 1M
refuse "134086656 transfers (2.1 GB); the expansion holds at most" plan --topo themis:2d-sw-sw --algo themis --bytes 1G
refuse "every flow needs at least one element" plan --topo torus:4x4x4 --algo themis --bytes 4K
refuse "has 8192 flows; the head flit's 12-bit FLOW field and the NI carry 4096" sim --topo torus:4x4x4 --algo themis --bytes 1M
refuse "(fewer --chunks: each chunk is N x H flows)" sim --topo torus:8x8 --algo themis --chunks 40 --bytes 1M
refuse "themis needs a multi-dimensional topology" plan --topo mesh:4x4 --algo themis --bytes 1M
echo "RESULT themis_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
