#!/usr/bin/env bash
# lint.sh: (1) rtl/mt_common_pkg.sv is what scripts/gen_mt_pkg.c makes from cmodel/fmt/mt_formats.h
# (regenerated into $BUILD/fmt/, any difference fails, naming the file); (2) every rtl/*.sv as
# its own top under `verilator --lint-only -Wall`, then all of rtl/ through Yosys
# (read_verilog -sv) and Icarus (-g2012), the package first; (3) mt_ni in its bandwidth shapes
# (receive engines E, memory ports M) and (4) mt_router as a switch under Verilator -Wall,
# Yosys and Icarus.
# Prints RESULT lint pass=N fail=M.
# LINT_RTL (default rtl), LINT_FMT (default cmodel), BUILD (default build) and LINT_PKG_ONLY
# (only step 1) let tb/lint/test_lint_pkg.sh run it on copies.
set -u
cd "$(dirname "$0")/.."
RTL=${LINT_RTL:-rtl}; FMT=${LINT_FMT:-cmodel}; BUILD=${BUILD:-build}
pass=0; fail=0
mkdir -p "$BUILD/fmt"
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$FMT" scripts/gen_mt_pkg.c "$FMT/fmt/mt_entry.c" -o "$BUILD/fmt/gen_mt_pkg" 2>"$BUILD/fmt/gen.log" &&
   "$BUILD/fmt/gen_mt_pkg" >"$BUILD/fmt/mt_common_pkg.sv"; then
  if cmp -s "$BUILD/fmt/mt_common_pkg.sv" "$RTL/mt_common_pkg.sv"; then pass=$((pass+1))
  else fail=$((fail+1)); echo "$RTL/mt_common_pkg.sv differs from what scripts/gen_mt_pkg.c makes of $FMT/fmt/mt_formats.h (make rtl-pkg):"
       diff "$BUILD/fmt/mt_common_pkg.sv" "$RTL/mt_common_pkg.sv" | head -10; fi
else fail=$((fail+1)); echo "scripts/gen_mt_pkg.c: build or run failed"; head -20 "$BUILD/fmt/gen.log"; fi
if [[ -n ${LINT_PKG_ONLY:-} ]]; then echo "RESULT lint pass=$pass fail=$fail"; [[ $fail -eq 0 ]]; exit; fi
files="$RTL/mt_common_pkg.sv $(ls "$RTL"/*.sv 2>/dev/null | grep -v '/mt_common_pkg\.sv$' | sort | tr '\n' ' ')"
for f in $files; do
  top=$(basename "$f" .sv)
  if out=$(verilator --lint-only -Wall -I"$RTL" --top-module "$top" $files 2>&1); then pass=$((pass+1))
  else fail=$((fail+1)); echo "verilator -Wall: $f"; echo "$out" | head -20; fi
done
if out=$(yosys -q -p "read_verilog -sv $files; hierarchy; proc; check -assert" 2>&1); then pass=$((pass+1))
else fail=$((fail+1)); echo "yosys:"; echo "$out" | head -20; fi
if out=$(iverilog -g2012 -I"$RTL" -o /dev/null $files 2>&1); then pass=$((pass+1))
else fail=$((fail+1)); echo "iverilog:"; echo "$out" | head -20; fi
# shapes MODULE "K=V ..."...: the module with each set of parameters under Verilator -Wall,
# Yosys (chparam) and Icarus (-P)
shapes() {
  local top=$1 sh kv g c i out; shift
  [[ -f $RTL/$top.sv ]] || return 0
  for sh in "$@"; do
    g=""; c=""; i=""
    for kv in $sh; do g="$g -G$kv"; c="$c -set ${kv%%=*} ${kv#*=}"; i="$i -P$top.$kv"; done
    if out=$(verilator --lint-only -Wall -I"$RTL" --top-module "$top" $g $files 2>&1); then pass=$((pass+1))
    else fail=$((fail+1)); echo "verilator -Wall: $top $sh"; echo "$out" | head -20; fi
    if out=$(yosys -q -p "read_verilog -sv -defer $files; chparam$c $top; hierarchy -top $top; proc; check -assert" 2>&1); then pass=$((pass+1))
    else fail=$((fail+1)); echo "yosys: $top $sh"; echo "$out" | head -20; fi
    if out=$(iverilog -g2012 -I"$RTL" -s "$top" $i -o /dev/null $files 2>&1); then pass=$((pass+1))
    else fail=$((fail+1)); echo "iverilog: $top $sh"; echo "$out" | head -20; fi
  done
}
# the NI's bandwidth shapes (L = 4, 2 VCs): E < L, E = L, E = 2L with M = 1, L + E, L + 2E, chained or not
shapes mt_ni "RxEngines=2" "RxEngines=2 MemPorts=8 ReduceChain=1" "RxEngines=4 MemPorts=8" "RxEngines=8" "RxEngines=8 MemPorts=20 ReduceChain=1"
# the NI with the stager (mt_ni_stage): the one-engine NI, and engines sharing one port / the paper NI
shapes mt_ni "StageAfter=50 StageRanges=4" "StageAfter=50 RxEngines=2 StageRanges=4" "StageAfter=50 RxEngines=8 MemPorts=20 ReduceChain=1"
# the router as a switch (Table = 1, docs/reference/switch.md): 2 hop classes; no NI port (a fat-tree's
# top switch); no network port (a single switch). mt_swnet_top's defaults (fattree:4,2) lint
# the 4 + 4 and 4 + 0 switches.
shapes mt_router "Table=1 NetPorts=2 L=2 HopClasses=2 Nodes=37" "Table=1 NetPorts=4 L=0" "Table=1 NetPorts=0 L=3 NumVcs=6 HopClasses=3"
# the network as 3-D (a 2x2x2 mesh of the default nodes; the default top is 2-D)
shapes mt_net_top "NZ=2"
echo "RESULT lint pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
