#!/usr/bin/env bash
# flowsim_validate.sh BIN OUTDIR [CASES_FILE]: the flow level against the cycle model
# (issue #15 item 5, docs/reference/flowsim.md "Validation"). Every case (a line "TOPO ALGO FLOW CONFIG
# BYTES" of CASES_FILE, default the list below) runs `BIN sim` at both levels (the cycle level
# with --data none, timing only: the same cycles as a checked run) through GNU parallel
# (JOBS, default 1; niced); a case whose two JSON files exist is not run again (resume;
# delete OUTDIR/*.flow.json to rerun only the flow level with a new build).
# Then OUTDIR/table.md: one row per case with both times and the flow level's error, and
# OUTDIR/table.csv. Prints RESULT flowsim_validate pass=N fail=M (fail: |error| > 10 %).
set -euo pipefail
bin=$(realpath "$1"); out=$2; cases=${3:-}
jobs=${JOBS:-1}
mkdir -p "$out"
if [[ -z $cases ]]; then
  cases=$out/cases.txt
  cat >"$cases" <<'EOF'
torus:4x4 multitree message small 1M
torus:4x4 multitree message paper 1M
torus:4x4 multitree packet small 1M
torus:4x4 multitree packet paper 1M
torus:4x4 ring message small 1M
torus:4x4 ring message paper 1M
torus:4x4 ring2d message small 1M
torus:4x4 ring2d message paper 1M
torus:4x4 dbtree message small 1M
torus:4x4 dbtree message paper 1M
torus:4x4 hd message small 1M
torus:4x4 hd message paper 1M
torus:4x4 multitree message paper 16M
torus:4x4 ring message paper 16M
torus:4x4 ring2d message small 16M
torus:4x4 multitree packet small 16M
mesh:4x4 multitree message paper 1M
mesh:4x4 ring2d message small 4M
mesh:4x4 dbtree message paper 4M
torus:8x8 multitree message paper 1M
torus:8x8 multitree packet paper 1M
torus:8x8 multitree message small 4M
torus:8x8 ring message paper 4M
torus:8x8 ring2d message small 1M
torus:8x8 ring2d message paper 16M
torus:8x8 dbtree message paper 1M
torus:8x8 hd message paper 1M
torus:8x8 hd message paper 4M
mesh:8x8 multitree message paper 4M
torus:8x8 multitree message paper 64M
fattree:4,2 multitree message paper 1M
dgx2 multitree message paper 1M
fattree:4,2 ring message paper 1M
dgx2 hd message paper 1M
torus:4x4 hier message paper 1M
torus:4x4 hier message small 4M
torus:4x4x4 multitree message paper 1M
torus:4x4x4 hier message paper 1M
torus:8x8 dbtree message paper 4M
mesh:4x4 hd message paper 4M
mesh:4x4 hd message small 4M
mesh:4x4 dbtree message small 4M
EOF
fi
run_case() {
  local bin=$1 out=$2 topo=$3 algo=$4 flow=$5 cfg=$6 bytes=$7
  local id="${topo//[:,]/_}-$algo-$flow-$cfg-$bytes"
  [[ -s $out/$id.cyc.json ]] || { nice "$bin" sim --topo "$topo" --algo "$algo" --flow "$flow" --config "$cfg" --bytes "$bytes" \
    --data none --json "$out/$id.cyc.json.tmp" >"$out/$id.cyc.log" 2>&1 && mv "$out/$id.cyc.json.tmp" "$out/$id.cyc.json"; } || true
  [[ -s $out/$id.flow.json ]] || { nice "$bin" sim --level flow --topo "$topo" --algo "$algo" --flow "$flow" --config "$cfg" --bytes "$bytes" \
    --json "$out/$id.flow.json.tmp" >"$out/$id.flow.log" 2>&1 && mv "$out/$id.flow.json.tmp" "$out/$id.flow.json"; } || true
}
export -f run_case
grep -v '^\s*#' "$cases" | grep -v '^\s*$' | parallel -j "$jobs" --colsep ' ' run_case "$bin" "$out" {1} {2} {3} {4} {5}
python3 - "$out" "$cases" <<'EOF'
import json, os, sys
out, cases = sys.argv[1], sys.argv[2]
rows, ok, bad = [], 0, 0
for line in open(cases):
    if not line.strip() or line.lstrip().startswith('#'): continue
    topo, algo, flow, cfg, b = line.split()
    i = f"{topo.replace(':', '_').replace(',', '_')}-{algo}-{flow}-{cfg}-{b}"
    try:
        c = json.load(open(f"{out}/{i}.cyc.json")); f = json.load(open(f"{out}/{i}.flow.json"))
    except (OSError, ValueError):
        rows.append((topo, algo, flow, cfg, b, "-", "-", "missing", "-", "-")); bad += 1; continue
    err = (f["time"] - c["cycles"]) / c["cycles"] * 100
    ok, bad = (ok + 1, bad) if abs(err) <= 10 else (ok, bad + 1)
    rows.append((topo, algo, flow, cfg, b, c["cycles"], round(f["time"]), f"{err:+.1f}", f"{c['wall_s']:.1f}", f"{f['wall_s']:.3f}"))
hdr = ("topology", "algorithm", "flow control", "config", "bytes", "cycle model (cycles)", "flow level (cycles)", "error %", "cycle wall s", "flow wall s")
with open(f"{out}/table.md", "w") as t:
    t.write("| " + " | ".join(hdr) + " |\n|" + "---|" * len(hdr) + "\n")
    for r in rows: t.write("| " + " | ".join(str(x) for x in r) + " |\n")
with open(f"{out}/table.csv", "w") as t:
    t.write(",".join(hdr) + "\n")
    for r in rows: t.write(",".join(str(x) for x in r) + "\n")
print(open(f"{out}/table.md").read(), end="")
print(f"within 10%: {ok} of {ok + bad}")
print(f"RESULT flowsim_validate pass={ok} fail={bad}")
EOF
