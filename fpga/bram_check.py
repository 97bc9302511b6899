#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bram_check.py: the schedule tables of an ECP5 bitstream read back, and the place-and-route report.

  extract --placeholder CFG --images DIR --config CFG2 --layout LAYOUT.json --out OUT
      CFG is the placed design's Trellis text configuration with the random placeholder tables
      (DIR/node<n>.bram, `ecpbram -g`) it was synthesized with; CFG2 the configuration of a
      bitstream (ecpunpack) into which other tables were patched. Each placeholder bit column
      (512 words of one bit) is located in CFG's block RAM contents, as ecpbram locates them (every
      DP16KD, every data width 1..36, every bit lane); the same places in CFG2 give the patched
      tables, written to OUT/node<n>.bram with LAYOUT.json, for `multitree decode OUT`.
  report --pnr PNR.json --log NEXTPNR.log
      utilisation (LUT4, flip-flops, DP16KD, MULT18X18D) and the Fmax of every clock.
"""
import argparse
import json
import os
import re
import shutil
import sys

# ecpbram's view of a DP16KD's contents (libtrellis/tools/ecpbram.cpp): data width, bits per
# stored word, bit lanes
MODES = [(1, 8, 32), (2, 8, 32), (4, 8, 32), (9, 9, 36), (18, 9, 36), (36, 9, 36)]
DEPTH = 512  # words per slice


def die(msg):
    sys.exit("bram_check: " + msg)


def read_brams(path):
    """.bram_init N followed by 3-digit hex words: {N: [word, ...]}"""
    brams, cur = {}, None
    for line in open(path):
        if line.startswith(".bram_init"):
            cur = brams.setdefault(int(line.split()[1]), [])
        elif line.startswith("."):
            cur = None
        elif cur is not None:
            cur.extend(int(x, 16) for x in line.split())
    return brams


def slices(data):
    """every (mode, lane, block) slice of 512 bits of one BRAM, as an int with bit k = word k"""
    for mi, (w, nw, nb) in enumerate(MODES):
        for j in range(nb):
            v = 0
            for k in range(DEPTH):
                bn = k * w + (j % w) + (j // w) * DEPTH * w
                wd, bit = divmod(bn, nw)
                if wd < len(data) and (data[wd] >> bit) & 1:
                    v |= 1 << k
            yield (mi, j), v


def read_image(path):
    return [int(x, 16) for x in open(path).read().split()]


def extract(a):
    ly = json.load(open(a.layout))
    width, depth = ly["width"], ly["depth"]
    if depth != DEPTH:
        die("%s: depth %d; this reads tables of one 512-word slice" % (a.layout, depth))
    nodes = ly["nodes"]
    want = {}  # placeholder column -> (node, bit)
    for n in range(nodes):
        img = read_image(os.path.join(a.images, "node%d.bram" % n))
        if len(img) != depth:
            die("%s/node%d.bram: %d words, expected %d" % (a.images, n, len(img), depth))
        for c in range(width):
            col = sum(((img[k] >> c) & 1) << k for k in range(depth))
            if col in want:
                die("placeholder column node %d bit %d equals node %d bit %d: ambiguous" % (n, c, *want[col]))
            want[col] = (n, c)
    where = {}  # (node, bit) -> [(bram, mode, lane)]
    for idx, data in read_brams(a.placeholder).items():
        for (mi, j), v in slices(data):
            if v in want:
                where.setdefault(want[v], []).append((idx, mi, j))
    patched = read_brams(a.config)
    cache = {}
    out = [[0] * depth for _ in range(nodes)]
    missing, copies, disagree = [], 0, []
    for (n, c) in sorted(want.values()):
        locs = where.get((n, c), [])
        if not locs:
            missing.append((n, c))
            continue
        vals = set()
        for idx, mi, j in locs:
            if idx not in cache:
                cache[idx] = dict(slices(patched.get(idx, [])))
            vals.add(cache[idx][(mi, j)])
        copies += len(locs)
        if len(vals) > 1:
            disagree.append((n, c))
        v = min(vals)
        for k in range(depth):
            out[n][k] |= ((v >> k) & 1) << c
    os.makedirs(a.out, exist_ok=True)
    shutil.copy(a.layout, os.path.join(a.out, "layout.json"))
    nd = (width + 3) // 4
    for n in range(nodes):
        with open(os.path.join(a.out, "node%d.bram" % n), "w") as f:
            f.write("".join("%0*x\n" % (nd, w) for w in out[n]))
    brams = sorted({l[0] for locs in where.values() for l in locs})
    print("bram_check: %d nodes x %d bits of table found in %d DP16KD (%d bit columns, %d copies); read back into %s"
          % (nodes, width, len(brams), len(want) - len(missing), copies, a.out))
    if missing:
        die("%d table bit columns are in no block RAM of %s (first: node %d bit %d)" % (len(missing), a.placeholder, *missing[0]))
    if disagree:
        die("copies of node %d bit %d hold different contents in %s" % (*disagree[0], a.config))


def report(a):
    rep = json.load(open(a.pnr))
    util = rep.get("utilization", {})
    log = open(a.log).read()
    def used(k):
        u = util.get(k, {})
        return "%d of %d (%.0f%%)" % (u.get("used", 0), u.get("available", 0), 100.0 * u.get("used", 0) / max(1, u.get("available", 1)))
    comb = util.get("TRELLIS_COMB", {})
    print("utilisation: LUT4 (TRELLIS_COMB) %s, flip-flops (TRELLIS_FF) %s, DP16KD %s, MULT18X18D %s, TRELLIS_RAMW %s"
          % (used("TRELLIS_COMB"), used("TRELLIS_FF"), used("DP16KD"), used("MULT18X18D"), used("TRELLIS_RAMW")))
    fits = all(u.get("used", 0) <= u.get("available", 0) for u in util.values())
    print("fits the LFE5U-85F: %s" % ("yes" if fits and comb else "no"))
    for clk, f in rep.get("fmax", {}).items():
        ach, con = f.get("achieved", 0), f.get("constraint", 0)
        print("Fmax %s: %.2f MHz (constraint %.2f MHz): timing %s" % (clk, ach, con, "met" if ach >= con else "NOT met"))
    # one clock's report: its lines up to its own "ns logic" line ([^\n]*: re.S lets .* run past it)
    m = re.findall(r"Critical path report for clock '([^']*)'[^\n]*\n((?:Info: [^\n]*\n)+?)Info: \d+\.\d+ ns logic", log)
    for clk, body in m[-1:]:
        lines = [l for l in body.splitlines() if re.search(r"Source|Sink", l)]
        if lines:
            print("critical path (%s): %s ... %s" % (clk, lines[0].split("Info:")[-1].strip(), lines[-1].split("Info:")[-1].strip()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract")
    for k in ("--placeholder", "--images", "--config", "--layout", "--out"):
        e.add_argument(k, required=True)
    r = sub.add_parser("report")
    r.add_argument("--pnr", required=True)
    r.add_argument("--log", required=True)
    a = ap.parse_args()
    extract(a) if a.cmd == "extract" else report(a)


if __name__ == "__main__":
    main()
