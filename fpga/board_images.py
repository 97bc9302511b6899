#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board_images.py: everything the FPGA board top (fpga/mt_board.sv, fpga/ulx3s/top.sv) loads at
configuration, for one all-reduce, into OUT:

  rom/node<n>.bram, rom/layout.json   the schedule tables: `multitree rom --format bram --fit NI`
  grad/node<n>.bank<b>.hex            node n's seeded inputs (mt_ref_inputs, docs/reference/
                                      formats.md "Seeded inputs"), element e in bank e % lanes
  expect.hex                          per node the FNV-1a of its result, as `multitree ref` prints it
  board_params.svh                    mt_board's parameter list: the shape (NET and NI files, through
                                      `multitree shape --gflags`), the schedule's flows and tiling
                                      (layout.json) and OUT (ImgDir)
  run.txt                             what the run must give: `multitree sim --config NET` cycles

The inputs are generated here and checked against `multitree ref`: the FNV-1a of their exact sum
must equal the one it prints (int32), so the images are the reference's inputs.
Usage: board_images.py --multitree BIN --net configs/net/fpga.cfg --ni configs/ni/fpga.cfg
                       --topo torus:2x2 --algo multitree --bytes 4096 [--seed S] --out DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys

# mt_board's parameters and the shape file each comes from (the names of `multitree shape --gflags`)
NET_PARAMS = ["PayloadW", "NumVcs", "VcDepth", "EjDepth", "SubPktFlits", "PktBytes", "L", "LinkLat", "SQ", "RQ"]
NI_PARAMS = ["Depth", "MaxFlows", "FlowW", "StepW", "IdW", "PortW", "EjW", "AddrW", "SizeW", "Children"]
# what mt_board builds and the shapes must agree with
FIXED = {"RxEngines": 1, "MemPorts": 1, "ReduceChain": 0, "Compact": 0}
M32 = 0xFFFFFFFF


def die(msg):
    sys.exit("board_images: " + msg)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        die("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def gflags(mt, path):
    """-GName=value of a shape file as {Name: int} (the first value of a name wins, as Verilator's)"""
    out = {}
    for m in re.finditer(r"-G([A-Za-z0-9_]+)=(\S+)", run([mt, "shape", "--gflags", path])):
        out.setdefault(m.group(1), int(m.group(2), 0))
    return out


def inputs(seed, node, nwords):
    """mt_ref_inputs, int32: xorshift32 seeded with seed*0x9E3779B1 ^ (node+1)*0x85EBCA6B (0 -> 1)"""
    x = ((seed * 0x9E3779B1) ^ ((node + 1) * 0x85EBCA6B)) & M32
    x = x or 1
    w = []
    for _ in range(nwords):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        w.append(x)
    return w


def fnv1a(words):
    h = 2166136261
    for v in words:
        h = ((h ^ v) * 16777619) & M32
    return h


def size(text):
    """a byte count with an optional K or M suffix (powers of 1024), as multitree takes it"""
    m = re.fullmatch(r"(\d+)([KM]?)", text)
    if not m:
        raise argparse.ArgumentTypeError("expected a byte count such as 4096 or 4K")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20}[m.group(2)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--multitree", required=True)
    ap.add_argument("--net", required=True)
    ap.add_argument("--ni", required=True)
    ap.add_argument("--topo", default="torus:2x2")
    ap.add_argument("--algo", default="multitree")
    ap.add_argument("--bytes", type=size, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.topo != "torus:2x2":
        die("the board is a 2x2 torus (fpga/mt_board.sv), not %s" % a.topo)
    out = os.path.abspath(a.out)
    net, ni = gflags(a.multitree, a.net), gflags(a.multitree, a.ni)
    for k in sorted(set(net) & set(ni)):
        if net[k] != ni[k] and k != "WdW":
            die("%s has %s=%d, %s has %d: one shape, two values" % (a.net, k, net[k], a.ni, ni[k]))
    for k, v in FIXED.items():
        for f, g in ((a.net, net), (a.ni, ni)):
            if k in g and g[k] != v:
                die("%s: %s=%d, the board builds %s=%d" % (f, k, g[k], k, v))
    params = [(k, net[k]) for k in NET_PARAMS] + [(k, net.get(k, 0)) for k in ("RtPipe", "AluPipe")] + \
        [(k, ni[k]) for k in NI_PARAMS]
    lanes = net["PayloadW"] // 32

    os.makedirs(os.path.join(out, "grad"), exist_ok=True)
    run([a.multitree, "rom", "--topo", a.topo, "--algo", a.algo, "--bytes", str(a.bytes), "--format", "bram", "--fit", a.ni,
         "--out", os.path.join(out, "rom"), "--quiet"])
    ly = json.load(open(os.path.join(out, "rom", "layout.json")))
    nodes, nw = ly["nodes"], a.bytes // 4
    if a.bytes % (4 * lanes):
        die("--bytes %d: the buffer is whole rows of %d bytes" % (a.bytes, 4 * lanes))

    total = [0] * nw
    for n in range(nodes):
        w = inputs(a.seed, n, nw)
        total = [(s + v) & M32 for s, v in zip(total, w)]
        for b in range(lanes):
            with open(os.path.join(out, "grad", "node%d.bank%x.hex" % (n, b)), "w") as f:
                f.write("".join("%08x\n" % v for v in w[b::lanes]))
    ref = run([a.multitree, "ref", "--topo", a.topo, "--algo", a.algo, "--bytes", str(a.bytes), "--seed", str(a.seed),
               "--local-ports", str(net["L"])])
    m = re.search(r"result FNV-1a ([0-9a-f]{8})", ref)
    if not m:
        die("no FNV-1a in multitree ref's output:\n" + ref)
    want = int(m.group(1), 16)
    if fnv1a(total) != want:
        die("the inputs written here sum to FNV-1a %08x, multitree ref says %08x: not its inputs" % (fnv1a(total), want))
    with open(os.path.join(out, "expect.hex"), "w") as f:
        f.write("".join("%08x\n" % want for _ in range(nodes)))

    sim = run([a.multitree, "sim", "--topo", a.topo, "--algo", a.algo, "--bytes", str(a.bytes), "--seed", str(a.seed),
               "--config", a.net])
    m = re.search(r": (\d+) cycles", sim)
    if not m:
        die("no cycle count in multitree sim's output:\n" + sim)
    sched = [("Bytes", a.bytes), ("Flows", ly["flows"]), ("Elem", ly["elem"]), ("BaseUnits", ly["base_units"]),
             ("RemUnits", ly["rem_units"])]
    with open(os.path.join(out, "board_params.svh"), "w") as f:
        f.write("// generated by fpga/board_images.py from %s, %s and %s on %s, %d bytes: mt_board's parameters\n"
                % (a.net, a.ni, a.algo, a.topo, a.bytes))
        f.write(",\n".join("  .%s(%d)" % kv for kv in params + sched) + ',\n  .ImgDir("%s")\n' % out)
    with open(os.path.join(out, "run.txt"), "w") as f:
        f.write("algo=%s topo=%s bytes=%d seed=%d cycles=%s fnv=%08x\n" % (a.algo, a.topo, a.bytes, a.seed, m.group(1), want))
    print("board_images: %s: %s %d bytes seed %d, %d nodes, tables %d x %d bits, result FNV-1a %08x (= multitree ref), "
          "multitree sim %s cycles" % (out, a.algo, a.bytes, a.seed, nodes, ly["depth"], ly["width"], want, m.group(1)))


if __name__ == "__main__":
    main()
