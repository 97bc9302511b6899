#!/usr/bin/env bash
# test_papersim.sh BIN: `multitree sim --config paper-sim`, the paper simulator's NI
# (cmodel/hw/mt_paper_ni.c, docs/reference/papersim.md): every algorithm on torus:4x4 completes with
# every node's buffer equal to the reference, with messages and packets (fp32 too); the NI
# ports follow the paper's runs (ring, dbtree and hd on one local port, multitree and ring2d
# on four); a wider accelerator (ni_paper_acc_width) never costs cycles and lowers them for
# MultiTree; the project's NI (config paper) is unchanged (cycles of docs/results/fig9.csv);
# bad keys and --trace are refused with the reason.
set -u
bin=${1:?BIN}
. "$(dirname "$0")/lib_refuse.sh"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
jget() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print(json.dumps(v))' "$1" "$2"; }
for a in multitree ring ring2d dbtree hd; do
  for f in message packet; do
    "$bin" sim --topo torus:4x4 --algo "$a" --bytes 32K --config paper-sim --flow "$f" --json "$d/$a.$f.json" >"$d/out" 2>&1; rc=$?
    if ((rc == 0)) && [[ $(jget "$d/$a.$f.json" correct 2>/dev/null) == true ]] && grep -q "paper NI" "$d/out"; then
      ok; echo "$a $f on torus:4x4 32 KiB under paper-sim: $(jget "$d/$a.$f.json" cycles) cycles, correct"
    else bad "$a $f: rc $rc: $(head -3 "$d/out")"; fi
  done
done
"$bin" sim --topo torus:4x4 --algo multitree --bytes 16K --config paper-sim --dtype fp32 >"$d/out" 2>&1 && grep -q "result correct on every node" "$d/out" && ok || bad "fp32: $(head -2 "$d/out")"
# the paper's radix: one local port for ring, four for ring2d (the tables say how many)
"$bin" sim --topo torus:4x4 --algo ring --bytes 4K --config paper-sim --set local_ports=4 >"$d/out" 2>&1 && ok || bad "ring with local_ports=4: $(head -2 "$d/out")"
c1=$(jget "$d/ring.packet.json" cycles); "$bin" sim --topo torus:4x4 --algo ring --bytes 32K --config paper-sim --flow packet --set local_ports=1 --json "$d/r1.json" >/dev/null 2>&1
[[ $(jget "$d/r1.json" cycles) == "$c1" ]] && ok || bad "ring under paper-sim is not the one-port run: $c1 vs $(jget "$d/r1.json" cycles)"
# the accelerator's cost: 32 elements per cycle by default; 4096 wide makes aggregation ~free
for a in multitree ring; do
  "$bin" sim --topo torus:4x4 --algo $a --bytes 512K --config paper-sim --flow packet --json "$d/w1.json" >/dev/null 2>&1
  "$bin" sim --topo torus:4x4 --algo $a --bytes 512K --config paper-sim --flow packet --set ni_paper_acc_width=4096 --json "$d/w2.json" >/dev/null 2>&1
  x=$(jget "$d/w1.json" cycles) y=$(jget "$d/w2.json" cycles)
  if [[ $x =~ ^[0-9]+$ && $y =~ ^[0-9]+$ ]] && ((y < x)); then ok; echo "$a 512 KiB: $x cycles, $y with a 4096-wide accelerator"; else bad "$a acc width: $x -> $y"; fi
done
# the project's NI unchanged: docs/results/fig9.csv (config paper)
"$bin" sim --topo torus:4x4 --algo multitree --bytes 32K --config paper --flow packet --json "$d/p.json" >/dev/null 2>&1
want=$(awk -F, '$1=="torus:4x4" && $2=="multitree" && $3=="packet" && $4==32768 {print $5}' "$(dirname "$0")/../../docs/results/fig9.csv")
[[ -n $want && $(jget "$d/p.json" cycles) == "$want" ]] && ok || bad "config paper: $(jget "$d/p.json" cycles) cycles, fig9.csv $want"
refuse "ni_model" sim --topo torus:4x4 --algo ring --bytes 4K --config paper-sim --set ni_model=2
refuse "ni_paper_acc_width" sim --topo torus:4x4 --algo ring --bytes 4K --config paper-sim --set ni_paper_acc_width=0
refuse "--trace records the project NI" sim --topo torus:4x4 --algo ring --bytes 4K --config paper-sim --trace "$d/t.csv"
echo "RESULT t-papersim-cli pass=$pass fail=$fail"
((fail == 0))
