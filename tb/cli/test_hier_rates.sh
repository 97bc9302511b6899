#!/usr/bin/env bash
# test_hier_rates.sh: the GB/s and ns of a hier: topology's levels reach the cycle model, train
# and the watchdog (docs/reference/network.md "Link rate and latency"). The fastest link takes a
# flit per cycle, a slower one a flit every whole ratio of cycles, latencies are ns x that clock;
# a ratio that is not whole and learner links slower than the fastest are refused. train gives
# the all-reduce in cycles of clock_ghz at both levels: sim's cycles (at the network's clock) and
# sim --level flow's ns converted. Legal long waits over slow links complete under the default
# watchdog; a real deadlock on such links (the stager off) still stops on it.
set -u
bin=${1:-build/multitree}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cyc() { grep -o '^sim: [a-z0-9]* on .*: [0-9]* cycles' <<<"$1" | grep -o '[0-9]* cycles$' | grep -o '[0-9]*'; }
run() { "$bin" sim --algo multitree --config small "$@" 2>&1 | grep -v '^sim: cycle'; }
# rates honoured: equal rates are the unit model; a slow top level and long latencies cost cycles
u=$(cyc "$(run --topo hier:4+4,2 --bytes 4K)")
e=$(cyc "$(run --topo hier:4+4@16,@16 --bytes 4K)")
s=$(cyc "$(run --topo hier:4+4@16,@2 --bytes 4K)")
l=$(cyc "$(run --topo hier:4+4@16:500,@2:5000 --bytes 4K)")
if [[ -n $u && $u == "$e" ]]; then ok "hier:4+4@16,@16 = hier:4+4,2: $e cycles"; else bad "equal rates '$e' vs unit links '$u'"; fi
if [[ -n $s && -n $u && $s -gt $((2 * u)) ]]; then ok "top level 8x slower: $s cycles (unit links $u)"; else bad "hier:4+4@16,@2: '$s' cycles, unit links '$u'"; fi
if [[ -n $l && -n $s && $l -gt $((10 * s)) ]]; then ok "500 and 5000 ns: $l cycles"; else bad "hier:4+4@16:500,@2:5000: '$l' cycles (no latency: '$s')"; fi
# refused where the cycle model cannot honour a rate
out=$(run --topo hier:4+4@16:500,@1.25:5000 --bytes 4K)
if grep -q "whole numbers" <<<"$out" && ! grep -q "result correct" <<<"$out"; then ok "16:1.25 refused: ${out:0:90}..."; else bad "16:1.25 not refused: ${out:0:200}"; fi
out=$(run --topo hier:4+4@2,@16 --bytes 4K)
if grep -q "must be the fastest" <<<"$out"; then ok "slow learner links refused"; else bad "hier:4+4@2,@16 not refused: ${out:0:200}"; fi
# train agrees with sim at both levels (a 2 GHz network: 32 GB/s over 16-byte flits)
t=hier:4+4@32:100,@4:1000
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Kind, Params, Gradient bytes,\nl0,8,8,3,3,8,8,1,weights,576,2304,\n' >"$tmp/w.csv"
sc=$(cyc "$("$bin" sim --topo $t --algo multitree --bytes 2304 --config small --flow packet 2>&1)")
sf=$("$bin" sim --level flow --topo $t --algo multitree --bytes 2304 --config small --flow packet 2>&1 | grep -o ': [0-9.]* ns,' | grep -o '[0-9.]*')
tc=$("$bin" train --model "$tmp/w.csv" --topo $t --algo multitree --level cycle --cache none --config small 2>&1 | grep -o 'all-reduce [0-9]* cycles' | grep -o '[0-9]*')
tf=$("$bin" train --model "$tmp/w.csv" --topo $t --algo multitree --level flow --cache none --config small 2>&1 | grep -o 'all-reduce [0-9]* cycles' | grep -o '[0-9]*')
if [[ -n $sc && -n $tc ]] && [[ $tc == $(((sc + 1) / 2)) || $tc == $((sc / 2)) ]]; then ok "train cycle level $tc cycles at 1 GHz = sim $sc cycles at 2 GHz"; else bad "train cycle level '$tc', sim '$sc' cycles at 2 GHz"; fi
if [[ -n $sf && -n $tf ]] && awk -v a="$sf" -v b="$tf" 'BEGIN { exit !(a - b < 1 && b - a < 1) }'; then ok "train flow level $tf cycles = sim --level flow $sf ns"; else bad "train flow level '$tf', sim --level flow '$sf' ns"; fi
# legal long waits over slow links: correct under the default watchdog (stopped at cycles 310,033
# and 84,536 when the limits used link_lat and period 1)
for spec in hier:4+4@16:500,@2:20000 hier:2+2+2@16:100,3@4:30000; do
  out=$(run --topo $spec --bytes 1K --flow message)
  if grep -q "result correct on every node" <<<"$out"; then ok "$spec: $(cyc "$out") cycles, correct"; else bad "$spec: $(grep -m1 -v '^sim: hier' <<<"$out")"; fi
done
# a real deadlock on slow links (the stager off) still stops on the watchdog
out=$(run --topo hier:4+4@16:100,@2:3000 --bytes 2304 --flow packet --set ni_stage_after=0)
if grep -q "error 11 (watchdog)" <<<"$out"; then ok "deadlock with the stager off: $(grep -m1 'error 11' <<<"$out")"; else bad "hier:4+4@16:100,@2:3000 stager off: expected the watchdog, got: ${out:0:200}"; fi
# soak seed 35's watchdog stops before the limits grew by N x T (legal: correct with it off)
while read -r t a b f d s; do
  out=$("$bin" sim --topo "$t" --algo "$a" --bytes "$b" --flow "$f" --config small --dtype "$d" --seed "$s" 2>&1 | grep -v '^sim: cycle')
  if grep -q "result correct on every node" <<<"$out"; then ok "$t $a $b B: $(cyc "$out") cycles"; else bad "$t $a $b B: ${out:0:200}"; fi
done <<'RUNS'
hier:4+4+2,3 multitree 1920 packet fp32 2240454963
hier:2+2+2,3 multitree 3144 packet fp32 3890640599
hier:2+2+2+2+2+2,2+2+2,3 multitree 9024 message int32 635072774
RUNS
echo "RESULT hier_rates pass=$pass fail=$fail"
