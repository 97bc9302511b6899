#!/usr/bin/env bash
# lint.sh [quick|yosys|all|full]: the RTL lint, its independent checks run in parallel (GNU parallel,
# LINT_JOBS at a time, default: the number of cores).
#   quick (make lint, make check): (1) rtl/mt_common_pkg.sv is what scripts/gen_mt_pkg.c makes
#         of cmodel/fmt/mt_formats.h (any difference fails, naming the file); (2) every rtl/*.sv
#         as its own top under `verilator --lint-only -Wall`, and all of rtl/ without a top; all of
#         rtl/ through Icarus (-g2012)
#         and Yosys (read_verilog -sv), the package first; (3) the shapes below (mt_ni's
#         bandwidth and stager shapes, mt_router as a switch, the 3-D network) under Verilator
#         -Wall, Icarus (-P) and Yosys elaboration (chparam; hierarchy -top).
#   yosys: Yosys's structural checks (proc; check -assert: no multiple drivers, no combinational
#         loops) on all of rtl/ and on every shape. Most of lint's time is here: `proc` of the
#         paper NI's shapes and of the 3-D network.
#   all (make test's t-lint): both, without quick's Yosys jobs (proc elaborates and reads too),
#         and with the heavy shapes (marked ! below: the paper NI, with and without the stager,
#         and the 3-D network, about 100 CPU-seconds of proc) elaborated only.
#   full (make lint-full): all, with proc + check of the heavy shapes too.
# Prints one line per failing check and RESULT lint pass=N fail=M.
# LINT_RTL (default rtl), LINT_FMT (default cmodel), BUILD (default build), LINT_PKG_ONLY (only
# check 1) and LINT_ONLY (a regular expression: only the checks whose name matches) let
# tb/lint/test_lint_pkg.sh and tb/lint/test_lint_rtl.sh run it on copies.
set -u
cd "$(dirname "$0")/.."
mode=${1:-all}
case $mode in quick|yosys|all|full) ;; *) echo "lint.sh: mode '$mode': quick, yosys, all or full" >&2; exit 2;; esac
RTL=${LINT_RTL:-rtl}; FMT=${LINT_FMT:-cmodel}; BUILD=${BUILD:-build}
pass=0; fail=0
mkdir -p "$BUILD/lint"
if [[ $mode != yosys ]]; then
  if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$FMT" scripts/gen_mt_pkg.c "$FMT/fmt/mt_entry.c" -o "$BUILD/lint/gen_mt_pkg" 2>"$BUILD/lint/gen.log" &&
     "$BUILD/lint/gen_mt_pkg" >"$BUILD/lint/mt_common_pkg.sv"; then
    if cmp -s "$BUILD/lint/mt_common_pkg.sv" "$RTL/mt_common_pkg.sv"; then pass=$((pass+1))
    else fail=$((fail+1)); echo "$RTL/mt_common_pkg.sv differs from what scripts/gen_mt_pkg.c makes of $FMT/fmt/mt_formats.h (make rtl-pkg):"
         diff "$BUILD/lint/mt_common_pkg.sv" "$RTL/mt_common_pkg.sv" | head -10; fi
  else fail=$((fail+1)); echo "scripts/gen_mt_pkg.c: build or run failed"; head -20 "$BUILD/lint/gen.log"; fi
  if [[ -n ${LINT_PKG_ONLY:-} ]]; then echo "RESULT lint pass=$pass fail=$fail"; [[ $fail -eq 0 ]]; exit; fi
