#!/usr/bin/env python3
"""flow_vs_cycle.py BIN CYCLE_CSV OUT_CSV [--jobs N] [--config paper]: the flow level
(`multitree sim --level flow`, docs/reference/flowsim.md) on every run of a committed cycle-model CSV
(scripts/paper.sh's fig9.csv, fig9sw.csv, fig10*.csv: topology, algorithm, flow, bytes,
cycles, ...), run for run. Writes OUT_CSV (the cycle CSV's first five columns, the flow
level's cycles, the error in %, and the cycle CSV's `note` where it has one: "s" runs had NI
stager stalls, which the flow level does not model) and prints a markdown table per
(topology, algorithm, flow control): runs, smallest and largest error, and the runs with a
stager note. Used for docs/results/flowsim.md "On the published figures"."""
import csv, subprocess, sys, json, os, tempfile
from concurrent.futures import ThreadPoolExecutor


def flow_time(bin_, cfg, r):
    with tempfile.NamedTemporaryFile(suffix=".json") as t:
        p = subprocess.run([bin_, "sim", "--level", "flow", "--topo", r["topology"], "--algo", r["algorithm"], "--flow", r["flow"],
                            "--bytes", r["bytes"], "--config", cfg, "--json", t.name], capture_output=True, text=True)
        if p.returncode:
            return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        return json.load(open(t.name))["time"], ""


def main():
    args = sys.argv[1:]
    jobs, cfg = 2, "paper"
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    if "--config" in args:
        i = args.index("--config")
        cfg = args[i + 1]
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    bin_, cyc_csv, out_csv = args
    rows = [r for r in csv.DictReader(open(cyc_csv)) if r.get("correct", "true") == "true"]
    with ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(lambda r: flow_time(bin_, cfg, r), rows))
    groups = {}
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["topology", "algorithm", "flow", "bytes", "cycles", "flow_cycles", "error_pct", "note"])
        for r, (t, why) in zip(rows, res):
            note = (r.get("note") or "").strip()
            e = 100.0 * (t - int(r["cycles"])) / int(r["cycles"]) if t is not None else None
            w.writerow([r["topology"], r["algorithm"], r["flow"], r["bytes"], r["cycles"], "%.0f" % t if t is not None else "",
                        "%+.3f" % e if e is not None else "", note or why])
            g = groups.setdefault((r["topology"], r["algorithm"], r["flow"]), [])
            g.append((e, bool(note), int(r["bytes"])))
    print("| topology | algorithm | flow control | runs | error % smallest .. largest | runs with NI stager stalls (their errors) |")
    print("|---|---|---|---|---|---|")
    for k in sorted(groups):
        g = groups[k]
        clean = [e for e, s, _ in g if e is not None and not s]
        stall = ["%+.1f" % e for e, s, _ in g if e is not None and s]
        failed = sum(1 for e, _, _ in g if e is None)
        rng = "%+.2f .. %+.2f" % (min(clean), max(clean)) if clean else "-"
        print("| %s | %s | %s | %d%s | %s | %s |" % (k[0], k[1], k[2], len(g), " (%d refused at the flow level)" % failed if failed else "",
                                                     rng, ", ".join(stall) if stall else "-"))


if __name__ == "__main__":
    main()
