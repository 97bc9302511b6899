#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Does a legal run trip the default watchdog? (docs/results/reliability.md "The default watchdog
and schedule depth"; docs/reference/ni.md "Errors and the watchdog").

Message flow control, config small with its own wd_limit (20,000) and the model's limits on
top, one memory port (ni_mem_ports=1) and a slow memory (mem_p_ready 1, 2, 5), one receive
engine or slow links as variants, 8, 16 and 32 KiB. Slow links: link_period0=4 and
link_lat=200 on tori, meshes and rings; link_lat=200 on a switch network (every link alike:
no per-dimension period). A run that stops on the watchdog is run again
with the watchdog off (max_cycles 50,000,000): "completes" there is a false stop.

--algos picks the sets of topologies below (SCANS; default dbtree, the first scan's 8 grids);
--sizes and --vars narrow the grid; --part K/N runs every N-th case from the K-th (a chunk
of a long scan, each its own --out); --report FILE... prints the table of
results already written (the chunks together). Prints a line per run and the table; exit 0
(a finding, not a test).

  python3 scripts/wd_scan.py [--bin build/multitree] [--algos dbtree,ring,...|all] [--sizes 8192,32768]
                             [--part K/N] [--out build/wd_scan.jsonl]
  python3 scripts/wd_scan.py --report build/wd_scan.*.jsonl
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWITCHED = ("fattree:", "dgx2", "bigraph:", "hier:")
# per algorithm: the topologies it takes at the cycle level (lines, rings, grids of 4 to 32
# nodes; switch networks: fat-trees, stars of 8 and 16 nodes on one switch (fattree:K,1),
# dgx2, BiGraph)
SCANS = {
    "dbtree": ["mesh:4", "mesh:8", "mesh:16", "ring:8", "ring:32", "mesh:4x4", "torus:4x4", "mesh:8x4"],
    "ring": ["mesh:8", "ring:32", "mesh:4x4", "torus:4x4", "mesh:8x4", "fattree:2,3", "fattree:8,1"],
    "hd": ["mesh:8", "mesh:16", "torus:4x4", "mesh:8x4", "fattree:4,2", "bigraph:2x4"],
    "hdrm": ["bigraph:2x4", "bigraph:4x4"],
    "multitree": ["mesh:8", "ring:32", "mesh:4x4", "torus:4x4", "mesh:8x4", "fattree:2,3", "fattree:4,2", "fattree:8,1", "fattree:16,1",
                  "dgx2"],
    "bucket": ["mesh:8", "ring:32", "torus:4x4", "mesh:8x4"],
    "meshtree": ["mesh:8", "mesh:4x4", "mesh:8x4", "torus:4x4"],
    "dbtree-sw": ["fattree:2,3", "fattree:4,2", "fattree:8,1", "dgx2", "bigraph:2x4"],
}
VARIANTS = [("p1m1", ["mem_p_ready=1", "ni_mem_ports=1"]), ("p2m1", ["mem_p_ready=2", "ni_mem_ports=1"]),
            ("p5m1", ["mem_p_ready=5", "ni_mem_ports=1"]), ("p1m1e1", ["mem_p_ready=1", "ni_mem_ports=1", "ni_rx_engines=1"]),
            ("p1m1slow", ["mem_p_ready=1", "ni_mem_ports=1", "link_period0=4", "link_lat=200"])]
SIZES = [8192, 16384, 32768]
RE_OK = re.compile(r": (\d+) cycles, .*result correct on every node")
CELL = {"OK": "ok", "FALSE-STOP": "FALSE-STOP", "WATCHDOG": "stuck"}


def variant_sets(topo, sets):
    """A switch network has no dimension 0: slow links are link_lat alone."""
    if topo.startswith(SWITCHED):
        return [x for x in sets if not x.startswith("link_period0=")]
    return sets


def run(cmd):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=180, cwd=TOP)
        return p.stdout + p.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return "TIMEOUT", time.time() - t0


def one(binary, algo, topo, sets, nbytes):
    cmd = [binary, "sim", "--topo", topo, "--algo", algo, "--bytes", str(nbytes), "--flow", "message", "--config", "small"]
    cmd += sum([["--set", x] for x in variant_sets(topo, sets)], [])
    txt, wall = run(cmd)
    m, wd = RE_OK.search(txt), re.search(r"error 11 \(watchdog\) at cycle (\d+)|raised its watchdog flag", txt)
    if m:
        return {"cls": "OK", "cycles": int(m.group(1)), "wall": round(wall, 1)}
    if not wd:
        return {"cls": "OTHER", "msg": txt.strip()[-160:], "wall": round(wall, 1)}
    txt2, wall2 = run(cmd + ["--set", "wd_limit=0", "--set", "max_cycles=50000000"])
    m2 = RE_OK.search(txt2)
    return {"cls": "FALSE-STOP" if m2 else "WATCHDOG", "stop": wd.group(0), "wd_off_cycles": int(m2.group(1)) if m2 else None,
            "wall": round(wall + wall2, 1), "cmd": " ".join(cmd[1:])}


