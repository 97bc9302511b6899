#!/usr/bin/env bash
# fig10_flow.sh [BIN]: the paper's Fig. 10 (weak scaling, FIG10_KIB x N KiB on N-node tori,
# paper: 375) at the flow level (docs/reference/flowsim.md), every size up to 16x16 in about a second,
# beside the cycle model's runs of the same points where docs/results/fig10_375k.csv has them
# (the flow level's error per point). Writes OUT/runs/*.json and FIG10F_CSV (default
# docs/results/fig10_375k_flow.csv): topology, nodes, algorithm, flow, bytes, flow-level
# cycles, normalised to Ring at the smallest N, fraction of the lower bound, the cycle model's
# cycles and the error in %. Env: FIG10_SIDES (4 6 8 10 12 14 16), FIG10_KIB (375), JOBS (2),
# OUT (build/fig10_flow), FIG10F_CSV, FIG10_CYCLE_CSV (docs/results/fig10_375k.csv).
set -u
cd "$(dirname "$0")/.."
BIN=$(realpath -m "${1:-build/multitree}")
OUT=${OUT:-build/fig10_flow}
KIB=${FIG10_KIB:-375}
CSV=${FIG10F_CSV:-docs/results/fig10_375k_flow.csv}
CYC=${FIG10_CYCLE_CSV:-docs/results/fig10_375k.csv}
mkdir -p "$OUT/runs"
for n in ${FIG10_SIDES:-4 6 8 10 12 14 16}; do
  for v in ring:packet ring2d:packet multitree:packet multitree:message; do echo "$n ${v%%:*} ${v##*:}"; done
done | parallel -j "${JOBS:-2}" --colsep ' ' --halt now,fail=1 \
  "nice -n 10 '$BIN' sim --level flow --topo torus:{1}x{1} --algo {2} --flow {3} --bytes \$(($KIB * 1024 * {1} * {1})) --config paper \
     --json '$OUT/runs/{1}_{2}_{3}.json' >'$OUT/runs/{1}_{2}_{3}.log' 2>&1" || { echo "fig10_flow: a run failed (see $OUT/runs/*.log)" >&2; exit 1; }
python3 - "$OUT/runs" "$CSV" "$CYC" <<'PY'
import csv, glob, json, os, sys
runs, out, cyc_csv = sys.argv[1:4]
cyc = {}
if os.path.exists(cyc_csv):
    for r in csv.DictReader(open(cyc_csv)):
        cyc[(r["topology"], r["algorithm"], r["flow"], int(r["bytes"]))] = int(r["cycles"])
rows = [json.load(open(p)) for p in glob.glob(runs + "/*.json")]
rows.sort(key=lambda j: (j["nodes"], ["ring", "ring2d", "multitree"].index(j["algorithm"]), j["flow"]))
ring0 = min((j for j in rows if j["algorithm"] == "ring"), key=lambda j: j["nodes"])["time"]
worst = 0.0
with open(out, "w") as f:
    f.write("topology,nodes,algorithm,flow,bytes,flow_cycles,vs_ring_smallest,lower_bound_fraction,cycle_model_cycles,error_pct\n")
    for j in rows:
        c = cyc.get((j["topology"], j["algorithm"], j["flow"], j["bytes"]))
        e = 100.0 * (j["time"] - c) / c if c else None
        worst = max(worst, abs(e)) if e is not None else worst
        f.write("%s,%d,%s,%s,%d,%.0f,%.3f,%.4f,%s,%s\n" % (j["topology"], j["nodes"], j["algorithm"], j["flow"], j["bytes"], j["time"],
                j["time"] / ring0, j["lower_bound_fraction"], c if c else "", "%+.3f" % e if e is not None else ""))
n = sum(1 for j in rows if (j["topology"], j["algorithm"], j["flow"], j["bytes"]) in cyc)
print("fig10_flow: %d runs into %s; %d with a cycle-model run, the flow level within %.3f %% of them" % (len(rows), out, n, worst))
PY
