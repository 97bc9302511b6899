#!/usr/bin/env bash
# bench_rtl.sh: speed of the Verilated RTL network (docs/results/bench.md "RTL simulation speed").
# For each shape (torus 2x2, 4x4, 8x8; configuration small and paper = Table III, with the
# configuration's NI: the paper NI, 8 receive engines, 20 memory ports, chained reduction,
# for both): one Verilator build (timed), then a MultiTree
# all-reduce of BENCH_RTL_BYTES run twice with tb/cosim/cosim_net.cpp: --rtl-only (the RTL
# and its memories alone; then the C model alone, cycle counts and buffers compared at the
# end) and in lockstep with the C model (every link, local port and NI output compared every
# cycle). Prints a markdown table and writes it to build/bench/rtl.md and into docs/results/bench.md
# ("RTL simulation speed") between the lines <!-- bench-rtl begin --> and <!-- bench-rtl end --> (BENCH_RTL_DOC=0: not).
# Node-cycles/s = RTL alone cycles/s x nodes (the cost per node and cycle, comparable across sizes).
# Also writes build/bench/rtl.json (scripts/results_json.py, kind bench-rtl: one row per shape and
# byte count, {shape, nodes, bytes, cycles, build_s, rtl_cycles_per_s, lockstep_cycles_per_s,
# rtl_node_cycles_per_s, passed}; a row replaces the row of the same shape and bytes, the others
# are kept) and checks it.
# Environment: NET_VERILATE, NET_VSRC, NET_TOP (mk/net.mk), BENCH_RTL_HIER (2, the default:
# DPI-stepped nodes; 1: Verilator's hierarchical build; 0: flat; scripts/net_verilate.sh), BENCH_RTL_COPT (C++ optimisation, -O2),
# BENCH_RTL_BYTES (65536), BENCH_RTL_SHAPES (default "t2x2:small t2x2:paper t4x4:small
# t4x4:paper t8x8:small t8x8:paper"; a shape tNxM:CFG[:KEY=VALUE...] takes the hardware fields
# of configuration CFG with KEY=VALUE set on top, e.g. t8x8:paper:rt_pipe=1; the table's rt_pipe
# column is the router pipeline the build has, the configuration's unless set; threads=N, not
# a hardware field, builds the top on N threads with the nodes' steps spread over them:
# NET_THREADS of scripts/net_verilate.sh), BENCH_RTL_PGO (1, the default with BENCH_RTL_HIER=2: the
# node's C++ profile-guided, trained on a 16 KiB MultiTree run of the shape; 0: not),
# BENCH_RTL_REUSE=1 (keep an existing build of the same
# flags; its build time is then not measured), BENCH_RTL_RUNS ("alone lockstep", the default;
# "lockstep": the lockstep run alone, as for the 64 MiB all-reduce: docs/results/bench.md).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
BUILD=${BUILD:-build}
hier=${BENCH_RTL_HIER:-2}
copt=${BENCH_RTL_COPT:--O2}
bytes=${BENCH_RTL_BYTES:-65536}
shapes=${BENCH_RTL_SHAPES:-t2x2:small t2x2:paper t4x4:small t4x4:paper t8x8:small t8x8:paper}
reuse=${BENCH_RTL_REUSE:-0}
pgo=${BENCH_RTL_PGO:-1}
runs=${BENCH_RTL_RUNS:-alone lockstep}
[[ $hier == 2 ]] || pgo=0
params=$BUILD/net/cosim_net_params
out=$BUILD/bench/rtl.md
json=$BUILD/bench/rtl.json
dir=$BUILD/bench/rtl
mkdir -p "$dir/rows"
fail=0

hier_name() { case $hier in 1) echo hierarchical ;; 2) echo "DPI-stepped nodes" ;; *) echo flat ;; esac; }
# field NAME LINE: the number after "NAME " / "NAME=" in LINE
num() { sed -n "s/.*$1 *\([0-9][0-9.]*\).*/\1/p" <<<"$2" | head -1; }

