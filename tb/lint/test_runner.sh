#!/usr/bin/env bash
# test_runner.sh: `make test` must not say green on a broken tree (issue #11, items 13-16).
# In a copy of the tree, each case first runs a step clean (so that old outputs exist), then
# breaks the tree as a developer might and reruns the step incrementally through
# scripts/run_tests.sh; the step must go red:
#   1. a syntax error in an Icarus bench (the old .vvp must not run)
#   2. a syntax error in the `ifdef FORMAL block of a module (old solver verdicts not read)
#   3. a bench that prints "RESULT ... fail=1 (TIMEOUT)" and exits 0 (scripts/runbench.sh)
#   4. a changed C model under a Verilator co-simulation: mt_fp32.c built truncating instead of
#      rounding; the harness must be relinked with it (Verilator's own make does not see it)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
w=$top/build/runner_test; rm -rf "$w"; mkdir -p "$w/tree"
(cd "$top" && git ls-files -co --exclude-standard | grep -v '^build/' | tar -cf - -T - ) | tar -xf - -C "$w/tree"
cd "$w/tree" || exit 1
# last line of run_tests.sh: "N passed, M failed"
failed_of() { MAKE="make" scripts/run_tests.sh "$@" 2>&1 | tee -a "$w/log" | tail -1 | awk '{print $3}'; }

# 1. Icarus compile failure
[[ $(failed_of t-router-tb-mt_rt_watchdog) == 0 ]] || bad "watchdog bench not green before the break"
echo "this is not verilog;" >>tb/rtl/tb_mt_rt_watchdog.sv
n=$(failed_of t-router-tb-mt_rt_watchdog)
[[ $n -ge 1 ]] && ok "a bench that does not compile fails its step ($n failed)" || bad "a bench that does not compile passed (old .vvp ran)"

# 2. formal block with a syntax error
[[ $(failed_of t-ni-formal) == 0 ]] || bad "t-ni-formal not green before the break"
sed -i '0,/^`ifdef FORMAL$/s//`ifdef FORMAL\n  this is not verilog;/' rtl/mt_ni_issue.sv
grep -q 'this is not verilog' rtl/mt_ni_issue.sv || bad "could not break the formal block"
n=$(failed_of t-ni-formal)
[[ $n -ge 1 ]] && ok "a formal block that does not parse fails its step ($n failed)" || bad "a broken formal block passed (old verdicts read)"

# 3. a timeout line with exit status 0
scripts/runbench.sh t-fake-timeout 10 bash -c 'echo "RESULT fake pass=3 fail=1 (TIMEOUT)"; exit 0' >/dev/null
read -r a b _ <build/results/t-fake-timeout.result
[[ $a == 3 && $b -ge 1 ]] && ok "a bench timeout line counts as a failure ($a passed, $b failed)" || bad "a timeout line counted as $a passed, $b failed"

# 4. stale C model under a co-simulation
[[ $(failed_of t-reduce-cosim) == 0 ]] || bad "t-reduce-cosim not green before the break"
sed -i '0,/^#include "util\/mt_fp32.h"/s//#define MT_FP32_MUTANT_TRUNC\n#include "util\/mt_fp32.h"/' cmodel/util/mt_fp32.c
grep -q '^#define MT_FP32_MUTANT_TRUNC' cmodel/util/mt_fp32.c || bad "could not break mt_fp32.c"
n=$(REDUCE_COSIM_PAIRS=200000 failed_of t-reduce-cosim)
[[ $n -ge 1 ]] && ok "a changed C model is relinked into the co-simulation ($n failed)" || bad "the co-simulation ran the old C model"

echo "RESULT runner_test pass=$p fail=$f"
[[ $f -eq 0 ]] && rm -rf "$w"
[[ $f -eq 0 ]]
