#!/usr/bin/env bash
# fig11.sh [BIN]: the paper's Fig. 11 (docs/reference/training.md): one training iteration of each model
# of FIG11_MODELS for ring, dbtree, ring2d (256-byte packets), MultiTree with packets and with
# messages, non-overlapped (Fig. 11a) and layer-wise overlapped (Fig. 11b), on FIG11_TOPO with
# FIG11_CONFIG (paper; paper-sim once that configuration exists). Runs `multitree train` per
# (model, algorithm, mode) through GNU parallel (-j JOBS, default 1); the all-reduce times are
# cached in OUT/cache.txt (reruns are free). Writes OUT/runs/*.json, docs/results/fig11_<XxY>.csv
# (FIG11_CSV) and a stacked-bar PNG normalised to Ring (FIG11_PNG; gnuplot).
# Env: FIG11_MODELS (default all seven), FIG11_VARIANTS (ALGO:FLOW ..., default the five), FIG11_TOPO (torus:8x8), FIG11_CONFIG (paper), JOBS (1),
# FIG11_LEVEL (cycle, default: the cycle model; flow: the flow-level simulator, seconds a model),
# OUT (build/fig11), FIG11_CSV, FIG11_PNG.
set -u
cd "$(dirname "$0")/.."
BIN=$(realpath -m "${1:-build/multitree}")
OUT=${OUT:-build/fig11}
MODELS=${FIG11_MODELS:-alexnet alphagozero fasterrcnn googlenet ncf resnet50 transformer}
TOPO=${FIG11_TOPO:-torus:8x8}
CFG=${FIG11_CONFIG:-paper}
LEVEL=${FIG11_LEVEL:-cycle}
CSV=${FIG11_CSV:-docs/results/fig11_${TOPO##*:}.csv}
PNG=${FIG11_PNG:-docs/results/fig11_${TOPO##*:}.png}
VARIANTS=${FIG11_VARIANTS:-"ring:packet dbtree:packet ring2d:packet multitree:packet multitree:message"}
mkdir -p "$OUT/runs" "$(dirname "$CSV")"
for m in $MODELS; do for v in $VARIANTS; do for mode in plain overlap; do
  echo "$m ${v%%:*} ${v##*:} $mode"
done; done; done >"$OUT/jobs.txt"
run() { # MODEL ALGO FLOW MODE
  local tag="$1_${TOPO//[:,]/_}_$2_$3_$4_$CFG" extra=()
  [[ $LEVEL == cycle ]] || { tag+="_$LEVEL"; extra+=(--level "$LEVEL"); }
  [[ $3 == message ]] && extra+=(--msg)
  [[ $4 == overlap ]] && extra+=(--overlap)
  nice -n 10 "$BIN" train --model "$1" --topo "$TOPO" --algo "$2" --config "$CFG" "${extra[@]}" --cache "$OUT/cache.txt" \
    --json "$OUT/runs/$tag.json" >"$OUT/runs/$tag.log" 2>&1
}
export -f run
export BIN TOPO CFG OUT LEVEL
parallel -j "${JOBS:-1}" --colsep ' ' --joblog "$OUT/joblog" run {1} {2} {3} {4} <"$OUT/jobs.txt"
rc=$?
python3 - "$OUT/runs" "$CSV" "$TOPO" "$CFG" "$LEVEL" <<'PY'
import glob, json, sys
runs, csv, topo, cfg, level = sys.argv[1:6]
rows = {}
for p in glob.glob(runs + "/*.json"):
    d = json.load(open(p))
    if d["topology"] != topo or d["config"] != cfg or d.get("level", "cycle") != level:
        continue
    name = {"ring": "Ring", "dbtree": "DBTree", "ring2d": "2D-Ring"}.get(d["algorithm"], "MultiTree")
    if d["algorithm"] == "multitree" and d["flow"] == "message":
        name = "MultiTreeMsg"
    rows[(d["model"], name, "overlap" if d["overlap"] else "plain")] = d
order = ["Ring", "DBTree", "2D-Ring", "MultiTree", "MultiTreeMsg"]
with open(csv, "w") as f:
    f.write("model,variant,mode,topology,config,compute_cycles,allreduce_cycles,exposed_cycles,overlapped_cycles,total_cycles,"
            "total_vs_ring,compute_vs_ring,overlapped_vs_ring,exposed_vs_ring,allreduce_speedup_vs_ring\n")
    for (m, v, mode) in sorted(rows, key=lambda k: (k[0], k[2], order.index(k[1]))):
        d, r = rows[(m, v, mode)], rows.get((m, "Ring", mode))
        n = lambda x: "%.4f" % (x / r["total_cycles"]) if r else ""
        sp = "%.3f" % (r["allreduce_cycles"] / d["allreduce_cycles"]) if r and d["allreduce_cycles"] else ""
        f.write("%s,%s,%s,%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s\n" % (m, v, mode, topo, cfg, d["compute_cycles"], d["allreduce_cycles"],
                d["exposed_cycles"], d["overlapped_cycles"], d["total_cycles"], n(d["total_cycles"]), n(d["compute_cycles"] - d["overlapped_cycles"]),
                n(d["overlapped_cycles"]), n(d["exposed_cycles"]), sp))
print("fig11: %d runs into %s" % (len(rows), csv))
PY
if command -v gnuplot >/dev/null && [[ -s $CSV ]]; then
  # one bar per (model, variant): compute alone, compute under communication, exposed communication
  # (and the all-reduce's speedup over Ring, a line on the right axis, as the paper's Fig. 11a)
  awk -F, 'NR > 1 && $3 == "plain" {print $1 "/" $2, $12, $13, $14, $15}' "$CSV" >"$OUT/a.dat"
  awk -F, 'NR > 1 && $3 == "overlap" {print $1 "/" $2, $12, $13, $14, $15}' "$CSV" >"$OUT/b.dat"
  gnuplot <<GP
set terminal png size 1400,900
set output "$PNG"
set multiplot layout 2,1
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.8
set ylabel "time / Ring"
set xtics rotate by -60 font ",8"
set key outside right
set y2label "all-reduce speedup over Ring"
set y2range [0:*]
set y2tics
set title "Fig. 11a (non-overlapped), $TOPO, config $CFG, $LEVEL level"
plot "$OUT/a.dat" using 2:xtic(1) title "compute", '' using 3 title "compute under all-reduce", '' using 4 title "exposed all-reduce", \\
  '' using 0:5 axes x1y2 with points pt 7 ps 1.5 lc rgb "black" title "all-reduce speedup over Ring"
unset y2tics
unset y2label
set title "Fig. 11b (layer-wise overlapped), $TOPO, config $CFG, $LEVEL level"
plot "$OUT/b.dat" using 2:xtic(1) title "compute", '' using 3 title "compute under all-reduce", '' using 4 title "exposed all-reduce"
unset multiplot
GP
fi
exit $rc
