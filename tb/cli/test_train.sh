#!/usr/bin/env bash
# test_train.sh: multitree train end to end (docs/reference/training.md) on the 3-layer toy
# (tb/train/toy.csv) on torus:4x4 with ring and multitree, both iteration models, against
# hand-worked compute cycles and against `multitree sim` for the all-reduce; the cache; refusals.
set -u
bin=${MT_BIN:-build/multitree}
source "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
toy=tb/train/toy.csv
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# compute by hand (32x32 OS: ceil(M/32) ceil(N/32) (K + 62) - 1; local reduction ceil(ceil(P/16)/32) x 16):
#   conv1 M 1024 N 32 K 27: fwd 2847, no dX (first layer), dW 1085 + 32
#   conv2 M 64 N 64 K 288: fwd 1399, dX 2267, dW 2267 + 592
#   fc    M 1 N 10 K 4096: fwd 4157, dX 9215, dW 8063 + 1296          compute 33220
for algo in ring multitree; do
  "$bin" train --model $toy --topo torus:4x4 --algo $algo --cache "$tmp/c.txt" --json "$tmp/$algo.json" >"$tmp/out" 2>"$tmp/err" || bad "$algo: exit $?: $(cat "$tmp/err")"
  got=$(jq_ "$tmp/$algo.json" "d['forward_cycles'], d['backward_input_cycles'], d['backward_weight_cycles'], d['local_reduce_cycles'], d['compute_cycles']")
  [[ $got == "(8403, 11482, 11415, 1920, 33220)" ]] && ok || bad "$algo compute: $got"
  got=$(jq_ "$tmp/$algo.json" "[(l['forward'], l['backward_input'], l['backward_weight']) for l in d['layers']]")
  [[ $got == "[(2847, 0, 1117), (1399, 2267, 2859), (4157, 9215, 9359)]" ]] && ok || bad "$algo layers: $got"
  # the all-reduce of all 241,704 gradient bytes rounded up to 4 x 16: 241,728, as sim runs it
  sim=$("$bin" sim --topo torus:4x4 --algo $algo --bytes 241728 --config paper --flow packet --data none 2>/dev/null | sed -n 's/.*config paper: \([0-9]*\) cycles.*/\1/p')
  got=$(jq_ "$tmp/$algo.json" "d['allreduce_bytes'], d['allreduce_cycles'], d['exposed_cycles'], d['total_cycles'] - 33220")
  [[ -n $sim && $got == "(241728, $sim, $sim, $sim)" ]] && ok || bad "$algo non-overlapped all-reduce: $got, sim $sim"
  # overlapped: each layer's bytes as sim runs them; total between compute and compute + all
  "$bin" train --model $toy --topo torus:4x4 --algo $algo --overlap --cache "$tmp/c.txt" --json "$tmp/$algo.o.json" >/dev/null 2>&1 || bad "$algo --overlap: exit $?"
  s1=$("$bin" sim --topo torus:4x4 --algo $algo --bytes 163904 --config paper --flow packet --data none 2>/dev/null | sed -n 's/.*config paper: \([0-9]*\) cycles.*/\1/p')
  got=$(jq_ "$tmp/$algo.o.json" "d['layers'][2]['allreduce_bytes'], d['layers'][2]['allreduce_cycles']")
  [[ $got == "(163904, $s1)" ]] && ok || bad "$algo fc all-reduce: $got, sim $s1"
  got=$(jq_ "$tmp/$algo.o.json" "d['compute_cycles'] <= d['total_cycles'] <= d['compute_cycles'] + d['allreduce_cycles'] and d['exposed_cycles'] + d['overlapped_cycles'] == d['allreduce_cycles'] and d['allreduce_cycles'] == sum(l['allreduce_cycles'] for l in d['layers'])")
  [[ $got == True ]] && ok || bad "$algo overlapped breakdown inconsistent"
