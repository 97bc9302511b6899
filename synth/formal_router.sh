#!/usr/bin/env bash
# formal_router.sh: bounded proofs for the router (prints RESULT lines from the solver verdicts).
#  1. mt_credit_counter alone (FormalTop=1): yosys-smtbmc + z3, BMC 25 steps and k-induction:
#     count in 0..Depth, count + flits in flight == Depth.
#  2. tb_mt_router_formal (minimal router, D=1 L=1, 2 VCs, depth 2): no flit leaves without a
#     credit (downstream never over-full), no take at count 0 in any credit counter, no extra
#     credits upstream, no input-buffer overflow. BMC of DEPTH steps (default 6) with Yosys'
#     built-in SAT solver: yosys-smtbmc + z3 did not finish step 0 of this model in minutes.
#     Buffer RAM registers start at 0 (setundef -init); the router never reads unwritten slots.
set -u
cd "$(dirname "$0")/.."
depth=${1:-6}
d=build/formal_router; mkdir -p "$d"
RTL="rtl/mt_common_pkg.sv rtl/mt_router.sv rtl/mt_rt_sw_alloc.sv rtl/mt_rt_vc_buffer.sv rtl/mt_rt_ram.sv rtl/mt_rt_watchdog.sv rtl/mt_credit_counter.sv"
p=0; f=0
rm -f "$d"/cc.smt2 "$d"/cc_bmc.log "$d"/cc_ind.log "$d"/router_sat.log "$d"/router_yosys.log # never read an old verdict
yosys -q -p "read_verilog -sv -formal rtl/mt_credit_counter.sv; chparam -set Depth 5 -set FormalTop 1 mt_credit_counter; prep -top mt_credit_counter; async2sync; dffunmap; write_smt2 -wires $d/cc.smt2"
if yosys-smtbmc -s z3 -t 25 "$d/cc.smt2" >"$d/cc_bmc.log" 2>&1 && grep -q 'Status: PASSED' "$d/cc_bmc.log"; then p=$((p+1)); echo "credit counter BMC 25: PASSED"; else f=$((f+1)); echo "credit counter BMC: FAILED"; tail -5 "$d/cc_bmc.log"; fi
if yosys-smtbmc -s z3 -i -t 25 "$d/cc.smt2" >"$d/cc_ind.log" 2>&1 && grep -q 'Temporal induction successful' "$d/cc_ind.log"; then p=$((p+1)); echo "credit counter induction: PASSED"; else f=$((f+1)); echo "credit counter induction: FAILED"; tail -5 "$d/cc_ind.log"; fi
echo "RESULT formal_credit_counter pass=$p fail=$f"
p=0; f=0
yosys -q -p "read_verilog -sv -formal $RTL tb/rtl/tb_mt_router_formal.sv; prep -top tb_mt_router_formal; memory_map; setundef -zero -init; flatten; opt -full; async2sync; dffunmap; tee -q -o $d/router_sat.log sat -seq $depth -prove-asserts -set-assumes -set-init-zero" >"$d/router_yosys.log" 2>&1 &&
  ok=1 || ok=0
if [ $ok = 1 ] && grep -q 'SAT proof finished - no model found: SUCCESS' "$d/router_sat.log"; then p=1; echo "router credit safety, BMC $depth steps: PASSED"
else f=1; echo "router credit safety: FAILED"; grep -E 'FAIL|ERROR' "$d/router_sat.log" "$d/router_yosys.log" | head -5; fi
echo "RESULT formal_router_credits pass=$p fail=$f"
