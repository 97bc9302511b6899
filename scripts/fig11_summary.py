#!/usr/bin/env python3
"""fig11_summary.py CSV: the paper's Fig. 11 statements from scripts/fig11.sh's CSV, as a
markdown table: per model the communication share under Ring (non-overlapped), the
all-reduce speedups of MultiTreeMsg and MultiTree over Ring and 2D-Ring, and the training
time saved by MultiTreeMsg against Ring and 2D-Ring without and with overlap; then the
geometric means over the models (the paper averages its all-reduce speedups).
fig11_summary.py CSV OTHER_CSV: instead, per model, how much longer OTHER_CSV's non-overlapped
all-reduce is than CSV's for MultiTreeMsg and Ring (OTHER / CSV - 1; docs/results/fig11.md: the
paper-sim CSV against the paper CSV, the gain of this project's NI)."""
import csv, math, sys

rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    rows[(r["model"], r["variant"], r["mode"])] = r
models = sorted({k[0] for k in rows})
if len(sys.argv) > 2:
    other = {(r["model"], r["variant"], r["mode"]): r for r in csv.DictReader(open(sys.argv[2]))}
    print("| model | MultiTreeMsg: other / this - 1 | Ring: other / this - 1 |")
    print("|---|---|---|")
    for m in models:
        cells = []
        for v in ("MultiTreeMsg", "Ring"):
            a, b = rows.get((m, v, "plain")), other.get((m, v, "plain"))
            cells.append("%.1f%%" % (100 * (int(b["allreduce_cycles"]) / int(a["allreduce_cycles"]) - 1)) if a and b else "-")
        print("| %s | %s | %s |" % (m, cells[0], cells[1]))
    sys.exit(0)


def get(m, v, mode, f):
    r = rows.get((m, v, mode))
    return float(r[f]) if r else None


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(x, pct=False):
    if x is None:
        return "-"
    return "%.0f%%" % (100 * x) if pct else "%.2fx" % x


cols = ["model", "comm share, Ring", "AR speedup MTMsg/Ring", "MTMsg/2D-Ring", "MT/Ring", "MT/2D-Ring",
        "time saved vs Ring", "vs 2D-Ring", "time saved vs Ring, overlap", "vs 2D-Ring, overlap"]
print("| " + " | ".join(cols) + " |")
print("|" + "---|" * len(cols))
acc = {c: [] for c in cols[2:6]}
for m in models:
    share = ratio(get(m, "Ring", "plain", "allreduce_cycles"), get(m, "Ring", "plain", "total_cycles"))
    sp = [ratio(get(m, b, "plain", "allreduce_cycles"), get(m, a, "plain", "allreduce_cycles"))
          for a, b in (("MultiTreeMsg", "Ring"), ("MultiTreeMsg", "2D-Ring"), ("MultiTree", "Ring"), ("MultiTree", "2D-Ring"))]
    for c, x in zip(cols[2:6], sp):
        if x:
            acc[c].append(x)
    saved = []
    for mode in ("plain", "overlap"):
        for base in ("Ring", "2D-Ring"):
            t, b = get(m, "MultiTreeMsg", mode, "total_cycles"), get(m, base, mode, "total_cycles")
            saved.append(1 - t / b if t is not None and b else None)
    print("| " + " | ".join([m, fmt(share, True)] + [fmt(x) for x in sp] + [fmt(x, True) for x in saved]) + " |")
gm = [fmt(math.exp(sum(map(math.log, acc[c])) / len(acc[c]))) if acc[c] else "-" for c in cols[2:6]]
print("| geometric mean | | " + " | ".join(gm) + " | | | | |")