done
# ring is slower than multitree on the 4x4 torus (Fig. 9), so its iteration too
got=$(python3 -c "import json; r=json.load(open('$tmp/ring.json')); m=json.load(open('$tmp/multitree.json')); print(r['total_cycles'] > m['total_cycles'])")
[[ $got == True ]] && ok || bad "ring not slower than multitree"
# the second run reads the cache: nothing simulated
"$bin" train --model $toy --topo torus:4x4 --algo ring --cache "$tmp/c.txt" 2>&1 | grep -q "0 all-reduces simulated now" && ok || bad "cache not used"
[[ $(wc -l <"$tmp/c.txt") -eq 8 ]] && ok || bad "cache lines: $(wc -l <"$tmp/c.txt") (expected 8: 2 algorithms x 4 sizes)"
# --level flow: each all-reduce as `sim --level flow` gives it, within 2 % of the cycle model,
# cached apart from the cycle model's times; scripts/fig11_validate.py pairs the runs
mkdir -p "$tmp/cyc" "$tmp/flow"
for algo in ring multitree; do
  for ov in plain overlap; do
    o=(); [[ $ov == overlap ]] && o=(--overlap)
    "$bin" train --model $toy --topo torus:4x4 --algo $algo "${o[@]}" --cache "$tmp/c.txt" --json "$tmp/cyc/$algo.$ov.json" >/dev/null 2>&1 || bad "$algo $ov cycle: exit $?"
    "$bin" train --model $toy --topo torus:4x4 --algo $algo "${o[@]}" --level flow --cache "$tmp/c.txt" --json "$tmp/flow/$algo.$ov.json" >"$tmp/out" 2>&1 || bad "$algo $ov --level flow: exit $?: $(cat "$tmp/out")"
  done
  "$bin" sim --level flow --topo torus:4x4 --algo $algo --bytes 241728 --config paper --flow packet --json "$tmp/fs.json" >/dev/null 2>&1 || bad "sim --level flow $algo"
  got=$(python3 -c "import json,sys; f=json.load(open(sys.argv[1])); c=json.load(open(sys.argv[2])); s=json.load(open(sys.argv[3]))
print(f['level'], c['level'], f['allreduce_cycles'] == int(s['time'] + 0.5), abs(f['allreduce_cycles'] - c['allreduce_cycles']) <= 0.02 * c['allreduce_cycles'], f['compute_cycles'] == c['compute_cycles'])" "$tmp/flow/$algo.plain.json" "$tmp/cyc/$algo.plain.json" "$tmp/fs.json")
  [[ $got == "flow cycle True True True" ]] && ok || bad "$algo --level flow against sim --level flow and the cycle model: $got"
done
grep -q "train: all-reduce [0-9]* cycles (sum of the layers'; flow level)" "$tmp/out" && ok || bad "--level flow not said: $(cat "$tmp/out")"
[[ $(grep -c " packet/flow " "$tmp/c.txt") -eq 8 ]] && ok || bad "flow-level cache lines: $(grep -c " packet/flow " "$tmp/c.txt") (expected 8)"
"$bin" train --model $toy --topo torus:4x4 --algo ring --cache "$tmp/c.txt" 2>&1 | grep -q "0 all-reduces simulated now" && ok || bad "cycle-level cache disturbed"
python3 scripts/fig11_validate.py "$tmp/cyc" "$tmp/flow" 4 >"$tmp/val" && grep -q "pass=4 fail=0" "$tmp/val" && ok || bad "fig11_validate: $(tail -1 "$tmp/val")"
# (4 %: the toy's 16-160 KB all-reduces; the models' iterations agree within 2 %, docs/reference/training.md) a flow level off by 10 % is caught
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['allreduce_cycles']=int(d['allreduce_cycles']*1.10); json.dump(d,open(sys.argv[1],'w'))" "$tmp/flow/ring.plain.json"
python3 scripts/fig11_validate.py "$tmp/cyc" "$tmp/flow" 4 >"$tmp/val" && bad "fig11_validate missed a 10 % error" || { grep -q "pass=3 fail=1" "$tmp/val" && ok || bad "fig11_validate broken input: $(tail -1 "$tmp/val")"; }
# a real table by name (no simulation: --help only) and the refusals
"$bin" train --help | grep -q -- "--overlap" && ok || bad "train --help"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Kind, Params, Gradient bytes,\nfc,1,1,1,1,8,4,1,weights,37,148,\n' >"$tmp/bad.csv"
refuse "bad.csv:2: field 'Params': 37" train --model "$tmp/bad.csv" --topo torus:4x4 --algo ring --cache none
refuse "cannot open" train --model nosuchmodel --topo torus:4x4 --algo ring --cache none
refuse "--model, --topo and --algo are required" train --model $toy --algo ring
refuse "unknown option '--bogus'" train --model $toy --topo torus:4x4 --algo ring --bogus
refuse "--seed: 'x': not a number" train --model $toy --topo torus:4x4 --algo ring --seed x
refuse "blob:3" train --model $toy --topo blob:3 --algo ring --cache none
refuse "bogus" train --model $toy --topo torus:4x4 --algo bogus --cache none
refuse "nosuchcfg" train --model $toy --topo torus:4x4 --algo ring --config nosuchcfg --cache none
refuse "--level 'bogus': expected cycle" train --model $toy --topo torus:4x4 --algo ring --level bogus --cache none
refuse "ni_model=1" train --model $toy --topo torus:4x4 --algo ring --level flow --config paper-sim --cache none
refuse "dims: topologies are not simulated" train --model $toy --topo dims:ring4@125x2:20ns --algo ring --cache none
printf 'Layer name, Forward, Backward input, Backward weight,\nconv9, 1, 2, 3,\n' >"$tmp/cyc.csv"
refuse "cyc.csv:2: field 'Layer name': 'conv9'" train --model $toy --topo torus:4x4 --algo ring --cycles "$tmp/cyc.csv" --cache none
echo "RESULT test_train_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