fi
files="$RTL/mt_common_pkg.sv $(ls "$RTL"/*.sv 2>/dev/null | grep -v '/mt_common_pkg\.sv$' | sort | tr '\n' ' ')"
# the jobs, one per line: a name, a tab, a command (run by bash; quiet when it passes)
jobs=$BUILD/lint/jobs.$mode; : >"$jobs"
job() { [[ -z ${LINT_ONLY:-} || $1 =~ $LINT_ONLY ]] && printf '%s\t%s\n' "$1" "$2" >>"$jobs"; return 0; }
# shapes MODULE "K=V ..."...: the module with each set of parameters
shapes() {
  local top=$1 sh kv g c i; shift
  [[ -f $RTL/$top.sv ]] || return 0
  for sh in "$@"; do
    local heavy=0; [[ $sh == !* ]] && { heavy=1; sh=${sh#!}; }
    g=""; c=""; i=""
    for kv in $sh; do g="$g -G$kv"; c="$c -set ${kv%%=*} ${kv#*=}"; i="$i -P$top.$kv"; done
    if [[ $mode != yosys ]]; then
      job "verilator -Wall: $top $sh" "verilator --lint-only -Wall -I$RTL --top-module $top $g $files"
      job "iverilog: $top $sh" "iverilog -g2012 -I$RTL -s $top $i -o /dev/null $files"
      [[ $mode == all && $heavy == 0 || $mode == full ]] ||
        job "yosys (elaborate): $top $sh" "yosys -q -p 'read_verilog -sv -defer $files; chparam$c $top; hierarchy -top $top'"
    fi
    [[ $mode == quick || $mode == all && $heavy == 1 ]] ||
      job "yosys (proc; check -assert): $top $sh" "yosys -q -p 'read_verilog -sv -defer $files; chparam$c $top; hierarchy -top $top; proc; check -assert'"
  done
}
# the slow Yosys jobs first, so that the parallel run ends with the short ones
[[ $mode == quick ]] || job "yosys (proc; check -assert): rtl/" "yosys -q -p 'read_verilog -sv $files; hierarchy; proc; check -assert'"
# the NI's bandwidth shapes (L = 4, 2 VCs): E < L, E = L, E = 2L with M = 1, L + E, L + 2E, chained or not
shapes mt_ni "!RxEngines=8 MemPorts=20 ReduceChain=1" "RxEngines=2" "RxEngines=2 MemPorts=8 ReduceChain=1" "RxEngines=4 MemPorts=8" "RxEngines=8"
# the NI with the stager (mt_ni_stage): the one-engine NI, and engines sharing one port / the paper NI
shapes mt_ni "!StageAfter=50 RxEngines=8 MemPorts=20 ReduceChain=1" "StageAfter=50 StageRanges=4" "StageAfter=50 RxEngines=2 StageRanges=4"
# the network as 3-D (a 2x2x2 mesh of the default nodes; the default top is 2-D)
shapes mt_net_top "!NZ=2"
# the router as a switch (Table = 1, docs/reference/switch.md): 2 hop classes; no NI port (a fat-tree's
# top switch); no network port (a single switch). mt_swnet_top's defaults (fattree:4,2) lint
# the 4 + 4 and 4 + 0 switches.
shapes mt_router "Table=1 NetPorts=2 L=2 HopClasses=2 Nodes=37" "Table=1 NetPorts=4 L=0" "Table=1 NetPorts=0 L=3 NumVcs=6 HopClasses=3"
# the VC buffers in block RAM (BufRam, docs/reference/router.md "VC buffers in block RAM"), with
# and without the front register's side band
shapes mt_router "BufRam=1" "BufRam=1 RtPipe=1 VcDepth=2 EjDepth=2 SubPktFlits=2"
# the reduction unit's adder pipeline (Pipe, docs/reference/reduction.md "Pipeline"), alone and in the NI
shapes mt_reduce_alu "Pipe=1" "Pipe=2"
shapes mt_ni "AluPipe=2" "!AluPipe=1 RxEngines=8 MemPorts=20 ReduceChain=1"
if [[ $mode != yosys ]]; then
  for f in $files; do
    top=$(basename "$f" .sv)
    job "verilator -Wall: $f" "verilator --lint-only -Wall -I$RTL --top-module $top $files"
  done
  # all of rtl/ without a top, as a user's lint of the directory runs it (every extra top waived)
  job "verilator -Wall: rtl/" "verilator --lint-only -Wall -I$RTL $files"
  [[ $mode == all || $mode == full ]] || job "yosys (read): rtl/" "yosys -q -p 'read_verilog -sv $files'"
  job "iverilog: rtl/" "iverilog -g2012 -I$RTL -o /dev/null $files"
fi
# each job prints "ok NAME" or "FAIL NAME" and the first lines of its output (Icarus's "sorry:
# constant selects" notes are not failures and not shown)
run_job() {
  local out
  if out=$(bash -c "$2" 2>&1); then echo "ok	$1"
  else echo "FAIL	$1"; grep -v 'sorry: constant selects' <<<"$out" | head -20 | sed 's/^/  /'; fi
}
export -f run_job
out=$(parallel --will-cite --jobs "${LINT_JOBS:-$(nproc)}" --colsep '\t' --keep-order run_job {1} {2} :::: "$jobs")
p=$(grep -c '^ok	' <<<"$out"); f=$(grep -c '^FAIL	' <<<"$out")
grep -v '^ok	' <<<"$out"
n=$(wc -l <"$jobs")
if (( p + f != n )); then echo "lint.sh: $n checks, $((p + f)) reported"; f=$((f + n - p - f)); fi
pass=$((pass + p)); fail=$((fail + f))
# the FuseSoC core (multitree.core, make fpga) lists every file of rtl/ (in a full run)
[[ -n ${LINT_ONLY:-} ]] || for r in "$RTL"/*.sv "$RTL"/*.svh; do
  if grep -q "^      - rtl/$(basename "$r")\b" "$RTL/../multitree.core"; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL	multitree.core does not list rtl/$(basename "$r")"; fi
done
echo "RESULT lint pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
