#!/usr/bin/env bash
# test_themis.sh BIN: Themis and the chunked baseline end to end (docs/reference/themis.md): plan and
# check hier and themis (FIFO, SCF) on a heterogeneous 3-dimensional system and on
# torus:4x4x4, the cycle model runs hier and themis (4 chunks, 64 KiB) on torus:4x4x4 with a
# correct result; end to end on a heterogeneous 4x4x4 torus (plan, check, flow level, cycle
# level); and bad options are refused with exit 2 and the reason.
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
# End to end on a small heterogeneous torus (issue #15's acceptance): 4x4x4 rings of 100, 50
# and 25 GB/s (periods 1, 2, 4 at cycle level, docs/reference/network.md "Link rate and latency"); for
# hier and themis with 4 chunks: plan + check, the flow level on the expansion (front end 1)
# and on the chunk schedule (front end 2), and the cycle model with a correct result; the flow
# level's time within 20% of the cycle model's in ns (hier -15.5%, themis -6.3%,
# docs/reference/flowsim.md) and front end 2 (chunks pipelined freely) no slower than the expansion.
hett="dims:ring4@100x2,ring4@50x2,ring4@25x2"
for a in hier themis; do
  out=$("$bin" check --topo "$hett" --algo $a --chunks 4 --bytes 256K 2>&1)
  if grep -q ": OK" <<<"$out"; then ok; else bad "check $hett $a: $(head -3 <<<"$out")"; fi
  out=$("$bin" sim --topo "$hett" --algo $a --chunks 4 --bytes 256K --json /tmp/mt-thm-$$.c.json 2>&1 | grep -v '^sim: cycle')
  if grep -q "result correct on every node" <<<"$out"; then ok; else bad "cycle level $hett $a: $(head -2 <<<"$out")"; fi
  "$bin" sim --level flow --topo "$hett" --algo $a --chunks 4 --expand --bytes 256K --json /tmp/mt-thm-$$.f1.json >/dev/null 2>&1
  "$bin" sim --level flow --topo "$hett" --algo $a --chunks 4 --bytes 256K --json /tmp/mt-thm-$$.f2.json >/dev/null 2>&1
  cyc_ns=$(jq '.cycles / .config.clock_ghz' /tmp/mt-thm-$$.c.json 2>/dev/null)
  f1=$(jq .time /tmp/mt-thm-$$.f1.json 2>/dev/null)
  f2=$(jq .time /tmp/mt-thm-$$.f2.json 2>/dev/null)
  if awk -v c="${cyc_ns:-0}" -v f="${f1:-0}" -v g="${f2:-1e30}" 'BEGIN { exit !(c > 0 && f > 0 && (f - c) / c <= 0.2 && (c - f) / c <= 0.2 && g <= f) }'; then
    ok; echo "$a on $hett, 4 chunks, 256 KiB: cycle model ${cyc_ns} ns, flow level ${f1} ns (expanded), ${f2} ns (chunk schedule)"
  else bad "$a on $hett: cycle model ${cyc_ns:-?} ns, flow level ${f1:-?} (expanded) / ${f2:-?} (chunk schedule): want within 20% and fe2 <= fe1"; fi
  rm -f /tmp/mt-thm-$$.*.json
done
refuse "--chunks and --intra apply to hier, themis and dimbal" plan --topo torus:4x4 --algo multitree --chunks 2 --bytes 1M
refuse "expected fifo or scf" plan --topo torus:4x4 --algo themis --intra lifo --bytes 1M
refuse "--chunks (chunks per collective): '0': out of range; expected a whole number 1..65536" plan --topo torus:4x4 --algo themis --chunks 0 --bytes 1M
refuse "134086656 transfers (2.1 GB); the expansion holds at most" plan --topo themis:2d-sw-sw --algo themis --bytes 1G
refuse "every flow needs at least one element" plan --topo torus:4x4x4 --algo themis --bytes 4K
refuse "has 8192 flows; the head flit's 12-bit FLOW field and the NI carry 4096" sim --topo torus:4x4x4 --algo themis --bytes 1M
refuse "(fewer --chunks: each chunk is N x H flows)" sim --topo torus:8x8 --algo themis --chunks 40 --bytes 1M
refuse "themis needs a multi-dimensional topology" plan --topo mesh:4x4 --algo themis --bytes 1M
echo "RESULT themis_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
