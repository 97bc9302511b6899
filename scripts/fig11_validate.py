#!/usr/bin/env python3
"""fig11_validate.py CYCLE_RUNS FLOW_RUNS [TOLERANCE_PCT]: `multitree train` at the flow level
against the cycle model, run for run (docs/reference/training.md "The flow level"). Pairs every JSON of
FLOW_RUNS (train --level flow) with the JSON of CYCLE_RUNS for the same model, topology,
algorithm, flow control, mode and config, and prints a markdown table: the iteration's
all-reduce cycles and total cycles at both levels with the errors, and for the layer-wise runs
the largest per-layer all-reduce error (with that layer's size). Exit 1 when an iteration's
all-reduce cycles (the network's part; the totals add the same compute at both levels) are off
by more than TOLERANCE_PCT (default 2), or nothing pairs up."""
import glob, json, sys


def load(d, level):
    out = {}
    for p in glob.glob(d + "/*.json"):
        j = json.load(open(p))
        if j.get("format") != "multitree-train/1" or j.get("level", "cycle") != level:
            continue
        out[(j["model"], j["topology"], j["algorithm"], j["flow"], "overlap" if j["overlap"] else "plain", j["config"])] = j
    return out


def err(f, c):
    return 100.0 * (f - c) / c if c else 0.0


def main():
    cyc, flo = load(sys.argv[1], "cycle"), load(sys.argv[2], "flow")
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    print("| model | topology | algorithm | flow control | mode | all-reduce: cycle model | flow level | error % "
          "| total: cycle model | flow level | error % | worst layer all-reduce error % (bytes) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    n = bad = 0
    worst_total = worst_ar = 0.0
    for k in sorted(flo):
        if k not in cyc:
            continue
        c, f = cyc[k], flo[k]
        n += 1
        ea, et = err(f["allreduce_cycles"], c["allreduce_cycles"]), err(f["total_cycles"], c["total_cycles"])
        worst_total, worst_ar = max(worst_total, abs(et)), max(worst_ar, abs(ea))
        bad += abs(ea) > tol
        lw = "-"
        if k[4] == "overlap":
            pairs = [(err(fl["allreduce_cycles"], cl["allreduce_cycles"]), cl["allreduce_bytes"])
                     for cl, fl in zip(c["layers"], f["layers"]) if cl["allreduce_cycles"]]
            if pairs:
                e, b = max(pairs, key=lambda p: abs(p[0]))
                lw = "%+.1f (%d)" % (e, b)
        print("| %s | %s | %s | %s | %s | %d | %d | %+.2f | %d | %d | %+.2f | %s |" % (
            k[0], k[1], k[2], k[3], k[4], c["allreduce_cycles"], f["allreduce_cycles"], ea, c["total_cycles"],
            f["total_cycles"], et, lw))
    print("\n%d runs paired; all-reduce within %.2f %%, total within %.2f %%; %d all-reduces off by more than %.1f %%" % (
        n, worst_ar, worst_total, bad, tol))
    print("RESULT fig11_validate pass=%d fail=%d" % (n - bad, bad + (n == 0)))
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
