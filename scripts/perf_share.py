#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# perf_share.py: where a DPI-stepped network build's time goes (docs/results/bench.md "Where the
# RTL's time goes"). Reads `perf report --no-children --sort symbol --stdio` of a cosim_net run
# and the node model's C++ (the build's node/ directory): each function of the node model gets
# its samples shared out over the parts its statements name (a line naming
# `__DOT__u_deps__DOT__` counts for mt_ni_deps, ...), in proportion to the lines; functions of
# the same name in several files (Verilator's DepSet files) are taken together. Prints one
# Markdown table of the shares.
#   scripts/perf_share.py NODE_DIR REPORT.txt
import glob
import re
import sys

# the parts of a node, by the instance a statement names (first match wins)
PARTS = [
    ("dependency and chain state (`mt_ni_deps`, `mt_ni_chain`)", "__DOT__u_deps__DOT__"),
    ("stager (`mt_ni_stage`)", "__DOT__u_stage__DOT__"),
    ("receive engines (`mt_ni_depktz`)", "__DOT__u_depktz__DOT__"),
    ("memory ports (`mt_ni_mports`)", "__DOT__u_mports__DOT__"),
    ("router (`mt_router`: input VCs and their buffers, allocation, crossbar)", "__DOT__u_router__DOT__"),
    ("the rest of the NI (table, packetisers, ejection buffers, issue)", "__DOT__u_ni__DOT__"),
]
REST = "Verilator's scheduling of the node (statements naming no part)"
TOP = "the top model (`Vmt_net_top`: links, the node outputs gathered, the DPI wrappers)"
DPI = "the DPI step (`mt_node_dpi_step`: the node's inputs in, `eval()`, its outputs out)"
HARNESS = "the harness's loop and the memories (`main`, `take`, `mt_mem_*`)"
CMODEL = "the C model's run alone afterwards (`mt_*_step`, `mt_net_*`)"
OTHER = "other (C library, kernel)"


def die(msg):
    sys.stderr.write("perf_share.py: %s\n" % msg)
    sys.exit(2)


def node_functions(node_dir):
    """name -> list of body lines, over every DepSet file of the node model"""
    files = sorted(glob.glob(node_dir + "/Vmt_node___024root__DepSet_*.cpp"))
    if not files:
        die("%s: no Vmt_node___024root__DepSet_*.cpp (not a node build directory)" % node_dir)
    funcs = {}
    head = re.compile(r"^[A-Za-z_].*\b(Vmt_node___024root___\w+)\(Vmt_node___024root\* vlSelf\b.*\{\s*$")
    for f in files:
        name = None
        for line in open(f, encoding="utf-8", errors="replace"):
            m = head.match(line)
            if m:
                name = m.group(1)
                funcs.setdefault(name, [])
                continue
            if name is not None:
                if line.startswith("}"):
                    name = None
                else:
                    funcs[name].append(line)
    return funcs


def shares_of(lines):
    n = {}
    for line in lines:
        for part, key in PARTS:
            if key in line:
                n[part] = n.get(part, 0) + 1
                break
    tot = sum(n.values())
    if tot == 0:
        return {REST: 1.0}
    return {p: c / tot for p, c in n.items()}


def main():
    if len(sys.argv) != 3:
        die("usage: perf_share.py NODE_DIR REPORT.txt")
    funcs = node_functions(sys.argv[1])
    line_re = re.compile(r"^\s*([0-9.]+)%\s+\[[.k]\]\s+(\S+)")
    out = {}
    total = 0.0
    for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
        m = line_re.match(line)
        if not m:
            continue
        pct, sym = float(m.group(1)), m.group(2)
        total += pct
        if sym.startswith("Vmt_node___024root___") and sym in funcs:
            for p, s in shares_of(funcs[sym]).items():
                out[p] = out.get(p, 0.0) + pct * s
            continue
        if sym.startswith("Vmt_node"):
            part = REST
        elif sym.startswith("Vmt_net_top"):
            part = TOP
        elif sym == "mt_node_dpi_step":
            part = DPI
        elif sym in ("main", "take") or sym.startswith("mt_mem_"):
            part = HARNESS
        elif sym.startswith("mt_"):
            part = CMODEL
        else:
            part = OTHER
        out[part] = out.get(part, 0.0) + pct
    if total < 50.0:
        die("%s: the report's lines sum to %.1f %% (want the whole report, --stdio)" % (sys.argv[2], total))
    print("| part | share |")
    print("|---|---|")
    order = [p for p, _ in PARTS] + [REST, TOP, DPI, HARNESS, CMODEL, OTHER]
    for p in order:
        if p in out:
            print("| %s | %.1f %% |" % (p, out[p] * 100.0 / total))


if __name__ == "__main__":
    main()
