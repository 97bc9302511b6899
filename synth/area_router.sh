#!/usr/bin/env bash
# area_router.sh: Yosys 0.23 area of mt_router for the RTL defaults and the paper parameter set
# (configs/router/paper.cfg; needs build/multitree).
# Buffer storage (mt_rt_ram) is black-boxed for the logic synthesis and counted apart as
# memory bits (`proc; stat` before any memory mapping), per style/README.md §15.
# Knobs (environment): ROUTER_AREA_SETS (default "default paper"; any other name is
# configs/router/NAME.cfg, e.g. the switch sw8, and "switch" is the RTL defaults as a switch of
# 4 network + 4 NI ports, Table = 1); ROUTER_AREA_FLOWS (default
# "gen": the generic synthesis; "ice" and "ecp" add synth_ice40 / synth_ecp5 with mt_rt_ram
# black-boxed as well, LUT4 / FF / carry cells; ROUTER_AREA_MEM_GB caps the memory of those
# runs (default 8: an uncapped synth_ice40 of the default set grew to 21.7 GB and was killed by
# the kernel's OOM killer on a 24-GB machine; docs/results/area.md); their logs are
# time-stamped (yosys -t) to show the pass that failed.
# Output: build/area_router.txt (every Yosys run under nice, with its wall seconds)
set -u
cd "$(dirname "$0")/.."
out=build/area_router.txt
mkdir -p build/area
RTL="rtl/mt_common_pkg.sv rtl/mt_router.sv rtl/mt_rt_sw_alloc.sv rtl/mt_rt_vc_buffer.sv rtl/mt_rt_ram.sv rtl/mt_rt_watchdog.sv rtl/mt_credit_counter.sv"
{
echo "# mt_router area, Yosys $(yosys -V | awk '{print $2}'), $(date -u +%Y-%m-%d)"
echo "# set | memory bits (VC buffers) | logic cells (generic gates, buffers black-boxed) | of which flip-flops | transistor estimate (stat -tech cmos on the generic cells; + = has cells it cannot price, e.g. enable flops)"
} >"$out"
# "default": the RTL's parameter defaults; "paper": configs/router/paper.cfg (Table III)
paper=$(build/multitree shape --chparam configs/router/paper.cfg) || exit 1
SETS=${ROUTER_AREA_SETS:-"default paper"}
FLOWS=${ROUTER_AREA_FLOWS:-gen}
more=()
for s in $SETS; do
  case $s in
    default|paper) ;;
    switch) more+=("switch:-set Table 1 -set NetPorts 4") ;;  # the defaults as a switch: radix 8 (4 + 4), 16 table entries
    *) c=$(build/multitree shape --chparam "configs/router/$s.cfg") || exit 1; more+=("$s:$c") ;;
  esac
done
for set in "default:" "paper:$paper" "${more[@]}"; do
  name=${set%%:*}; cp=${set#*:}
  [[ " $SETS " == *" $name "* ]] || continue
  ch=""; [[ -n $cp ]] && ch="chparam $cp mt_router;"
  for fl in ice ecp; do
    [[ " $FLOWS " == *" $fl "* ]] || continue
    tool=synth_ice40; [[ $fl == ecp ]] && tool=synth_ecp5
    t0=$SECONDS
    ( ulimit -v $(( ${ROUTER_AREA_MEM_GB:-8} * 1024 * 1024 )); nice yosys -t -p "read_verilog -sv $RTL; $ch blackbox mt_rt_ram; hierarchy -top mt_router; chformal -remove; $tool -top mt_router; tee -q -o build/area/${name}_$fl.txt stat" ) >build/area/${name}_$fl.log 2>&1 \
      || { echo "$name $tool failed after $((SECONDS - t0)) s (memory cap ${ROUTER_AREA_MEM_GB:-8} GB); last pass: $(grep -E '^\[[0-9.]+\] [0-9]+\.[0-9.]* [A-Z]' build/area/${name}_$fl.log | tail -1)" | tee -a "$out"; continue; }
    t=$((SECONDS - t0))
    sed -i 's/^\[[0-9.]*\] //' build/area/${name}_$fl.txt
    f=build/area/${name}_$fl.txt
    if [[ $fl == ice ]]; then
      echo "$name iCE40 (synth_ice40, mt_rt_ram black-boxed) | SB_LUT4 $(awk '/SB_LUT4/ {v=$2} END {print v+0}' $f) | SB_DFF* $(awk '/SB_DFF/ {s+=$2} END {print s+0}' $f) | SB_CARRY $(awk '/SB_CARRY/ {v=$2} END {print v+0}' $f) | mt_rt_ram $(awk '/mt_rt_ram/ {v=$2} END {print v+0}' $f) | $t s" >>"$out"
    else
      echo "$name ECP5 (synth_ecp5, mt_rt_ram black-boxed) | LUT4 $(awk '/LUT4/ {v=$2} END {print v+0}' $f) | TRELLIS_FF $(awk '/TRELLIS_FF/ {s+=$2} END {print s+0}' $f) | CCU2C $(awk '/CCU2C/ {v=$2} END {print v+0}' $f) | PFUMX/L6MUX21 $(awk '/PFUMX|L6MUX21/ {s+=$2} END {print s+0}' $f) | mt_rt_ram $(awk '/mt_rt_ram/ {v=$2} END {print v+0}' $f) | $t s" >>"$out"
    fi
  done
  [[ " $FLOWS " == *" gen "* ]] || continue
  nice yosys -q -p "read_verilog -sv $RTL; $ch hierarchy -top mt_router; proc; flatten; tee -q -o build/area/${name}_mem.txt stat" >/dev/null 2>&1
  mem=$(awk '/Number of memory bits:/ {print $5}' build/area/${name}_mem.txt | tail -1)
  nice yosys -q -p "read_verilog -sv $RTL; $ch blackbox mt_rt_ram; hierarchy -top mt_router; chformal -remove; synth -flatten -top mt_router; tee -q -o build/area/${name}_logic.txt stat; tee -q -o build/area/${name}_cmos.txt stat -tech cmos" >build/area/${name}.log 2>&1 || { echo "yosys failed for $name"; tail -5 build/area/${name}.log; exit 1; }
  cells=$(awk '/Number of cells:/ {print $4}' build/area/${name}_logic.txt | tail -1)
  ffs=$(awk '/\$_.*DFF/ {s+=$2} END {print s+0}' build/area/${name}_logic.txt)
  tr=$(awk '/Estimated number of transistors:/ {print $5}' build/area/${name}_cmos.txt | tail -1)
  nram=$(awk '/mt_rt_ram/ {print $2}' build/area/${name}_logic.txt | tail -1)
  echo "$name | $mem | $cells (incl. $nram black-boxed mt_rt_ram) | $ffs | $tr" >>"$out"
done
cat "$out"