def cases(algos, vars_, sizes):
    return [(al, topo, v, nb) for al in algos for topo in SCANS[al] for v, nb in itertools.product(vars_, sizes)]


def table(res):
    """One row per algorithm and topology, one column per variant and size (those present)."""
    cols = [(v, s) for v, _ in VARIANTS for s in SIZES if any(r["var"] == v and r["bytes"] == s for r in res)]
    rows = []
    for r in res:
        if (r["algo"], r["topo"]) not in rows:
            rows.append((r["algo"], r["topo"]))
    L = ["%-10s %-13s %s" % ("algorithm", "topology", " ".join("%-12s" % ("%s/%dK" % (v, s // 1024)) for v, s in cols))]
    for al, topo in rows:
        cells = []
        for v, s in cols:
            r = next((x for x in res if (x["algo"], x["topo"], x["var"], x["bytes"]) == (al, topo, v, s)), None)
            cells.append("%-12s" % ("-" if r is None else CELL.get(r["cls"], "other")))
        L.append("%-10s %-13s %s" % (al.replace("-sw", ""), topo, " ".join(cells)))
    n = collections_count(res)
    L.append("wd_scan: %d runs, %d OK, %d false watchdog stops (complete, correct, with the watchdog off), %d stuck, %d other; "
             "%.0f s of run time" % (len(res), n["OK"], n["FALSE-STOP"], n["WATCHDOG"], n["OTHER"], sum(r["wall"] for r in res)))
    for r in res:
        if r["cls"] != "OK":
            L.append("  %s %s %s %d B: %s %s" % (r["cls"], r["algo"], r["topo"], r["bytes"], r.get("stop") or r.get("msg"),
                                                "(watchdog off: %s cycles) %s" % (r.get("wd_off_cycles"), r.get("cmd", "")) if r["cls"] != "OTHER" else ""))
    return "\n".join(L)


def collections_count(res):
    n = dict.fromkeys(["OK", "FALSE-STOP", "WATCHDOG", "OTHER"], 0)
    for r in res:
        n[r["cls"]] += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/multitree")
    ap.add_argument("--out", default="build/wd_scan.jsonl")
    ap.add_argument("--algos", default="dbtree", help="comma-separated keys of SCANS, or all (%s)" % ",".join(SCANS))
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--vars", default=",".join(v for v, _ in VARIANTS))
    ap.add_argument("--part", default="0/1", help="K/N: every N-th case from the K-th")
    ap.add_argument("--dry-run", action="store_true", help="list the cases, run nothing")
    ap.add_argument("--report", nargs="*", help="print the table of these result files and exit")
    a = ap.parse_args()
    if a.report is not None:
        res = [dict({"algo": "dbtree"}, **json.loads(line)) for fn in a.report for line in open(fn) if line.strip()]
        print(table(res))
        return 0
    algos = list(SCANS) if a.algos == "all" else a.algos.split(",")
    bad = [x for x in algos if x not in SCANS]
    names = a.vars.split(",")
    vars_ = [v for v in VARIANTS if v[0] in names]
    k, n = (int(x) for x in a.part.split("/"))
    if bad or len(vars_) != len(names) or not 0 <= k < n:
        ap.error("unknown --algos %s or --vars %s, or --part %s outside 0..N-1" % (bad, a.vars, a.part))
    todo = cases(algos, vars_, [int(x) for x in a.sizes.split(",")])[k::n]
    if a.dry_run:
        for c in todo:
            print(c[0], c[1], c[2][0], c[3])
        return 0
    binary = os.path.join(TOP, a.bin)
    res = []
    with open(os.path.join(TOP, a.out), "w") as f:
        for al, topo, (vn, vs), nb in todo:
            r = dict(algo=al, topo=topo, var=vn, bytes=nb, **one(binary, al.replace("-sw", ""), topo, vs, nb))
            res.append(r)
            f.write(json.dumps(r) + "\n")
            print(json.dumps(r), flush=True)
    print(table(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
