#!/usr/bin/env bash
# demo.sh BUILD: plan, check, image and run a real all-reduce on the embedded default
# configuration: MultiTree on a 4x4 torus, 1 MiB of int32 and fp32 gradients.
set -eu
B=${1:-build}
BIN=$B/multitree
TOPO=torus:4x4 ALGO=multitree BYTES=1M
out=$B/demo; mkdir -p "$out"
say() { printf '\n== %s\n' "$*"; }
say "1. Plan: Algorithm 1 on $TOPO, $BYTES (schedule tables of Fig. 5, one per node)"
"$BIN" plan --topo $TOPO --algo $ALGO --bytes $BYTES --json "$out/schedule.json" --dot "$out/trees.dot"
echo "first node's table (op(flow,parent,children,step)):"
"$BIN" plan --topo $TOPO --algo $ALGO --bytes $BYTES --print --quiet | head -1
say "2. Check: run the tables symbolically (every chunk gets all 16 contributions exactly once)"
"$BIN" check "$out/schedule.json"
say "3. ROM images of the schedule tables for an FPGA (\$readmemh hex), read back and compared"
"$BIN" rom --topo $TOPO --algo $ALGO --bytes $BYTES --format hex --out "$out/rom"
"$BIN" decode "$out/rom" --compare "$out/schedule.json" | tail -1
say "4. All-reduce of seeded gradients through the tables (reference model)"
"$BIN" ref --topo $TOPO --algo $ALGO --bytes $BYTES --dtype int32 --seed 1
"$BIN" ref --topo $TOPO --algo $ALGO --bytes $BYTES --dtype fp32 --seed 1
if "$BIN" sim --help >/dev/null 2>&1; then
  say "5. Cycle-accurate simulation (C model, small configuration)"
  "$BIN" sim --topo $TOPO --algo $ALGO --bytes $BYTES --config small --seed 1
  "$BIN" sim --topo $TOPO --algo ring --bytes $BYTES --config small --seed 1
  echo "note: the C model's network interface has a receive engine per ejection port and 3L memory ports"
  echo "      (the RTL: one of each); MultiTree is still only about as fast as ring here, because"
  echo "      contributions to one flow are reduced one after the other (fp32 order); see docs/network.md."
fi
say "Step counts against the lower bound of the all-gather half"
for t in torus:4x4 torus:8x8 mesh:4x4 mesh:8x8; do
  "$BIN" check --topo $t --algo $ALGO --bytes $BYTES | sed -n 2p | sed "s/^/$t: /"
done
echo
echo "demo: outputs in $out/ (schedule.json, trees.dot, rom/)"
