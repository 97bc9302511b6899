#!/usr/bin/env bash
# area_router.sh: Yosys 0.23 area of mt_router for the RTL defaults and the paper parameter set
# (configs/router/paper.cfg; needs build/multitree).
# Buffer storage (mt_rt_ram) is black-boxed for the logic synthesis and counted apart as
# memory bits (`proc; stat` before any memory mapping), per style/README.md §15.
# Output: build/area_router.txt
set -u
cd "$(dirname "$0")/.."
out=build/area_router.txt
mkdir -p build/area
RTL="rtl/mt_common_pkg.sv rtl/mt_router.sv rtl/mt_rt_route.sv rtl/mt_rt_vc_alloc.sv rtl/mt_rt_sw_alloc.sv rtl/mt_rt_vc_buffer.sv rtl/mt_rt_ram.sv rtl/mt_rt_watchdog.sv rtl/mt_credit_counter.sv"
{
echo "# mt_router area, Yosys $(yosys -V | awk '{print $2}'), $(date -u +%Y-%m-%d)"
echo "# set | memory bits (VC buffers) | logic cells (generic gates, buffers black-boxed) | of which flip-flops | transistor estimate (stat -tech cmos on the generic cells; + = has cells it cannot price, e.g. enable flops)"
} >"$out"
# "default": the RTL's parameter defaults; "paper": configs/router/paper.cfg (Table III)
paper=$(build/multitree shape --chparam configs/router/paper.cfg) || exit 1
for set in "default:" "paper:$paper"; do
  name=${set%%:*}; cp=${set#*:}
  ch=""; [[ -n $cp ]] && ch="chparam $cp mt_router;"
  yosys -q -p "read_verilog -sv $RTL; $ch hierarchy -top mt_router; proc; flatten; tee -q -o build/area/${name}_mem.txt stat" >/dev/null 2>&1
  mem=$(awk '/Number of memory bits:/ {print $5}' build/area/${name}_mem.txt | tail -1)
  yosys -q -p "read_verilog -sv $RTL; $ch blackbox mt_rt_ram; hierarchy -top mt_router; chformal -remove; synth -flatten -top mt_router; tee -q -o build/area/${name}_logic.txt stat; tee -q -o build/area/${name}_cmos.txt stat -tech cmos" >build/area/${name}.log 2>&1 || { echo "yosys failed for $name"; tail -5 build/area/${name}.log; exit 1; }
  cells=$(awk '/Number of cells:/ {print $4}' build/area/${name}_logic.txt | tail -1)
  ffs=$(awk '/\$_.*DFF/ {s+=$2} END {print s+0}' build/area/${name}_logic.txt)
  tr=$(awk '/Estimated number of transistors:/ {print $5}' build/area/${name}_cmos.txt | tail -1)
  nram=$(awk '/mt_rt_ram/ {print $2}' build/area/${name}_logic.txt | tail -1)
  echo "$name | $mem | $cells (incl. $nram black-boxed mt_rt_ram) | $ffs | $tr" >>"$out"
done
cat "$out"
