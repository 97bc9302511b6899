#!/usr/bin/env python3
"""results_json.py: the machine-readable rows of `make area-ni` (build/area/ni.json) and
`make bench-rtl` (build/bench/rtl.json).

  results_json.py rams DUMP                  Depth x Width of every mt_ni_ram instance in a
                                             Yosys `dump` of the black-boxed RAM cells, as JSON
  results_json.py merge KIND OUT ROW.json... merge rows into the list OUT (a row replaces the
                                             row of OUT with the same key), then check OUT
  results_json.py check KIND FILE...         check each file: a JSON list of rows, each with
                                             exactly the keys of KIND, of their types; exit 1
                                             and every error on stderr if one is wrong

KIND area-ni, one row per synthesized NI: shape (str, configs/ni/<shape>.cfg), n (int, nodes),
stager (bool), set (str, the extra mt_ni parameters, "" if none), logic_cells (int: generic
cells without the table and the RAMs), flip_flops (int), ram_bits (int: sum of depth x width
over rams), rams (list of {name, depth, width}), table_bits (int), yosys_s (int, wall seconds
of the generic run). A run that did not finish has null in logic_cells, flip_flops, ram_bits
and rams. Key: shape, n, stager, set.

KIND bench-rtl, one row per Verilated network: shape (str, "t4x4:paper", or with hardware
fields set on the configuration's, "t4x4:paper:rt_pipe=1"), nodes (int), bytes
(int), cycles (int), build_s (int, null if an earlier build was reused), rtl_cycles_per_s,
lockstep_cycles_per_s, rtl_node_cycles_per_s (cycles/s x nodes) (int; null if that run did not
pass), passed (bool: both runs passed). Key: shape, bytes.
"""
import json
import re
import sys

# mt_ni_ram's parameter defaults (rtl/mt_ni_ram.sv): a dump lists only the overridden ones
RAM_DEFAULTS = {"Depth": 16, "Width": 32}

NONE = type(None)
KINDS = {
    "area-ni": {
        "key": ("shape", "n", "stager", "set"),
        "keys": {
            "shape": (str,),
            "n": (int,),
            "stager": (bool,),
            "set": (str,),
            "logic_cells": (int, NONE),
            "flip_flops": (int, NONE),
            "ram_bits": (int, NONE),
            "rams": (list, NONE),
            "table_bits": (int,),
            "yosys_s": (int,),
        },
    },
    "bench-rtl": {
        "key": ("shape", "bytes"),
        "keys": {
            "shape": (str,),
            "nodes": (int,),
            "bytes": (int,),
            "cycles": (int, NONE),
            "build_s": (int, NONE),
            "rtl_cycles_per_s": (int, NONE),
            "lockstep_cycles_per_s": (int, NONE),
            "rtl_node_cycles_per_s": (int, NONE),
            "passed": (bool,),
        },
    },
}

def param_value(text):
    """A Yosys RTLIL constant: decimal, or <width>'<bits>."""
    text = text.strip()
    m = re.fullmatch(r"(\d+)'([01xz]+)", text)
    if m:
        return int(m.group(2).replace("x", "0").replace("z", "0"), 2)
    return int(text)


def rams(dump_path):
    out, cur = [], None
    with open(dump_path, encoding="utf-8") as f:
        for line in f:
            line = re.sub(r"^\[[0-9.]+\] ", "", line).strip()
            m = re.match(r"cell \S*mt_ni_ram\S* \\?(\S+)$", line)
            if m:
                cur = dict(RAM_DEFAULTS, name=m.group(1))
                continue
            m = re.match(r"parameter (?:signed )?\\(Depth|Width) (\S+)$", line)
            if cur is not None and m:
                cur[m.group(1)] = param_value(m.group(2))
            elif cur is not None and line == "end":
                out.append({"name": cur["name"], "depth": cur["Depth"], "width": cur["Width"]})
                cur = None
    return sorted(out, key=lambda r: r["name"])


def row_errors(kind, i, row):
    where = f"row {i}"
    if not isinstance(row, dict):
        return [f"{where}: not an object"]
    keys = KINDS[kind]["keys"]
    errs = []
    for k in sorted(set(row) - set(keys)):
        errs.append(f"{where}: unknown key {k!r}")
    for k, types in keys.items():
        if k not in row:
            errs.append(f"{where}: missing key {k!r}")
            continue
        v = row[k]
        # a bool is an int in Python: only a bool key may hold one
        if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
            errs.append(f"{where}: {k} = {v!r} is not {'/'.join(t.__name__ for t in types)}")
        elif isinstance(v, int) and not isinstance(v, bool) and v < 0:
            errs.append(f"{where}: {k} = {v} is negative")
    if errs:
        return errs
    where = f"row {i} ({', '.join(f'{k}={row[k]}' for k in KINDS[kind]['key'])})"
    if kind == "area-ni":
        errs += area_errors(where, row)
    else:
        errs += bench_errors(where, row)
    return errs