{
  echo "# bench-rtl $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# $(verilator --version); build: $(hier_name), C++ $copt$([[ $pgo == 1 ]] && echo ' profile-guided'); MultiTree $bytes bytes, int32, message flow control, seed 1"
  echo "| shape | nodes | rt_pipe | threads | build s | cycles | RTL alone cycles/s | RTL alone node-cycles/s | lockstep cycles/s (wall) | in lockstep: Verilator / C model / comparisons s | result |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} | tee "$out"
for s in $shapes; do
  t=${s%%:*}; cfg=${s#*:}; sets=""
  if [[ $cfg == *:* ]]; then sets=${cfg#*:}; cfg=${cfg%%:*}; fi
  # threads=N: not a hardware field but the simulation's threads (NET_THREADS of net_verilate.sh)
  thr=$(tr ':' '\n' <<<"$sets" | sed -n 's/^threads=\([0-9][0-9]*\)$/\1/p'); thr=${thr:-1}
  sets=$(tr ':' '\n' <<<"$sets" | grep -v '^threads=' | paste -sd:)
  nx=${t#t}; nx=${nx%%x*}; ny=${t##*x}
  spec="topo=torus:${nx}x${ny} base=$cfg max_bytes=$bytes algos=multitree ${sets//:/ }"
  if ! flags=$("$params" --shape "$spec"); then echo "| $s | shape refused: $spec |"; fail=1; continue; fi
  # the router pipeline of the build (cosim_net_params gives -GRtPipe only when it is not 0)
  rtp=$(sed -n 's/.*-GRtPipe=\([0-9]*\).*/\1/p' <<<"$flags"); rtp=${rtp:-0}
  # the shape's name in file names: t8x8:paper:rt_pipe=1 -> paper.rt_pipe_1
  [[ -n $sets ]] && cfg="$cfg.$(tr ':=' '._' <<<"$sets")"
  [[ $thr != 1 ]] && cfg="$cfg.threads_$thr"
  tag=$(printf '%s|%s|%s%s|%s' "$flags" "$copt" "$hier" "$([[ $pgo == 1 ]] && echo '|pgo')" "$thr" | sha1sum | cut -c1-8)
  mdir=$dir/obj_${t}_${cfg}_$tag
  bs="reused"
  if [[ $reuse != 1 || ! -x $mdir/cosim_net ]]; then
    rm -rf "$mdir"
    t0=$(date +%s)
    if ! NET_THREADS=$thr NET_PGO=$([[ $pgo == 1 ]] && echo "--algo multitree --bytes 16384 --seed 1 --rtl-only") \
      nice scripts/net_verilate.sh "$mdir" "$hier" "$copt" $flags >"$dir/$t.$cfg.build.txt" 2>&1; then
      echo "| $t $cfg | $((nx * ny)) | $rtp | FAILED ($dir/$t.$cfg.build.txt) |" | tee -a "$out"
      fail=1
      continue
    fi
    bs=$(($(date +%s) - t0))
  fi
  run=(--algo multitree --bytes "$bytes" --seed 1 --max-cycles 5000000)
  : >"$dir/$t.$cfg.alone.log"; : >"$dir/$t.$cfg.lockstep.log"
  [[ " $runs " == *" alone "* ]] && "$mdir/cosim_net" "${run[@]}" --rtl-only >"$dir/$t.$cfg.alone.log" 2>&1
  [[ " $runs " == *" lockstep "* ]] && /usr/bin/time -f "max RSS %M KiB" -a -o "$dir/$t.$cfg.lockstep.log" \
    "$mdir/cosim_net" "${run[@]}" --progress >>"$dir/$t.$cfg.lockstep.log" 2>&1
  a=$(grep '^speed:' "$dir/$t.$cfg.alone.log"); l=$(grep '^speed:' "$dir/$t.$cfg.lockstep.log")
  ra=$(grep '^RESULT' "$dir/$t.$cfg.alone.log"); rl=$(grep '^RESULT' "$dir/$t.$cfg.lockstep.log")
  # a run not asked for (BENCH_RTL_RUNS) passes as "not run"
  [[ " $runs " == *" alone "* ]] || ra="not run fail=0"
  [[ " $runs " == *" lockstep "* ]] || rl="not run fail=0"
  ok="alone $(grep -o 'pass=.*\|not run' <<<"$ra" | head -1), lockstep $(grep -o 'pass=.*\|not run' <<<"$rl" | head -1)"
  [[ $ra == *" fail=0" && $rl == *" fail=0" ]] || fail=1
  cyc=$(num 'speed:' "$a"); [[ -n $cyc ]] || cyc=$(num 'speed:' "$l")
  va=$(sed -n 's/.*Verilator [0-9.]* s = \([0-9]*\) cycles\/s.*/\1/p' <<<"$a")
  lw=$(sed -n 's/.*wall (\([0-9]*\) co-simulated.*/\1/p' <<<"$l")
  lv=$(sed -n 's/.*Verilator \([0-9.]*\) s = .*/\1/p' <<<"$l")
  lc=$(sed -n 's/.*C model \([0-9.]*\) s = .*/\1/p' <<<"$l")
  lm=$(sed -n 's/.*comparisons \([0-9.]*\) s.*/\1/p' <<<"$l")
  nva=""; [[ $va =~ ^[0-9]+$ ]] && nva=$((va * nx * ny))
  echo "| torus ${nx}x$ny ${cfg%%.*}$([[ -n $sets ]] && echo " (${sets//:/, })") | $((nx * ny)) | $rtp | $thr | $bs | $cyc | $va | $nva | $lw | $lv / $lc / $lm | $ok |" | tee -a "$out"
  # the JSON row: a rate only from a run that passed
  int() { [[ $1 =~ ^[0-9]+$ ]] && echo "$1" || echo null; }
  pa=0; pl=0; [[ $ra == *" fail=0" ]] && pa=1; [[ $rl == *" fail=0" ]] && pl=1
  cat >"$dir/rows/$t.$cfg.$bytes.json" <<ROW
{"shape": "$s", "nodes": $((nx * ny)), "bytes": $bytes, "cycles": $(int "$cyc"), "build_s": $(int "$bs"),
 "rtl_cycles_per_s": $([[ $pa == 1 ]] && int "$va" || echo null), "lockstep_cycles_per_s": $([[ $pl == 1 ]] && int "$lw" || echo null),
 "rtl_node_cycles_per_s": $([[ $pa == 1 ]] && int "$nva" || echo null), "passed": $([[ $pa$pl == 11 ]] && echo true || echo false)}
ROW
  # a row has both rates: with a run left out (BENCH_RTL_RUNS) the table line alone
  if [[ " $runs " == *" alone "* && " $runs " == *" lockstep "* ]]; then
    scripts/results_json.py merge bench-rtl "$json" "$dir/rows/$t.$cfg.$bytes.json" || { echo "bench-rtl: $json fails its check" >&2; fail=1; }
  fi
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
# the latest run also goes into docs/results/bench.md, between its bench-rtl markers: the date
# and machine as the results pages state them ("Measured YYYY-MM-DD on ...", no load figures:
# scripts/lint_docs.sh), then the table
doc=docs/results/bench.md
if [[ ${BENCH_RTL_DOC:-1} == 1 ]] && grep -q '^<!-- bench-rtl begin -->$' "$doc" && grep -q '^<!-- bench-rtl end -->$' "$doc"; then
  {
    echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(verilator --version | cut -d' ' -f1-2); build: $(hier_name), C++ $copt$([[ $pgo == 1 ]] && echo " profile-guided"); MultiTree $bytes bytes, int32, message flow control, seed 1."
    echo
    grep '^|' "$out"
  } >"$out.doc"
  awk -v f="$out.doc" '/^<!-- bench-rtl begin -->$/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
                   /^<!-- bench-rtl end -->$/ { skip = 0 } !skip' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
  echo "bench-rtl: written to $doc (the bench-rtl block)"
fi
exit $fail
