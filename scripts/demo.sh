#!/usr/bin/env bash
# demo.sh BUILD [RTL-BUILD-COMMAND]: plan, check, image and run a real all-reduce on the embedded
# default configuration: MultiTree on a 4x4 torus, 1 MiB of int32 and fp32 gradients; with the
# second argument (make demo passes it), the RTL network of the 4x4 torus co-simulated too.
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
fi
if [ -n "${2:-}" ]; then
  say "6. RTL: the 4x4 torus in Verilator (16 x router + paper NI: 8 receive engines, 20 memory ports,"
  echo "   chained reduction), co-simulated cycle by cycle against the C model; MultiTree 16 KiB fp32"
  t0=$(date +%s)
  if [ ! -x "$B/obj_net_fst_hier_t4x4_demo/cosim_net" ]; then
    echo "building the Verilated network once (a few minutes; log: $out/rtl_build.log) ..."
  fi
  if ! $2 >"$out/rtl_build.log" 2>&1; then
    tail -20 "$out/rtl_build.log"
    echo "demo: the Verilator build failed (log: $out/rtl_build.log)" >&2
    exit 1
  fi
  echo "build: $(($(date +%s) - t0)) s"
  "$B/obj_net_fst_hier_t4x4_demo/cosim_net" --case t4x4_demo_msg_f32 --fst "$out/rtl_4x4.fst" >"$out/rtl_cosim.log" 2>&1 || {
    cat "$out/rtl_cosim.log"
    exit 1
  }
  grep -E '^(case|buffers|RESULT)' "$out/rtl_cosim.log"
  echo "waveform: $out/rtl_4x4.fst ($(du -h "$out/rtl_4x4.fst" | cut -f1)); open it with: gtkwave $out/rtl_4x4.fst"
  echo "  (every link, and every node's ports under TOP.mt_net_top.g_node[i].u_node: router links,"
  echo "   memory ports, NI status; for the signals inside the nodes: make cosim-net NET_FST=1, docs/reference/rtl_sim.md)"
fi
say "Step counts against the lower bound of the all-gather half"
for t in torus:4x4 torus:8x8 mesh:4x4 mesh:8x8; do
  "$BIN" check --topo $t --algo $ALGO --bytes $BYTES | sed -n 2p | sed "s/^/$t: /"
done
echo
echo "demo: outputs in $out/ (schedule.json, trees.dot, rom/)"
