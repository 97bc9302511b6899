#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Does a legal run trip the default watchdog? (docs/results/reliability.md "The default watchdog
and schedule depth"; docs/reference/ni.md "Errors and the watchdog").

DBTree on lines, rings and 2-D grids of several depths, message flow control, config small
with its own wd_limit (20,000) and the model's limits on top, one memory port (ni_mem_ports=1)
and a slow memory (mem_p_ready 1, 2, 5), one receive engine or slow links (link_period0=4,
link_lat=200) as variants, 8, 16 and 32 KiB. A run that stops on the watchdog is run again
with the watchdog off (max_cycles 50,000,000): "completes" there is a false stop. Prints a
line per run and a table; exit 0 (a finding, not a test).

  python3 scripts/wd_scan.py [--bin build/multitree] [--out build/wd_scan.jsonl]
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPOS = ["mesh:4", "mesh:8", "mesh:16", "ring:8", "ring:32", "mesh:4x4", "torus:4x4", "mesh:8x4"]
VARIANTS = [("p1m1", ["mem_p_ready=1", "ni_mem_ports=1"]), ("p2m1", ["mem_p_ready=2", "ni_mem_ports=1"]),
            ("p5m1", ["mem_p_ready=5", "ni_mem_ports=1"]), ("p1m1e1", ["mem_p_ready=1", "ni_mem_ports=1", "ni_rx_engines=1"]),
            ("p1m1slow", ["mem_p_ready=1", "ni_mem_ports=1", "link_period0=4", "link_lat=200"])]
SIZES = [8192, 16384, 32768]
RE_OK = re.compile(r": (\d+) cycles, .*result correct on every node")


def run(cmd):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=180, cwd=TOP)
        return p.stdout + p.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return "TIMEOUT", time.time() - t0


def one(binary, topo, sets, nbytes):
    cmd = [binary, "sim", "--topo", topo, "--algo", "dbtree", "--bytes", str(nbytes), "--flow", "message", "--config", "small"]
    cmd += sum([["--set", x] for x in sets], [])
    txt, wall = run(cmd)
    m, wd = RE_OK.search(txt), re.search(r"error 11 \(watchdog\) at cycle (\d+)|raised its watchdog flag", txt)
    if m:
        return {"cls": "OK", "cycles": int(m.group(1)), "wall": round(wall, 1)}
    if not wd:
        return {"cls": "OTHER", "msg": txt.strip()[-160:], "wall": round(wall, 1)}
    txt2, wall2 = run(cmd + ["--set", "wd_limit=0", "--set", "max_cycles=50000000"])
    m2 = RE_OK.search(txt2)
    return {"cls": "FALSE-STOP" if m2 else "WATCHDOG", "stop": wd.group(0), "wd_off_cycles": int(m2.group(1)) if m2 else None,
            "wall": round(wall + wall2, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/multitree")
    ap.add_argument("--out", default="build/wd_scan.jsonl")
    a = ap.parse_args()
    binary = os.path.join(TOP, a.bin)
    res = []
    with open(os.path.join(TOP, a.out), "w") as f:
        for topo, (vn, vs), nb in itertools.product(TOPOS, VARIANTS, SIZES):
            r = dict(topo=topo, var=vn, bytes=nb, **one(binary, topo, vs, nb))
            res.append(r)
            f.write(json.dumps(r) + "\n")
            print(json.dumps(r), flush=True)
    print("%-10s %s" % ("topology", " ".join("%-11s" % ("%s/%dK" % (v, s // 1024)) for v, _ in VARIANTS for s in SIZES)))
    for topo in TOPOS:
        cells = []
        for (vn, _), nb in itertools.product(VARIANTS, SIZES):
            r = next(x for x in res if x["topo"] == topo and x["var"] == vn and x["bytes"] == nb)
            cells.append("%-11s" % {"OK": "ok", "FALSE-STOP": "FALSE-STOP", "WATCHDOG": "stuck"}.get(r["cls"], "other"))
        print("%-10s %s" % (topo, " ".join(cells)))
    n = sum(1 for r in res if r["cls"] == "FALSE-STOP")
    print("wd_scan: %d runs, %d OK, %d false watchdog stops (complete, correct, with the watchdog off), %d stuck, %d other" % (
        len(res), sum(1 for r in res if r["cls"] == "OK"), n, sum(1 for r in res if r["cls"] == "WATCHDOG"),
        sum(1 for r in res if r["cls"] == "OTHER")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
