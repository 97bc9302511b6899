#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""paper_claims.py DIR: the numbers of docs/results.md's claims table, from DIR/fig9.csv and
DIR/fig10.csv (scripts/paper.sh): MultiTree (messages) over Ring and 2D-Ring, messages over
packets, weak scaling at the largest network, DBTree's range, 2D-Ring against Ring, and
whether MultiTree is the fastest at every point. Only runs whose result was correct count;
a ratio needs both runs of its point."""
import csv
import math
import os
import sys


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/paper"
    g = {}  # (topo, bytes) -> {variant: GB/s}
    lb = {}
    with open(os.path.join(d, "fig9.csv")) as f:
        for r in csv.DictReader(f):
            if r["correct"] != "true":
                continue
            k = (r["topology"], int(r["bytes"]))
            v = r["algorithm"] + ":" + r["flow"]
            g.setdefault(k, {})[v] = float(r["gbps"])
            lb.setdefault(k, {})[v] = float(r["lower_bound_fraction"])
    topos = sorted({t for t, _ in g})
    MSG, PKT, RING, R2D, DBT = "multitree:message", "multitree:packet", "ring:packet", "ring2d:packet", "dbtree:packet"

    def ratios(a, b, topo=None, min_bytes=0):
        return [p[a] / p[b] for (t, s), p in sorted(g.items()) if (topo is None or t == topo) and s >= min_bytes and a in p and b in p]

    def mib(s):
        return "%g MiB" % (s / 1048576) if s >= 1048576 else "%g KiB" % (s / 1024)

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
