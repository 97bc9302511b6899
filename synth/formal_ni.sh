#!/usr/bin/env bash
# formal_ni.sh [DIR]: formal checks of the network interface (make t-ni-formal, formal-ni).
#  1. mt_ni_lockstep never underflows: yosys-smtbmc + z3, BMC 32 steps and induction.
#  2. mt_ni_issue (L=2, Children=2, Depth=8, MaxFlows=4, WdW=4): "no entry issues before its
#     step / while the lockstep counter runs / outside RUN" and "the timestep only moves
#     forward by one, towards the head entry's step", by Yosys' built-in SAT BMC, 20 steps
#     (z3 4.8.12 did not finish step 0 of this model in 5 minutes, measured).
#  3. a mutant with a wrong property (-DMT_NI_FORMAL_MUTANT) must fail: the proof can fail.
# Prints one line per check and RESULT formal_ni pass=N fail=M. Work files in DIR (build/ni);
# they are removed first and every Yosys run must succeed, so an old verdict is never read.
set -u
cd "$(dirname "$0")/.."
d=${1:-build/ni}; mkdir -p "$d"
p=0; f=0
rm -f "$d/lock.smt2" "$d/issue_sat.txt" "$d/issue_mut.txt"
issue() { # $1: extra read_verilog define
  echo "read_verilog -sv -formal $1 rtl/mt_common_pkg.sv rtl/mt_ni_issue.sv rtl/mt_ni_ram.sv rtl/mt_ni_timestep.sv rtl/mt_ni_lockstep.sv; \
chparam -set L 2 -set Children 2 -set Depth 8 -set MaxFlows 4 -set WdW 4 mt_ni_issue; prep -top mt_ni_issue; \
flatten; memory_map; async2sync; opt -fast; dffunmap"
}
yosys -q -p "read_verilog -sv -formal rtl/mt_common_pkg.sv rtl/mt_ni_lockstep.sv; prep -top mt_ni_lockstep; async2sync; dffunmap; write_smt2 -wires $d/lock.smt2" && \
yosys-smtbmc -s z3 -t 32 $d/lock.smt2 | tail -1 | grep -q PASSED && echo "lockstep never underflows: BMC 32 steps PASSED" && p=$((p+1)) || { echo "lockstep BMC FAILED"; f=$((f+1)); }
yosys-smtbmc -s z3 -i -t 32 $d/lock.smt2 | tail -1 | grep -q PASSED && echo "lockstep never underflows: induction PASSED" && p=$((p+1)) || { echo "lockstep induction FAILED"; f=$((f+1)); }
yosys -q -p "$(issue ""); tee -q -o $d/issue_sat.txt sat -seq 20 -prove-asserts -set-init-zero" &&
grep -q "SUCCESS" $d/issue_sat.txt && echo "issue before its step: BMC 20 steps PASSED" && p=$((p+1)) || { echo "issue BMC FAILED"; f=$((f+1)); }
# the mutant's run fails by design (the property does not hold): the verdict must be in the file
yosys -q -p "$(issue -DMT_NI_FORMAL_MUTANT); tee -q -o $d/issue_mut.txt sat -seq 20 -prove-asserts -set-init-zero" >/dev/null 2>&1
grep -q "FAIL" $d/issue_mut.txt 2>/dev/null && echo "mutant property caught (proof can fail)" && p=$((p+1)) || { echo "mutant NOT caught"; f=$((f+1)); }
echo "RESULT formal_ni pass=$p fail=$f"