def area_errors(where, row):
    errs = []
    if row["n"] < 1:
        errs.append(f"{where}: n must be >= 1")
    done = [row[k] is not None for k in ("logic_cells", "flip_flops", "ram_bits", "rams")]
    if any(done) and not all(done):
        errs.append(f"{where}: logic_cells, flip_flops, ram_bits, rams: all null or none")
    if not all(done):
        return errs
    bits = 0
    for r in row["rams"]:
        if not (isinstance(r, dict) and set(r) == {"name", "depth", "width"}
                and isinstance(r["name"], str)
                and all(isinstance(r[k], int) and not isinstance(r[k], bool) and r[k] >= 1
                        for k in ("depth", "width"))):
            errs.append(f"{where}: bad RAM entry {r!r}")
            continue
        bits += r["depth"] * r["width"]
    if not errs and bits != row["ram_bits"]:
        errs.append(f"{where}: ram_bits {row['ram_bits']} != sum of depth x width {bits}")
    if row["flip_flops"] > row["logic_cells"]:
        errs.append(f"{where}: more flip-flops ({row['flip_flops']}) than cells ({row['logic_cells']})")
    return errs


def bench_errors(where, row):
    errs = []
    if not re.fullmatch(r"[a-z]+\d+x\d+(x\d+)?:[A-Za-z0-9_.-]+(:[a-z][a-z0-9_]*=\d+)*", row["shape"]):
        errs.append(f"{where}: shape {row['shape']!r} is not like t4x4:paper or t4x4:paper:rt_pipe=1")
    if row["nodes"] < 1:
        errs.append(f"{where}: nodes must be >= 1")
    rate, node_rate = row["rtl_cycles_per_s"], row["rtl_node_cycles_per_s"]
    if (rate is None) != (node_rate is None):
        errs.append(f"{where}: rtl_cycles_per_s and rtl_node_cycles_per_s: both null or neither")
    elif rate is not None and abs(node_rate - rate * row["nodes"]) > row["nodes"]:
        errs.append(f"{where}: rtl_node_cycles_per_s {node_rate} != {rate} x {row['nodes']} nodes")
    if row["passed"] and None in (row["cycles"], rate, row["lockstep_cycles_per_s"]):
        errs.append(f"{where}: passed, but a rate or the cycles are null")
    return errs


def load_list(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, list):
        raise ValueError("not a JSON list")
    return data


def check(kind, path):
    try:
        data = load_list(path)
    except (OSError, ValueError) as e:
        return [f"{path}: {e}"]
    errs, seen = [], set()
    for i, row in enumerate(data):
        e = row_errors(kind, i, row)
        errs += [f"{path}: {x}" for x in e]
        if not e:
            key = tuple(row[k] for k in KINDS[kind]["key"])
            if key in seen:
                errs.append(f"{path}: row {i}: a second row for {key}")
            seen.add(key)
    return errs


def merge(kind, out, parts):
    key = KINDS[kind]["key"]
    try:
        rows = load_list(out)
    except (OSError, ValueError):
        rows = []
    for p in parts:
        new = load_list(p) if p.endswith(".list.json") else [json.load(open(p, encoding="utf-8"))]
        for n in new:
            k = tuple(n.get(x) for x in key)
            rows = [r for r in rows if tuple(r.get(x) for x in key) != k] + [n]
    rows.sort(key=lambda r: tuple(str(r.get(x)) if not isinstance(r.get(x), int) else f"{r.get(x):012d}"
                                  for x in key))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")


def main(argv):
    if len(argv) == 3 and argv[1] == "rams":
        print(json.dumps(rams(argv[2])))
        return 0
    if len(argv) >= 4 and argv[1] in ("merge", "check") and argv[2] in KINDS:
        kind = argv[2]
        files = argv[3:]
        if argv[1] == "merge":
            merge(kind, argv[3], argv[4:])
            files = [argv[3]]
        errs = [e for p in files for e in check(kind, p)]
        for e in errs:
            print(e, file=sys.stderr)
        return 1 if errs else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
