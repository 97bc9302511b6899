#!/usr/bin/env python3
"""area_hier.py STAT [TITLE]: where the area goes, from Yosys `stat` of a design synthesized
without -flatten (generic cells). One row per module name (its parameterisations summed):
instances, own generic cells and flip-flops (submodule instances not counted), and the share
of the design's cells. Prints a Markdown table (synth/area_ni.sh, NI_AREA_HIER=1)."""
import re
import sys


def base(name):
    # $paramod\mt_ni_dma\PayloadW=... or $paramod$<hash>\mt_ni_depktz -> the module's name
    if name.startswith("$paramod"):
        parts = name.split("\\")
        return parts[1] if len(parts) > 1 else name
    return name.lstrip("\\")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: area_hier.py STAT [TITLE]")
    mods, cur, section = {}, None, None
    with open(sys.argv[1]) as f:
        for line in f:
            line = re.sub(r"^\[[0-9.]+\] ", "", line)  # yosys -t time stamps
            m = re.match(r"^=== (.*) ===$", line.strip())
            if m:
                section = m.group(1)
                cur = None
                if section != "design hierarchy":
                    cur = mods.setdefault(section, {"cells": 0, "ffs": 0, "sub": {}})
                continue
            t = line.split()
            if cur is None or len(t) != 2 or not t[1].isdigit() or t[0] in ("Number", "Chip"):
                continue
            if t[0].startswith("$_"):
                cur["cells"] += int(t[1])
                if "DFF" in t[0]:
                    cur["ffs"] += int(t[1])
            elif not t[0].startswith("$"):
                cur["sub"][t[0]] = int(t[1])  # a submodule instance (or a black box)
            elif t[0].startswith("$paramod"):
                cur["sub"][t[0]] = int(t[1])
    if not mods:
        sys.exit(f"area_hier.py: {sys.argv[1]}: no '=== module ===' sections (not a Yosys stat?)")
    # instances of each module: the sum over its parents of their instances x its count there
    inst = {}

    def count(m):
        if m not in inst:
            ps = [(p, v["sub"][m]) for p, v in mods.items() if m in v["sub"]]
            inst[m] = sum(count(p) * n for p, n in ps) if ps else 1
        return inst[m]

    for m in mods:
        count(m)
    rows = {}
    for m, v in mods.items():
        r = rows.setdefault(base(m), {"inst": 0, "cells": 0, "ffs": 0, "per": set()})
        r["inst"] += inst[m]
        r["cells"] += inst[m] * v["cells"]
        r["ffs"] += inst[m] * v["ffs"]
        r["per"].add(v["cells"])
    total = sum(r["cells"] for r in rows.values())
    if len(sys.argv) > 2:
        print(f"{sys.argv[2]}: {total} generic cells in all\n")
    print("| module | instances | own cells per instance | cells | of which FFs | share |")
    print("|---|---|---|---|---|---|")
    for name, r in sorted(rows.items(), key=lambda kv: -kv[1]["cells"]):
        per = "/".join(str(p) for p in sorted(r["per"]))
        share = 100.0 * r["cells"] / total if total else 0.0
        print(f"| {name} | {r['inst']} | {per} | {r['cells']} | {r['ffs']} | {share:.1f} % |")


if __name__ == "__main__":
    main()
