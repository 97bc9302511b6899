#!/usr/bin/env python3
"""The bucket table of docs/reference/planner.md from the JSON files of scripts/bucket_runs.sh (and,
for Ring/2D-Ring/MultiTree points not run there, docs/results/fig9.csv): GB/s and the
fraction of the lower bound (docs/reference/bounds.md: on these tori and meshes the aggregate
bound 2(N-1) S / (B x the directed links) binds) per topology, size and algorithm.
usage: scripts/bucket_table.py RUNDIR [fig9.csv]"""
import csv, glob, json, os, sys

def nodes_links(topo):
    """N and the directed links: a ring of k >= 3 nodes has k links each way, of 2 one, a line of k k-1."""
    kind, dims = topo.split(":")
    k = [int(x) for x in dims.split("x")]
    n = 1
    for x in k:
        n *= x
    links = sum((0 if x == 1 else n if x == 2 else 2 * n) if kind == "torus" else 2 * (x - 1) * n // x for x in k)
    return n, links

def bound(topo, size):  # the aggregate bound, cycles at 16 B/cycle
    n, links = nodes_links(topo)
    return 2.0 * (n - 1) * size / (links * 16)

runs = {}
for f in glob.glob(os.path.join(sys.argv[1], "*.json")):
    j = json.load(open(f))
    if j.get("correct") is not True:
        continue
    runs[(j["topology"], j["algorithm"], j["flow"], j["bytes"])] = j["cycles"]
if len(sys.argv) > 2:
    for r in csv.DictReader(open(sys.argv[2])):
        key = (r["topology"], r["algorithm"], r["flow"], int(r["bytes"]))
        if r["correct"] == "true" and key not in runs:
            runs[key] = int(r["cycles"])
sizes = [(32768, "32 KiB"), (1 << 20, "1 MiB"), (8 << 20, "8 MiB"), (64 << 20, "64 MiB")]
algos = [("bucket", "message", "Bucket"), ("multitree", "message", "MultiTreeMsg"), ("ring", "packet", "Ring"), ("ring2d", "packet", "2D-Ring")]
for topo in ["torus:4x4", "torus:8x8", "torus:4x8", "mesh:4x4", "mesh:8x8"]:
    print(f"\n**{topo}** (GB/s, % of the lower bound)\n")
    print("| size | lower bound GB/s | " + " | ".join(a[2] for a in algos) + " | Bucket / MultiTreeMsg |")
    print("|---" * (len(algos) + 3) + "|")
    for sz, name in sizes:
        lb = bound(topo, sz)
        cells = []
        for a, fl, _ in algos:
            c = runs.get((topo, a, fl, sz))
            cells.append(f"{sz / c:.2f} ({100 * lb / c:.1f}%)" if c else "-")
        b, m = runs.get((topo, "bucket", "message", sz)), runs.get((topo, "multitree", "message", sz))
        ratio = f"{m / b:.2f}x" if b and m else "-"
        print(f"| {name} | {sz / lb:.2f} | " + " | ".join(cells) + f" | {ratio} |")
