#!/usr/bin/env bash
# area_reduce.sh [BUILD]: Yosys 0.23 area of the reduction unit's adders (make area-reduce):
# mt_fp32_add and mt_reduce_alu (Lanes=4), each through generic `synth` + stat, synth_ice40
# and synth_ecp5; one line per block and flow: cells and the cell types that matter.
# Output: BUILD/area_reduce.txt (logs in BUILD/reduce/).
set -u
cd "$(dirname "$0")/.."
B=${1:-build}; d=$B/reduce; mkdir -p "$d"
RTL="rtl/mt_fp32_add.sv rtl/mt_reduce_alu.sv"
FLOWS="synth synth_ice40 synth_ecp5"
{ echo "# area_reduce: Yosys $(yosys -V | awk '{print $2}'), $RTL, mt_reduce_alu with Lanes=4"
  for top in mt_fp32_add mt_reduce_alu; do for flow in $FLOWS; do
    log=$d/area_${top}_${flow}.log
    timeout 900 yosys -q -p "read_verilog -sv $RTL; chparam -set Lanes 4 mt_reduce_alu; $flow -top $top; tee -o $log stat" >/dev/null 2>&1 \
      || { echo "$top $flow FAILED"; continue; }
    cells=$(awk '/Number of cells/ {n=$4} END {print n}' $log)
    detail=$(awk '/Number of cells/ {f=1; d=""; next} f && NF==2 && $1 ~ /^(\$|SB_|LUT|CCU|PFU|L6|TRELLIS)/ {d=d $1 "=" $2 " "} END {print d}' $log)
    printf '%-14s %-12s cells=%-6s %s\n' "$top" "$flow" "$cells" "$detail"
  done; done; } >$B/area_reduce.txt
cat $B/area_reduce.txt
