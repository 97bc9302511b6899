#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""paper_claims.py DIR: the numbers of the claims table of docs/results/fig9.md ("The paper's claims beside ours"), from DIR/fig9.csv and
DIR/fig10.csv (scripts/paper.sh): MultiTree (messages) over Ring and 2D-Ring, messages over
packets, weak scaling at the largest network, DBTree's range, 2D-Ring against Ring, and
whether MultiTree is the fastest at every point; from DIR/fig9sw.csv (Fig. 9c/9d) the
switch-network claims: MultiTree over Ring at small and large sizes, HDRM against MultiTree
on BiGraph, messages over packets, and the runs that failed (a log without a JSON in
DIR/runs). Only runs whose result was correct count; a ratio needs both runs of its point."""
import csv
import glob
import math
import os
import sys

SMALL, LARGE = 512 * 1024, 8 * 1048576  # Fig. 9c/9d: "small" up to 512 KiB, "large" from 8 MiB


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mib(s):
    return "%g MiB" % (s / 1048576) if s >= 1048576 else "%g KiB" % (s / 1024)


def load(path):
    """(topo, bytes) -> {algorithm:flow: (GB/s, fraction of the lower bound, note)}"""
    g = {}
    if os.path.exists(path):
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["correct"] == "true":
                    g.setdefault((r["topology"], int(r["bytes"])), {})[r["algorithm"] + ":" + r["flow"]] = (
                        float(r["gbps"]), float(r["lower_bound_fraction"]), r.get("note") or "")
    return g


def switch_claims(d):
    g = load(os.path.join(d, "fig9sw.csv"))
    if not g:
        return
    MSG, PKT, RING, DBT, HDRM = "multitree:message", "multitree:packet", "ring:packet", "dbtree:packet", "hdrm:packet"
    topos = sorted({t for t, _ in g})

    def rs(a, b, t, lo=0, hi=1 << 62):
        return [p[a][0] / p[b][0] for (tt, s), p in sorted(g.items()) if tt == t and lo <= s <= hi and a in p and b in p]

    def span(x):
        return "%.2fx (%.2f-%.2f, %d points)" % (gmean(x), min(x), max(x), len(x)) if x else "-"

    print("Fig. 9c/9d (small: up to %s, large: from %s; geometric mean (range, points))" % (mib(SMALL), mib(LARGE)))
    for t in topos:
        print("  %s:" % t)
        for name, a in (("MultiTreeMsg", MSG), ("MultiTree", PKT)):
            print("    %s / Ring: small %s, large %s" % (name, span(rs(a, RING, t, hi=SMALL)), span(rs(a, RING, t, lo=LARGE))))
        print("    DBTree / Ring: small %s, large %s" % (span(rs(DBT, RING, t, hi=SMALL)), span(rs(DBT, RING, t, lo=LARGE))))
        if any(HDRM in p for (tt, _), p in g.items() if tt == t):
            print("    HDRM / MultiTreeMsg: small %s, large %s" % (span(rs(HDRM, MSG, t, hi=SMALL)), span(rs(HDRM, MSG, t, lo=LARGE))))
        print("    MultiTreeMsg / MultiTree (packets): all %s" % span(rs(MSG, PKT, t)))
        big = max(s for tt, s in g if tt == t)
        print("    largest size %s: %s" % (mib(big), ", ".join("%s %.2f GB/s (%.0f%% of LB)%s" % (v, x[0], 100 * x[1], " [%s]" % x[2] if x[2] else "")
                                                          for v, x in sorted(g[(t, big)].items()))))
    allm = [r for t in topos for r in rs(MSG, PKT, t)]
    print("  MultiTreeMsg / MultiTree (packets), all topologies: %s" % span(allm))
    for log in sorted(glob.glob(os.path.join(d, "runs", "fig9sw_*.log"))):
        if not os.path.exists(log[:-4] + ".json"):
            with open(log) as f:
                first = next((ln.strip() for ln in f if not ln.startswith("sim: cycle")), "(still running)")
            print("  failed: %s: %s" % (os.path.basename(log)[:-4], first[:160]))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/paper"
    switch_claims(d)
    g = {}  # (topo, bytes) -> {variant: GB/s}
    lb = {}
    f9 = os.path.join(d, "fig9.csv")
    with open(f9 if os.path.exists(f9) else os.devnull) as f:
        for r in csv.DictReader(f):
            if r["correct"] != "true":
                continue
            k = (r["topology"], int(r["bytes"]))
            v = r["algorithm"] + ":" + r["flow"]
            g.setdefault(k, {})[v] = float(r["gbps"])
            lb.setdefault(k, {})[v] = float(r["lower_bound_fraction"])
    topos = sorted({t for t, _ in g})
    if not topos:
        return
    MSG, PKT, RING, R2D, DBT = "multitree:message", "multitree:packet", "ring:packet", "ring2d:packet", "dbtree:packet"

    def ratios(a, b, topo=None, min_bytes=0):
        return [p[a] / p[b] for (t, s), p in sorted(g.items()) if (topo is None or t == topo) and s >= min_bytes and a in p and b in p]

    for name, b in (("Ring", RING), ("2D-Ring", R2D), ("MultiTree packets", PKT)):
        allr = ratios(MSG, b)
        print("MultiTree messages / %s: geometric mean of %d points %.2fx; per topology: %s" % (
            name, len(allr), gmean(allr), ", ".join("%s %.2fx (%d)" % (t, gmean(ratios(MSG, b, t)), len(ratios(MSG, b, t))) for t in topos)))
        for t in topos:
            pts = [(s, p[MSG] / p[b]) for (tt, s), p in sorted(g.items()) if tt == t and MSG in p and b in p]
            if pts:
                print("    %s: %s" % (t, ", ".join("%s %.2fx" % (mib(s), r) for s, r in pts)))
    dbt = [(p[DBT], lb[k][DBT]) for k, p in g.items() if DBT in p]
    if dbt:
        print("DBTree: %.2f-%.2f GB/s, %.0f-%.0f%% of the lower bound (%d points)" % (
            min(x for x, _ in dbt), max(x for x, _ in dbt), 100 * min(y for _, y in dbt), 100 * max(y for _, y in dbt), len(dbt)))
    for t in topos:
        r = ratios(R2D, RING, t, 2 * 1048576)
        ra = ratios(R2D, RING, t)
        if ra:
            print("2D-Ring / Ring on %s: %.3f-%.3f from 2 MiB on, %.3f-%.3f at all sizes" % (
                t, min(r) if r else float("nan"), max(r) if r else float("nan"), min(ra), max(ra)))
    notbest = [(k, v) for k, p in sorted(g.items()) if MSG in p for v, x in p.items() if v != MSG and x > p[MSG]]
    print("points where another variant beats MultiTree (messages): %s" % (
        ", ".join("%s %s %s" % (k[0], mib(k[1]), v) for k, v in notbest) or "none"))
    for t in topos:
        big = max(s for tt, s in g if tt == t)
        p = g[(t, big)]
        print("largest size on %s (%s): %s" % (t, mib(big), ", ".join("%s %.2f GB/s (%.0f%% of LB)" % (v, x, 100 * lb[(t, big)][v])
                                                                     for v, x in sorted(p.items()))))
    f10 = os.path.join(d, "fig10.csv")
    if os.path.exists(f10):
        w = {}
        with open(f10) as f:
            for r in csv.DictReader(f):
                if r["correct"] == "true":
                    n = 1
                    for x in r["topology"].split(":")[1].split("x"):
                        n *= int(x)
                    w.setdefault(n, {})[r["algorithm"]] = (int(r["cycles"]), float(r["lower_bound_fraction"]))
        full = [n for n in sorted(w) if all(a in w[n] for a in ("ring", "ring2d", "multitree"))]
        if full:
            n = full[-1]
            c = w[n]
            print("weak scaling at %d nodes: Ring / MultiTree %.2fx, 2D-Ring / MultiTree %.2fx; lower-bound fractions Ring %.0f%%, "
                  "2D-Ring %.0f%%, MultiTree %.0f%%" % (n, c["ring"][0] / c["multitree"][0], c["ring2d"][0] / c["multitree"][0],
                                                       100 * c["ring"][1], 100 * c["ring2d"][1], 100 * c["multitree"][1]))
            if 16 in w and "ring" in w[16]:
                print("Ring time at %d nodes / at 16 nodes: %.2fx for %.0fx the nodes" % (n, c["ring"][0] / w[16]["ring"][0], n / 16))


if __name__ == "__main__":
    main()
