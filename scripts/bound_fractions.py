#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bound_fractions.py [--bin build/multitree] [--changed | --claims] [CSV...]: the fraction of the valid
lower bound (docs/reference/bounds.md) that each committed result reached, next to the
fraction the CSV records. Reads the result CSVs of docs/results/ that carry a topology, a size
and cycles (default: every such file), asks `multitree bound --topo T --bytes N --json` for
the lower bound once per (topology, size) (16 B/cycle links: every configuration of
configs/net has payload_w = 128), and prints one Markdown row per result:
file, topology, algorithm, flow, bytes, cycles, recorded fraction, valid fraction, the
binding bound. --changed: only the rows whose fraction moved by more than 0.05 points.
--claims: instead, the fractions the documentation states in prose and hand-made tables
(CLAIMS below: README.md, docs/reference/planner.md, docs/results/bucket.md as they stood), each with the cycles it names, or
else with its stated fraction rescaled from the bound it was a fraction of (the formula
(N-1)/N S (1/out + 1/in) / B at the node with the fewest links) to the valid one.
The cycles of a run do not depend on the bound, so nothing is simulated again."""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bound_of(binary, topo, nbytes, cache):
    k = (topo, nbytes)
    if k not in cache:
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            p = subprocess.run([binary, "bound", "--topo", topo, "--bytes", str(nbytes), "--json", f.name], capture_output=True,
                               text=True, cwd=TOP)
            if p.returncode:
                sys.exit("bound_fractions.py: multitree bound --topo %s --bytes %d: %s" % (topo, nbytes, p.stderr.strip()))
            j = json.load(open(f.name))
            if j.get("units", "cycles") != "cycles":
                sys.exit("bound_fractions.py: %s: the bound is in %s, the CSV in cycles" % (topo, j["units"]))
        cache[k] = j
    return cache[k]


MIB = 1 << 20
# (file, what the text claims, topology, bytes, stated % of the bound, cycles or None)
CLAIMS = [
    ("docs/reference/planner.md", "Finding: MultiTreeMsg on mesh:8x8 at 64 MiB, 15.98 GB/s", "mesh:8x8", 64 * MIB, 98.3, 4200090),
    ("docs/reference/planner.md", "Finding: MultiTreeMsg on mesh:4x4 at 64 MiB, 15.99 GB/s", "mesh:4x4", 64 * MIB, 93.7, 4196336),
    ("docs/reference/planner.md", "mesh:4x4 table: Bucket 32 KiB, 10.14 GB/s", "mesh:4x4", 32768, 59.4, 3231),
    ("docs/reference/planner.md", "mesh:4x4 table: Bucket 1 MiB, 16.71 GB/s", "mesh:4x4", MIB, 97.9, 62751),
    ("docs/reference/planner.md", "mesh:4x4 table: Bucket 8 MiB, 17.02 GB/s", "mesh:4x4", 8 * MIB, 99.7, 492831),
    ("docs/reference/planner.md", "mesh:4x4 table: Bucket 64 MiB (acceptance: 99.97 %)", "mesh:4x4", 64 * MIB, 99.97, 3933471),
    ("docs/reference/planner.md", "mesh:4x4 table: MultiTreeMsg 32 KiB", "mesh:4x4", 32768, 46.8, 4101),
    ("docs/reference/planner.md", "mesh:4x4 table: MultiTreeMsg 1 MiB", "mesh:4x4", MIB, 90.9, None),
    ("docs/reference/planner.md", "mesh:4x4 table: MultiTreeMsg 8 MiB", "mesh:4x4", 8 * MIB, 93.4, 526320),
    ("docs/reference/planner.md", "mesh:4x4 table: Ring 64 MiB (packets)", "mesh:4x4", 64 * MIB, 47.0, 8360735),
    ("docs/reference/planner.md", "mesh:4x4 table: 2D-Ring 64 MiB (packets)", "mesh:4x4", 64 * MIB, 47.0, 8357931),
    ("docs/reference/planner.md", "mesh:8x8 table: Bucket 32 KiB, 6.14 GB/s", "mesh:8x8", 32768, 37.8, 5335),
    ("docs/reference/planner.md", "mesh:8x8 table: Bucket 1 MiB (t-bucket-mesh)", "mesh:8x8", MIB, 95.4, 67643),
    ("docs/reference/planner.md", "Mesh lines in phase: Bucket 2 MiB", "mesh:8x8", 2 * MIB, 97.6, 132155),
    ("docs/reference/planner.md", "Mesh lines in phase: Bucket 4 MiB", "mesh:8x8", 4 * MIB, 98.8, 261179),
    ("docs/reference/planner.md", "mesh:8x8 table / acceptance: Bucket 8 MiB", "mesh:8x8", 8 * MIB, 99.4, 519227),
    ("docs/reference/planner.md", "acceptance: Bucket 8 MiB before the NOP estimate", "mesh:8x8", 8 * MIB, 88.2, 585258),
    ("docs/reference/planner.md", "mesh:8x8 table / acceptance: Bucket 64 MiB", "mesh:8x8", 64 * MIB, 99.9, 4131899),
    ("docs/reference/planner.md", "acceptance: Bucket 64 MiB before the NOP estimate, 14.21 GB/s", "mesh:8x8", 64 * MIB, 87.4, None),
    ("docs/reference/planner.md", "mesh:8x8 table: MultiTreeMsg 32 KiB", "mesh:8x8", 32768, 23.6, 8536),
    ("docs/reference/planner.md", "mesh:8x8 table: MultiTreeMsg 1 MiB", "mesh:8x8", MIB, 90.5, None),
    ("docs/reference/planner.md", "mesh:8x8 table / best: MultiTreeMsg 8 MiB", "mesh:8x8", 8 * MIB, 97.4, 530074),
    ("docs/reference/planner.md", "mesh:8x8 table / acceptance: MultiTreeMsg 64 MiB", "mesh:8x8", 64 * MIB, 98.3, 4200090),
    ("docs/reference/planner.md", "mesh:8x8 table: Ring 64 MiB (packets)", "mesh:8x8", 64 * MIB, 46.9, 8794175),
    ("docs/reference/planner.md", "mesh:8x8 table: 2D-Ring 64 MiB (packets)", "mesh:8x8", 64 * MIB, 47.0, 8779071),
    ("docs/reference/planner.md", "mesh:16x16 table: Bucket 1 MiB", "mesh:16x16", MIB, 89.2, 73222),
    ("docs/reference/planner.md", "mesh:16x16 table / acceptance: Bucket 8 MiB", "mesh:16x16", 8 * MIB, 98.5, 530182),
    ("docs/reference/planner.md", "mesh:16x16 table: MultiTreeMsg 1 MiB", "mesh:16x16", MIB, 78.2, 83506),
    ("docs/reference/planner.md", "mesh:16x16 table: MultiTreeMsg 8 MiB", "mesh:16x16", 8 * MIB, 96.3, 542068),
    ("docs/reference/planner.md", "mesh:16x16 Bucket 64 MiB at the flow level", "mesh:16x16", 64 * MIB, 99.9, 4183474),
    ("docs/results/bucket.md", "Beyond MultiTree: MultiTreeMsg on mesh:4x4 at 64 MiB", "mesh:4x4", 64 * MIB, 93.7, 4196336),
    ("docs/results/bucket.md", "Beyond MultiTree: MultiTreeMsg on mesh:8x8 at 64 MiB", "mesh:8x8", 64 * MIB, 98.3, 4200090),
    ("docs/results/bucket.md", "Beyond MultiTree: Bucket on mesh:4x4 at 64 MiB", "mesh:4x4", 64 * MIB, 99.97, 3933471),
    ("README.md", "Beyond MultiTree: bucket at 8 MiB on mesh 4x4 (98.7-99.7 %)", "mesh:4x4", 8 * MIB, 99.7, 492831),
    ("README.md", "Beyond MultiTree: MultiTree on mesh 8x8 at 64 MiB", "mesh:8x8", 64 * MIB, 98.3, 4200090),
    ("README.md", "Beyond MultiTree: bucket on mesh 8x8 at 8 MiB", "mesh:8x8", 8 * MIB, 99.4, 519227),
    ("README.md", "Beyond MultiTree: bucket on mesh 8x8 at 64 MiB", "mesh:8x8", 64 * MIB, 99.9, 4131899),
    ("issue reproducer", "sim mesh:4x8 bucket 8 MiB --config paper --data sample", "mesh:4x8", 8 * MIB, 105.5, 481332),
]


def old_bound(topo, nbytes):
    """(N-1)/N S (1/out + 1/in) / B at the node with the fewest links, 16 B/cycle (tori and meshes)."""
    kind, _, dims = topo.partition(":")
    k = [int(x) for x in dims.split("x")]
    n = 1
    for x in k:
        n *= x
    links = sum((2 if kind == "torus" else 1) for x in k if x > 1)
    return 2.0 * (n - 1) / n * nbytes / (links * 16)


def claims(binary):
    cache = {}
    print("| file | claim | topology | bytes | cycles | stated (old bound) | valid fraction | valid bound (cycles) |")
    print("|---|---|---|---|---|---|---|---|")
    for f, what, topo, nbytes, pct, cyc in CLAIMS:
        b = bound_of(binary, topo, nbytes, cache)
        new = b["bound_cycles"] / cyc if cyc else pct / 100 * b["bound_cycles"] / old_bound(topo, nbytes)
        print("| %s | %s | %s | %d | %s | %.2f%% | **%.1f%%** | %s %.0f |" % (f, what, topo, nbytes, "{:,}".format(cyc) if cyc else "-",
                                                                          pct, 100 * new, b["binding_bound"], b["bound_cycles"]))
    return 0


def rows_of(path):
    with open(path) as f:
        for r in csv.DictReader(f):
            cyc = r.get("cycles") or r.get("flow_cycles")
            if not (r.get("topology") and r.get("bytes") and cyc and r.get("lower_bound_fraction")):
                return
            yield r, float(cyc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "multitree"))
    ap.add_argument("--changed", action="store_true")
    ap.add_argument("--claims", action="store_true")
    ap.add_argument("csv", nargs="*")
    a = ap.parse_args()
    if a.claims:
        return claims(a.bin)
    files = a.csv or sorted(glob.glob(os.path.join(TOP, "docs", "results", "*.csv")))
    cache = {}
    print("| file | topology | algorithm | flow | bytes | cycles | recorded fraction | valid fraction | binding bound (cycles) |")
    print("|---|---|---|---|---|---|---|---|---|")
    n = moved = 0
    for path in files:
        for r, cyc in rows_of(path):
            topo = r["topology"].replace(";", ",")
            b = bound_of(a.bin, topo, int(r["bytes"]), cache)
            old, new = float(r["lower_bound_fraction"]), b["bound_cycles"] / cyc
            n += 1
            ch = abs(new - old) > 0.0005
            moved += ch
            if a.changed and not ch:
                continue
            print("| %s | %s | %s | %s | %s | %.0f | %.1f%% | %.1f%% | %s %.1f |" % (
                os.path.relpath(path, TOP), topo, r.get("algorithm", ""), r.get("flow", ""), r["bytes"], cyc, 100 * old, 100 * new,
                b["binding_bound"], b["bound_cycles"]))
    print("\n%d results, %d with a fraction that moved by more than 0.05 points" % (n, moved))
    return 0


if __name__ == "__main__":
    sys.exit(main())
