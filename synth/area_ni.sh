#!/usr/bin/env bash
# area_ni.sh BUILD: Yosys 0.23 area of the network interface (make area-ni).
# For N = 16, 64, 256 (MultiTree on 4x4, 8x8, 16x16 tori, 64-MiB buffer): the schedule table
# bits (depth x width, full and compact layouts, from `multitree rom` / layout.json), and
# the NI's logic apart from the table (mt_ni_table black-boxed; FIFOs and per-flow state
# included): generic `synth` cells, and synth_ice40 / synth_ecp5 cells. Other parameters:
# L=4, NetPorts=4, PayloadW=128, NumVcs=2, EjDepth=4, VcDepth=8, SQ=4, RQ=4, MaxFlows=N.
set -u
B=${1:-build}; D=$B/ni/area; mkdir -p "$D"
# the table as a black box: a stub with its ports replaces rtl/mt_ni_table.sv
cat >$D/mt_ni_table_bb.v <<'BB'
(* blackbox *)
module mt_ni_table #(parameter Depth = 64, parameter Width = 86, parameter InitFile = "", parameter AW = 6) (
  input clk_i, input we_i, input [AW-1:0] waddr_i, input [Width-1:0] wdata_i,
  input [AW-1:0] ra_i, output [Width-1:0] rda_o, input [AW-1:0] rb_i, output [Width-1:0] rdb_o);
endmodule
BB
RTL="rtl/mt_common_pkg.sv $(ls rtl/mt_ni*.sv | grep -v mt_ni_table.sv | tr "\n" " ") rtl/mt_credit_counter.sv rtl/mt_reduce_alu.sv rtl/mt_fp32_add.sv"
NS=${NI_AREA_NS:-"16 64 256"}
SYN=${NI_AREA_SYNTH:-"16"}   # logic synthesis is slow (about 10 min for N=16 on this machine)
echo "| N | layout | table depth x width | table bits | generic cells (logic, no table) | of which FFs | iCE40 LUT4 | iCE40 FF | ECP5 LUT4 | ECP5 FF |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for N in $NS; do
  K=$(python3 -c "import math;print(math.isqrt($N))")
  for c in full compact; do
    f=""; [[ $c == compact ]] && f=--compact
    ./$B/multitree rom --topo torus:${K}x${K} --algo multitree --bytes 64M --format hex $f --out $D/${c}_$N >/dev/null || { echo "rom failed"; exit 1; }
    read -r W DEP CH FL ST ID PO EJ AD SZ < <(python3 -c "
import json; j=json.load(open('$D/${c}_$N/layout.json')); w={x['name']:x['width'] for x in j['fields']}
print(j['width'], j['depth'], j['children'], w['flow'], w['step'], w.get('parent.node',1), w['parent.port'], w['parent.eject'], w.get('addr',1), w.get('size',1))")
    CP=0; [[ $c == compact ]] && CP=1
    P="chparam -set Depth $DEP -set Compact $CP -set FlowW $FL -set StepW $ST -set IdW $ID -set PortW $PO -set EjW $EJ -set AddrW $AD -set SizeW $SZ -set Children $CH -set MaxFlows $N mt_ni"
    PRE="read_verilog $D/mt_ni_table_bb.v; read_verilog -sv $RTL; $P; hierarchy -top mt_ni"
    if [[ " $SYN " != *" $N "* ]]; then echo "| $N | $c | $DEP x $W | $((DEP * W)) | not run | | | | | |"; continue; fi
    yosys -q -p "$PRE; synth -top mt_ni -flatten; tee -q -o $D/gen_${c}_$N.txt stat" >$D/gen_${c}_$N.log 2>&1
    yosys -q -p "$PRE; synth_ice40 -top mt_ni; tee -q -o $D/ice_${c}_$N.txt stat" >$D/ice_${c}_$N.log 2>&1
    yosys -q -p "$PRE; synth_ecp5 -top mt_ni; tee -q -o $D/ecp_${c}_$N.txt stat" >$D/ecp_${c}_$N.log 2>&1
    gc=$(awk '/Number of cells/ {v=$4} END {print v}' $D/gen_${c}_$N.txt)
    gf=$(grep -E '\$_(S?DFFE?|DFF|ALDFF|SDFFE|SDFFCE|DFFE)_' $D/gen_${c}_$N.txt | awk '{s+=$2} END {print s+0}')
    il=$(awk '/SB_LUT4/ {v=$2} END {print v+0}' $D/ice_${c}_$N.txt)
    iff=$(grep -E 'SB_DFF' $D/ice_${c}_$N.txt | awk '{s+=$2} END {print s+0}')
    el=$(awk '/LUT4/ {v=$2} END {print v+0}' $D/ecp_${c}_$N.txt)
    ef=$(grep -E 'TRELLIS_FF' $D/ecp_${c}_$N.txt | awk '{s+=$2} END {print s+0}')
    echo "| $N | $c | $DEP x $W | $((DEP * W)) | $gc | $gf | $il | $iff | $el | $ef |"
  done
done
