#!/usr/bin/env bash
# test_het_sim.sh BIN: links of several rates and latencies in the cycle model (issue #15 item
# 6, docs/reference/network.md "Link rate and latency"): a heterogeneous 4x4x4 torus given as
# dims:ring4@100x2,ring4@50x2,ring4@25x2 runs every algorithm of HET_ALGOS (default hier ring
# multitree; add themis once it plans) flit by flit with the result correct and at least the
# bandwidth bound of all links (hier: the sum of its dimensions' bandwidth times); the homogeneous dims: network is torus:4x4x4
# exactly (hier's cycles); slower links cost cycles; --threads 2 and the data modes give the
# same cycles, as does a run cycle by cycle (--trace); what cannot map is refused with the reason.
set -u
bin=${1:?BIN}
algos=${HET_ALGOS:-hier ring multitree}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
het=dims:ring4@100x2,ring4@50x2,ring4@25x2
# key K of summary F
jget() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print(json.dumps(v))' "$1" "$2"; }
# json_eq A B [KEYS...]: equal but for wall-clock keys and KEYS
json_eq() { python3 "$(dirname "$0")/json_eq.py" "$@"; }
for a in $algos; do
  "$bin" sim --topo "$het" --algo "$a" --bytes 16K --json "$d/$a.json" >"$d/$a.out" 2>&1; rc=$?
  cyc=$(jget "$d/$a.json" cycles 2>/dev/null); lb=$(jget "$d/$a.json" lower_bound_cycles 2>/dev/null); bn=$(jget "$d/$a.json" dim_bw_cycles 2>/dev/null)
  # any algorithm: at least the bandwidth bound of all links (a link of period k counts 1/k)
  if ((rc == 0)) && [[ $(jget "$d/$a.json" correct) == true && $(jget "$d/$a.json" link_period) == "[1, 2, 4]" ]] &&
     python3 -c 'import sys; sys.exit(0 if int(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$cyc" "$lb"; then
    ok; echo "$a on $het, 16 KiB: $cyc cycles, bound of all links $lb, per-dimension (hierarchical) bandwidth time $bn"
  else bad "$a on $het: rc $rc, cycles $cyc, bound $lb: $(head -3 "$d/$a.out")"; fi
done
grep -q "as torus:4x4x4: dim 1 ring4 100 GB/s 0 ns -> period 1, latency 2; dim 2 ring4 50 GB/s 0 ns -> period 2, latency 2; dim 3 ring4 25 GB/s 0 ns -> period 4" "$d/hier.out" &&
  ok || bad "the mapping line: $(head -1 "$d/hier.out")"
# hier (not pipelined) needs at least the sum of the dimensions' bandwidth times
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j["cycles"] >= sum(j["dim_bw_cycles"]) else 1)' "$d/hier.json" &&
  ok || bad "hier: $(jget "$d/hier.json" cycles) cycles, below the sum of $(jget "$d/hier.json" dim_bw_cycles)"
# the homogeneous dims: network is torus:4x4x4 (the same node ids, links moved onto the torus)
"$bin" sim --topo dims:ring4@100x2,ring4@100x2,ring4@100x2 --algo hier --bytes 16K --json "$d/hom.json" >/dev/null 2>&1
"$bin" sim --topo torus:4x4x4 --algo hier --bytes 16K --json "$d/tor.json" >/dev/null 2>&1
c1=$(jget "$d/hom.json" cycles); c2=$(jget "$d/tor.json" cycles); c3=$(jget "$d/hier.json" cycles)
if [[ $c1 == "$c2" && $c1 =~ ^[0-9]+$ ]] && ((c3 > c1)); then ok; echo "hier 16 KiB: torus:4x4x4 $c2 cycles, as dims: $c1, with links 1, 1/2, 1/4 as fast $c3"
else bad "hier: torus:4x4x4 $c2 cycles, homogeneous dims: $c1 (want equal), heterogeneous $c3 (want more)"; fi
# threads and data modes: the same cycles (periods and latencies per dimension; the thread
# pool's lookahead is the shortest latency, 3)
run=(sim --topo torus:4x4x4 --algo multitree --bytes 16K --set link_period1=2 --set link_period2=3 --set link_lat0=3 --set link_lat1=9 --set link_lat2=5)
"$bin" "${run[@]}" --json "$d/t1.json" >/dev/null 2>&1
"$bin" "${run[@]}" --threads 2 --json "$d/t2.json" >/dev/null 2>&1
if why=$(json_eq "$d/t1.json" "$d/t2.json") && [[ $(jget "$d/t1.json" correct) == true && $(jget "$d/t2.json" threads) == 2 ]]; then ok; echo "torus:4x4x4 periods 1,2,3 latencies 3,9,5: $(jget "$d/t1.json" cycles) cycles at 1 and 2 threads"
else bad "--threads 2 differs: $why"; fi
# cycle by cycle (--trace) as in blocks of the shortest latency minus 1
"$bin" "${run[@]}" --trace "$d/tr.csv" --json "$d/tr.json" >/dev/null 2>&1
why=$(json_eq "$d/t1.json" "$d/tr.json") && ok || bad "--trace (cycle by cycle) differs from the blocked run: $why"
for m in none sample; do
  "$bin" "${run[@]}" --data $m --json "$d/$m.json" >/dev/null 2>&1
  why=$(json_eq "$d/t1.json" "$d/$m.json" correct data checked_words_per_node) && ok || bad "--data $m differs in timing: $why"
done
# refused, with the reason (exit code 2)
refuse() { # WANT ARGS...
  local want=$1; shift
  "$bin" sim --algo hier --bytes 4096 "$@" >"$d/r" 2>&1; local rc=$?
  ((rc == 2)) && grep -q -- "$want" "$d/r" && ok || bad "$*: rc $rc, want 2 and '$want': $(head -2 "$d/r")"
}
refuse "dimension 2 is fc4; the cycle model runs dimensions that are rings" --topo dims:ring4@100x2,fc4@50x3
refuse "has 1 links per NPU; the torus model has one link to each neighbour" --topo dims:ring4@100x1,ring4@50x2
refuse "1/3.333 of the fastest (100 GB/s); the cycle model paces a link by whole cycles" --topo dims:ring4@100x2,ring4@30x2
refuse "4 dimensions; the cycle model's router has at most 3" --topo dims:ring2@8x1,ring2@8x1,ring2@8x1,ring2@8x1
refuse "they come from its GB/s and ns" --topo "$het" --set link_period0=2
refuse "torus:4x4 has no dimension 2" --topo torus:4x4 --set link_period2=2
refuse "link_period0: '256': out of range; expected a whole number 1..255" --topo torus:4x4 --set link_period0=256
echo "RESULT het-sim pass=$pass fail=$fail"
((fail == 0))
