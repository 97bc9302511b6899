#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make regress: Verilator co-simulation of the RTL network against the C model over many
configurations (docs/reference/regress.md).

(a) the paper configuration (Table III with its default NI: 2L = 8 receive engines, L + 2E =
    20 memory ports, chained reduction) on an 8x8 torus, MultiTree, --paper-bytes bytes (1 MiB);
(b) --n random configurations on --shapes random hardware shapes. A shape is one Verilator
    build (topology, VCs, buffer depths, link latency, sub-packet and packet sizes, NI queues,
    router arbitration, NI receive engines, memory ports and chaining, and a table layout wide enough for every algorithm on the topology up
    to the shape's max_bytes); a configuration is what the harness chooses at run time
    (algorithm, bytes, dtype, flow control, seed, memory ready %/latency). Configuration k
    runs on shape k mod S.

Everything is drawn from --seed (shape i from "shape:SEED:i", configuration k from
"cfg:SEED:k", so one configuration can be re-drawn alone: --only k). Every configuration is
checked before it runs (cosim_net_params --check: plans it, fits it into the shape's layout
and builds the C network, i.e. the same legality rules as the harness); an illegal draw is
redrawn and the reason logged. Builds are kept in OUT/obj_<shape> and reused while their
flags and inputs are unchanged. Exit status 1 on any mismatch or failure.

Environment (set by mk/net.mk): NET_VERILATE (the verilator command), NET_VSRC (sources),
NET_TOP (repository), BUILD.
"""
import argparse
import csv
import datetime
import glob
import hashlib
import json
import os
import platform
import random
import re
import shlex
import subprocess
import sys
import time

ALGOS = ["multitree", "ring", "ring2d", "dbtree", "hd"]
WD_LIMIT = 200000  # watchdog limit for every run (the NI adds 64 cycles per flit of the largest chunk)


def log(f, msg):
    print(msg, flush=True)
    if f:
        f.write(msg + "\n")
        f.flush()


# ---------------------------------------------------------------- shapes
def paper_shape(paper_bytes):
    return {
        "name": "paper_t8x8",
        "topo": "torus:8x8",
        "nodes": 64,
        "base": "paper",
        "set": {},  # Table III as mt_net_cfg_paper has it, with its default NI (E = 8, M = 20, chained)
        "max_bytes": paper_bytes,
        "algos": ["multitree"],
    }


def draw_hw(r, L):
    """The hardware parameters of a shape besides its topology, L NI links per node (a grid's
    local ports; a switch network's NI has one)."""
    num_vcs = r.choice([2, 2, 4, 4, 6, 8])
    subpkt = r.choice([1, 2, 3, 4, 4, 6, 8, 16])
    pkt_bytes = 16 * r.choice([1, 2, 3, 4, 4, 8, 16])
    pkt_flits = pkt_bytes // 16
    vc_depth = r.randint(subpkt, max(subpkt, 24))
    ej_depth = r.randint(subpkt, max(subpkt, 24))
    if r.random() < 0.75:  # mostly deep enough for packets too (virtual cut-through)
        vc_depth = max(vc_depth, pkt_flits + 1 + r.randint(0, 4))
        ej_depth = min(64, max(ej_depth, pkt_flits + 1 + r.randint(0, 4)))
    s = {
        "num_vcs": num_vcs,
        "vc_depth": vc_depth,
        "ej_depth": ej_depth,
        "link_lat": r.choice([1, 1, 2, 3, 4, 6, 10, 20]),
        "subpkt_flits": subpkt,
        "pkt_bytes": pkt_bytes,
        "ni_sq": r.choice([1, 2, 4, 4, 8, 16]),
        "ni_rq": r.choice([1, 2, 4, 8, 8, 16]),
        "step_prio": r.choice([0, 0, 1]),
    }
    # the NI (drawn after the rest, so that the other parameters of a seed stay as they were):
    # E receive engines a divisor of L or m*L with m dividing num_vcs (<= 8), M memory ports
    # 1, L+E or L+2E, chaining (with E > 1)
    engines = [e for e in (1, 1, 2, 4, 8) if L % e == 0 or (e % L == 0 and num_vcs % (e // L) == 0)]
    e = r.choice(engines)
    s["ni_rx_engines"] = e
    s["ni_mem_ports"] = r.choice([1, L + e, L + 2 * e])
    s["ni_chain"] = r.choice([0, 1])
    return s


def draw_shape(seed, i, max_nodes):
    r = random.Random("shape:%d:%d" % (seed, i))
    torus = i % 2 == 0  # both kinds, alternating
    pow2 = r.random() < 0.4  # power-of-two node counts: hd applies
    while True:
        nx, ny = (r.choice([2, 4, 8]), r.choice([2, 4, 8])) if pow2 else (r.randint(2, 8), r.randint(2, 8))
        if nx * ny <= max_nodes:
            break
    s = draw_hw(r, 4)  # L = 4: local_ports is not drawn (base small)
    kind = "torus" if torus else "mesh"
    # the largest all-reduce the shape runs: smaller for bigger networks (run time)
    max_bytes = 32768 if nx * ny <= 16 else 16384
    return {
        "name": "s%d_%s%dx%d" % (i, kind[0], nx, ny),
        "topo": "%s:%dx%d" % (kind, nx, ny),
        "nodes": nx * ny,
        "base": "small",
        "set": s,
        "max_bytes": max_bytes,
        "algos": list(ALGOS),
    }


# Switch networks (rtl/mt_swnet_top.sv, docs/reference/switch.md) and their node counts: small ones,
# each a hierarchical Verilator build of a few minutes (one hierarchy block per switch radix)
SWITCH_TOPOS = [("fattree:2,2", 4), ("fattree:4,2", 16), ("dgx2", 16), ("bigraph:2x4", 8), ("bigraph:4x4", 16),
                ("bigraph:4x8", 32)]


def draw_switch_shape(seed, i, max_nodes):
    """Shape i as a switch network: the topology, then the same hardware draws as a grid's with
    one NI link per node (L = 1); hdrm among the algorithms (planned on BiGraphs only)."""
    r = random.Random("swshape:%d:%d" % (seed, i))
    topo, n = r.choice([t for t in SWITCH_TOPOS if t[1] <= max_nodes])
    s = draw_hw(r, 1)
    return {
        "name": "s%d_%s" % (i, re.sub(r"[^a-z0-9]+", "_", topo)),
        "topo": topo,
        "nodes": n,
        "base": "small",
        "set": s,
        "max_bytes": 32768 if n <= 16 else 16384,
        "algos": ALGOS + ["hdrm"],
        "switch": True,
    }


def shape_of(seed, i, max_nodes, switch_every):
    """Shape i: every switch_every-th shape (i = switch_every-1, 2*switch_every-1, ...) a switch
    network, the others tori and meshes drawn as before switch shapes existed (same draws)."""
    if switch_every and i % switch_every == switch_every - 1:
        return draw_switch_shape(seed, i, max_nodes)
    return draw_shape(seed, i, max_nodes)


def shape_spec(sh, algos=None):
    parts = ["topo=%s" % sh["topo"], "base=%s" % sh["base"], "max_bytes=%d" % sh["max_bytes"],
             "algos=%s" % ",".join(algos or sh["algos"])]
    parts += ["%s=%s" % (k, v) for k, v in sh["set"].items()]
    return " ".join(parts)


def describe(params, spec):
    p = subprocess.run([params, "--shape", spec, "--describe"], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("cosim_net_params --shape '%s': %s" % (spec, p.stderr.strip()))
    lines = p.stdout.splitlines()
    d = {"layout": lines[0] if lines else ""}
    for line in lines[1:]:
        k, _, v = line.partition("=")
        d[k] = v
    return d


# ---------------------------------------------------------------- configurations
def draw_config(seed, k, sh, algos, attempt):
    r = random.Random("cfg:%d:%d:%d" % (seed, k, attempt))
    algo = r.choice(algos)
    n = sh["nodes"]
    # bytes: a multiple of 4, log-uniform from 64 B to the shape's max; often not a multiple
    # of the number of flows (every flow needs one element at least: redrawn if not)
    lo, hi = 64, sh["max_bytes"]
    b = int(round(2 ** r.uniform(6, hi.bit_length() - 1)))
    b = max(lo, min(hi, b - b % 4))
    if r.random() < 0.3:  # exact multiple of the node count
        b = max(4 * n, b - b % (4 * n))
    return {
        "algo": algo,
        "bytes": b,
        "dtype": r.choice(["int32", "fp32"]),
        "flow": r.choice(["message", "packet"]),
        "seed": r.randint(1, 2**31 - 1),
        "mem_ready": r.choice([100, 100, 100, 90, 75, 50, 30]),
        "mem_lat": r.choice([1, 1, 1, 2, 3, 5, 8, 16]),
    }


def run_args(c, name, max_cycles):
    return ["--algo", c["algo"], "--bytes", str(c["bytes"]), "--dtype", c["dtype"], "--flow", c["flow"],
            "--seed", str(c["seed"]), "--mem-ready", str(c["mem_ready"]), "--mem-lat", str(c["mem_lat"]),
            "--wd-limit", str(WD_LIMIT), "--max-cycles", str(max_cycles), "--name", name]


def c_alone_cmd(multitree, sh, c, json_path=None):
    """The same all-reduce on the C model alone (`multitree sim`, the schedule's own layout)."""
    cmd = [multitree, "sim", "--topo", sh["topo"], "--algo", c["algo"], "--bytes", str(c["bytes"]), "--dtype", c["dtype"],
           "--flow", c["flow"], "--config", sh["base"]]
    for k, v in sh["set"].items():
        cmd += ["--set", "%s=%s" % (k, v)]
    cmd += ["--set", "mem_p_ready=%d" % c["mem_ready"],
            "--set", "mem_lat_max=%d" % c["mem_lat"], "--set", "wd_limit=%d" % WD_LIMIT,
            "--set", "ni_stage_after=0",  # the RTL NI has no stager yet (docs/reference/ni.md "Staging")
            "--seed", str(c["seed"])]
    if json_path:
        cmd += ["--json", json_path]
    return cmd


def classify(multitree, sh, c, res):
    """A failed run without a mismatch: does the C model alone fail too (a design problem both
    models share, e.g. a deadlock), or only the co-simulation?"""
    cmd = c_alone_cmd(multitree, sh, c)
    try:
        p = subprocess.run(["nice"] + cmd, capture_output=True, text=True, timeout=1800)
        last = (p.stderr.strip().splitlines() or [""])[-1]
        rc = p.returncode
    except subprocess.TimeoutExpired:
        last, rc = "timeout", -1
    res["c_alone_cmd"] = " ".join(shlex.quote(x) for x in cmd)
    if rc != 0:
        res["class"] = "design"
        res["why"] += " | the C model alone fails too (%s): not an RTL-vs-C difference" % last
    else:
        res["class"] = "cosim"
        res["why"] += " | the C model alone completes: co-simulation failure"


def c_alone_stops(multitree, sh, c):
    """Why the C model alone (multitree sim, the run's settings) does not complete, or ''."""
    try:
        p = subprocess.run(["nice"] + c_alone_cmd(multitree, sh, c), capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "timeout after 600 s"
    return "" if p.returncode == 0 else ((p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0])[:200]


def check(params, spec, c):
    p = subprocess.run([params, "--shape", spec, "--check"] + run_args(c, "check", 1)[:-2], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()


# ---------------------------------------------------------------- builds
def _digest(parts, files):
    h = hashlib.sha1("|".join(parts).encode())
    for fn in sorted(files):
        with open(fn, "rb") as f:
            h.update(fn.encode() + b"\0" + f.read())
    return h.hexdigest()


def ensure_build(sh, spec, params, out, copt, env, logf):
    """Build (or reuse) the shape's Verilator model; returns (binary, build seconds or None if reused).
    Two keys: the Verilated model (flags + RTL + .vlt) and the harness link (cosim_net.cpp, the
    C model library and its headers). A change of the second only recompiles the harness and
    relinks (seconds), so C-model changes do not cost a Verilator build."""
    flags = subprocess.run([params, "--shape", spec], capture_output=True, text=True)
    if flags.returncode:
        raise RuntimeError("cosim_net_params: %s" % flags.stderr.strip())
    g = flags.stdout.strip()
    verilate, vsrc, top = env["NET_VERILATE"], env["NET_VSRC"], env["NET_TOP"]
    build = env.get("BUILD", "build")
    hier = int(env.get("REGRESS_HIER", "0") or 0)
    if sh["name"] == "paper_t8x8":  # the 8x8 paper network: DPI-stepped nodes (a flat build takes ~40 minutes)
        hier = int(env.get("REGRESS_PAPER_HIER", "2") or 0)
    tag = hashlib.sha1((g + "|" + copt + ("|hier%d" % hier if hier else "")).encode()).hexdigest()[:8]
    mdir = os.path.join(out, "obj_%s_%s" % (sh["name"], tag))
    binary = os.path.join(mdir, "cosim_net")
    stamp = os.path.join(mdir, "stamp")
    vkey = _digest([g, copt, verilate, str(hier)], glob.glob(os.path.join(top, "rtl", "*.sv")) +
                   [os.path.join(top, "tb", "cosim", "cosim_net.vlt"), os.path.join(top, "scripts", "net_verilate.sh")])
    lkey = _digest([], [os.path.join(top, "tb", "cosim", "cosim_net.cpp"), os.path.join(top, build, "libmt.a")] +
                   glob.glob(os.path.join(top, "cmodel", "*.h")))
    opt = "OPT_FAST=%s OPT_SLOW=-O0 OPT_GLOBAL=%s" % (copt, copt)
    old = []
    if os.path.exists(binary) and os.path.exists(stamp):
        with open(stamp) as f:
            old = f.read().split("\n")
    if len(old) > 1 and old[0] == vkey:
        if old[1] == lkey:
            return binary, None
        t0 = time.time()
        os.remove(binary)
        with open(mdir + ".relink.log", "w") as f:
            p = subprocess.run(["nice", "make", "-C", mdir, "-f", "Vmt_net_top.mk", "-j", "2"] + opt.split(), stdout=f,
                               stderr=subprocess.STDOUT)
        if p.returncode == 0 and os.path.exists(binary):
            with open(stamp, "w") as f:
                f.write("\n".join([vkey, lkey] + old[2:]))
            log(logf, "build %s: harness and C model relinked (%.0f s; the Verilated model is unchanged)" % (sh["name"], time.time() - t0))
            return binary, None
        log(logf, "build %s: relink failed, building again" % sh["name"])
    os.makedirs(mdir, exist_ok=True)
    # flat or hierarchical (REGRESS_HIER=1: mt_node Verilated once, docs/results/bench.md); the run-once
    # code (constructors, initial blocks: Verilator's __Slow files) at -O0
    # the flags quoted word by word: a switch network's vectors are Verilog literals (80'h...)
    cmd = "%s %s %d %s %s" % (shlex.quote(os.path.join(top, "scripts", "net_verilate.sh")), shlex.quote(mdir), hier,
                              shlex.quote(copt), " ".join(shlex.quote(x) for x in g.split()))
    blog = mdir + ".net_verilate.log"  # net_verilate.sh keeps Verilator's own log in mdir.build.log
    log(logf, "build %s: %s" % (sh["name"], spec))
    t0 = time.time()
    with open(blog, "w") as f:
        f.write(cmd + "\n")
        f.flush()
        p = subprocess.run(["nice", "bash", "-c", cmd], stdout=f, stderr=subprocess.STDOUT)
    dt = time.time() - t0
    if p.returncode or not os.path.exists(binary):
        with open(blog) as f:
            tail = f.read()[-3000:]
        raise RuntimeError("Verilator build of %s failed (%s):\n%s" % (sh["name"], blog, tail))
    with open(stamp, "w") as f:
        f.write("\n".join([vkey, lkey, spec, g, copt]) + "\n")
    log(logf, "build %s: %.0f s" % (sh["name"], dt))
    return binary, dt


# ---------------------------------------------------------------- runs
RE_CASE = re.compile(r"^case (\S+): .*: (\d+) cycles co-simulated, (\d+) comparisons, (.*)$")
RE_SPEED = re.compile(r"^speed: (\d+) cycles in ([\d.]+) s wall .*Verilator ([\d.]+) s = (\d+) cycles/s, C model ([\d.]+) s = (\d+) cycles/s")
RE_RESULT = re.compile(r"^RESULT (\S+) pass=(\d+) fail=(\d+)$")


def run_one(binary, args, timeout, logpath):
    t0 = time.time()
    # output straight into the log (progress lines every 30 s: tail -f it)
    with open(logpath, "w") as f:
        f.write(" ".join(shlex.quote(a) for a in [binary] + args) + "\n")
        f.flush()
        try:
            p = subprocess.run(["nice", binary] + args + ["--progress"], stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
            rc, why = p.returncode, ""
        except subprocess.TimeoutExpired:
            rc, why = -1, "timeout after %d s" % timeout
    wall = time.time() - t0
    with open(logpath) as f:
        out = f.read()
    res = {"wall": wall, "cycles": 0, "comparisons": 0, "pass": 0, "fail": 0, "mismatch": "", "rtl_s": 0.0, "c_s": 0.0,
           "rtl_cps": 0, "c_cps": 0, "why": why}
    for line in out.splitlines():
        m = RE_CASE.match(line)
        if m:
            res["cycles"], res["comparisons"] = int(m.group(2)), int(m.group(3))
        m = RE_SPEED.match(line)
        if m:
            res["rtl_s"], res["rtl_cps"], res["c_s"], res["c_cps"] = float(m.group(3)), int(m.group(4)), float(m.group(5)), int(m.group(6))
        m = RE_RESULT.match(line)
        if m:
            res["pass"] += int(m.group(2))
            res["fail"] += int(m.group(3))
        if line.startswith("MISMATCH") and not res["mismatch"]:
            res["mismatch"] = line
    if not any(RE_RESULT.match(l) for l in out.splitlines()):
        res["fail"] += 1
        res["why"] = res["why"] or "no RESULT line (exit %d)" % rc
    elif rc != 0:
        res["fail"] += 1
        res["why"] = res["why"] or "exit code %d" % rc
    if res["fail"] and not res["why"]:
        bad = [l for l in out.splitlines() if l.startswith(("MISMATCH", "the all-reduce", "buffer", "buffers", "reference")) or "does not run" in l]
        res["why"] = "; ".join(bad[:3])
    res["ok"] = res["fail"] == 0 and res["pass"] > 0
    return res


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, nproc %d, %s" % (cpu or platform.processor(), os.cpu_count() or 0, platform.platform())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=200, help="random configurations")
    ap.add_argument("--shapes", type=int, default=6, help="random hardware shapes (Verilator builds)")
    ap.add_argument("--max-nodes", type=int, default=16, help="largest random shape (nodes; 32 admits bigraph:4x8)")
    ap.add_argument("--switch-every", type=int, default=3,
                    help="every K-th shape a switch network (fattree, dgx2, bigraph); 0: tori and meshes only, "
                         "the draws of a seed as before switch shapes")
    ap.add_argument("--paper-bytes", type=int, default=1048576)
    ap.add_argument("--no-paper", action="store_true", help="skip part (a)")
    ap.add_argument("--paper-only", action="store_true", help="only part (a)")
    ap.add_argument("--only", type=str, default="", help="comma-separated configuration numbers to run (and no paper case)")
    ap.add_argument("--dry-run", action="store_true", help="draw, check and print the configurations; no build, no run")
    ap.add_argument("--copt", default="-O1")
    ap.add_argument("--params", default="build/net/cosim_net_params")
    ap.add_argument("--multitree", default="build/multitree")
    ap.add_argument("--out", default="build/regress")
    ap.add_argument("--timeout", type=int, default=3600, help="per run, seconds")
    a = ap.parse_args()
    if a.switch_every < 0:
        sys.exit("regress.py: --switch-every %d: expected 0 (tori and meshes only) or K >= 1" % a.switch_every)
    smallest = min(n for _, n in SWITCH_TOPOS)
    if a.max_nodes < 4 or (a.switch_every and a.shapes >= a.switch_every and a.max_nodes < smallest):
        sys.exit("regress.py: --max-nodes %d: the smallest torus/mesh has 4 nodes, the smallest switch network (%s) %d" % (
            a.max_nodes, SWITCH_TOPOS[0][0], smallest))

    env = dict(os.environ)
    for k in ("NET_VERILATE", "NET_VSRC", "NET_TOP"):
        if k not in env and not a.dry_run:
            sys.exit("regress.py: %s not set (run it through `make regress`)" % k)
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(os.path.join(a.out, "logs"), exist_ok=True)
    only = set(int(x) for x in a.only.split(",") if x.strip()) if a.only else None
    suffix = "" if not only and not a.dry_run and not a.paper_only and not a.no_paper else ".partial"
    logf = open(os.path.join(a.out, "summary%s.txt" % suffix), "w")
    T0 = time.time()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    repro_base = "make regress REGRESS_SEED=%d REGRESS_N=%d REGRESS_SHAPES=%d" % (a.seed, a.n, a.shapes)
    log(logf, "make regress: seed %d, %d configurations on %d random shapes%s; %s; started %s" % (
        a.seed, a.n, a.shapes, "" if a.no_paper or only else " + the paper case", machine(), started))

    # ---- shapes and their configurations
    shapes = [shape_of(a.seed, i, a.max_nodes, a.switch_every) for i in range(a.shapes)]
    notes = []  # skipped algorithms, redraws
    for sh in shapes:
        d = describe(a.params, shape_spec(sh))
        sh["algos_ok"] = [x for x in d.get("algos", "").split(",") if x]
        if int(d.get("nodes", -1)) != sh["nodes"]:  # SWITCH_TOPOS's node counts against the planner's
            sys.exit("regress.py: shape %s: %s has %s nodes (cosim_net_params --describe), the draw assumed %d" % (
                sh["name"], sh["topo"], d.get("nodes"), sh["nodes"]))
        sh["describe"] = d["layout"]
        if d.get("skipped"):
            for s in d["skipped"].split(" || "):
                notes.append("shape %s: algorithm %s (skipped: not drawn on this shape)" % (sh["name"], s))
        log(logf, "shape %s: %s | %s" % (sh["name"], shape_spec(sh, sh["algos_ok"]), sh["describe"]))

    configs = []
    for k in range(0 if a.paper_only else a.n):
        if only is not None and k not in only:
            continue
        sh = shapes[k % a.shapes]
        spec = shape_spec(sh, sh["algos_ok"])
        for attempt in range(40):
            c = draw_config(a.seed, k, sh, sh["algos_ok"], attempt)
            ok, why = check(a.params, spec, c)
            if ok:
                break
            # the same draw with message flow control if only the packet rule failed
            if c["flow"] == "packet" and "packet flow control" in why:
                notes.append("cfg %d: packet flow control illegal on %s (%s); message flow control instead" % (
                    k, sh["name"], why.split(": ", 1)[-1][:300]))
                c["flow"] = "message"
                ok, why = check(a.params, spec, c)
                if ok:
                    break
            notes.append("cfg %d attempt %d redrawn: %s" % (k, attempt, why[:200]))
        else:
            sys.exit("regress.py: no legal configuration for cfg %d after 40 draws" % k)
        # a switch network with packets: the NI without the stager (as the RTL's) can stop in
        # the C model alone (dbtree on fattree:4,2, docs/reference/switch.md), a limit both models share
        # and no RTL-vs-C test; message flow control instead if it does (the C model, ~1 s)
        if sh.get("switch") and c["flow"] == "packet":
            stop = c_alone_stops(a.multitree, sh, c)
            if stop:
                notes.append("cfg %d: packet flow control stops in the C model alone on %s (%s); message flow control instead" % (
                    k, sh["name"], stop))
                c["flow"] = "message"
                if not check(a.params, spec, c)[0]:  # messages illegal here: the packet run stays (and fails)
                    c["flow"] = "packet"
        c["k"] = k
        c["shape"] = sh
        c["name"] = "cfg%03d_%s_%s_%d_%s_%s" % (k, sh["name"], c["algo"], c["bytes"], "pkt" if c["flow"] == "packet" else "msg",
                                              "f32" if c["dtype"] == "fp32" else "i32")
        configs.append(c)
    for n in notes:
        log(logf, "note: " + n)

    if a.dry_run:
        for c in configs:
            log(logf, "cfg %d on %s: %s" % (c["k"], c["shape"]["name"], " ".join(run_args(c, c["name"], 0)[:-4])))
        return 0

    # ---- runs
    rows = []
    build_s = {}
    csvf = open(os.path.join(a.out, "summary%s.csv" % suffix), "w", newline="")
    cw = csv.writer(csvf)
    cols = ["id", "shape", "topo", "algo", "bytes", "dtype", "flow", "seed", "mem_ready", "mem_lat", "result", "cycles",
            "comparisons", "wall_s", "verilator_s", "verilator_cycles_per_s", "c_model_s", "c_model_cycles_per_s", "mismatch",
            "why", "command"]
    cw.writerow(cols)

    def record(cid, sh, c, res, cmd):
        row = [cid, sh["name"], sh["topo"], c["algo"], c["bytes"], c["dtype"], c["flow"], c["seed"], c["mem_ready"],
               c["mem_lat"], "pass" if res["ok"] else "FAIL", res["cycles"], res["comparisons"], "%.2f" % res["wall"],
               "%.2f" % res["rtl_s"], res["rtl_cps"], "%.2f" % res["c_s"], res["c_cps"], res["mismatch"], res["why"], cmd]
        cw.writerow(row)
        csvf.flush()
        rows.append(dict(zip(cols, row), shape_obj=sh, res=res))

    def perturb(sh, c, binary):
        """The lockstep comparison must still catch a wrong C model on a switch shape: the shape's
        first configuration with the C switches' credit pulses a cycle late (--perturb-router 1)
        and with switch 0 (node 0's and node 1's leaf in every switch topology drawn) sending
        node 1's units to its port 0, a network port (--perturb-route 0,1,0)."""
        for what, flag in (("router", ["--perturb-router", "1"]), ("route", ["--perturb-route", "0,1,0"])):
            args = run_args(c, "%s_perturb_%s" % (c["name"], what), 5000000) + flag
            cmd = " ".join(shlex.quote(x) for x in [binary] + args)
            res = run_one(binary, args, a.timeout, os.path.join(a.out, "logs", "%s_perturb_%s.log" % (c["name"], what)))
            res["perturbed"] = True
            caught, res["mismatch"] = res["mismatch"], ""  # the mismatch expected: not one of the regression's
            res["why"] = ("caught: " + caught) if res["ok"] else "perturbed C model NOT caught " + res["why"]
            log(logf, "perturb %-6s %-4s %-14s cfg %d: %s\n        reproduce: %s" % (
                what, "pass" if res["ok"] else "FAIL", sh["name"], c["k"], res["why"], cmd))
            record("perturb_%s_%d" % (what, c["k"]), sh, c, res, cmd)

    if not a.no_paper and only is None:
        sh = paper_shape(a.paper_bytes)
        spec = shape_spec(sh)
        sh["describe"] = describe(a.params, spec)["layout"]
        log(logf, "shape %s: %s | %s" % (sh["name"], spec, sh["describe"]))
        c = {"algo": "multitree", "bytes": a.paper_bytes, "dtype": "int32", "flow": "message", "seed": 1, "mem_ready": 100,
             "mem_lat": 1}
        ok, why = check(a.params, spec, c)
        if not ok:
            sys.exit("regress.py: the paper case is illegal: %s" % why)
        binary, bs = ensure_build(sh, spec, a.params, a.out, a.copt, env, logf)
        build_s[sh["name"]] = bs
        args = run_args(c, "paper_t8x8_multitree_%d" % a.paper_bytes, 20000000)
        cmd = " ".join(shlex.quote(x) for x in [binary] + args)
        log(logf, "paper: %s" % cmd)
        res = run_one(binary, args, 4 * a.timeout, os.path.join(a.out, "logs", "paper.log"))
        # the C model alone (the `multitree sim` front end, the schedule's own layout): same cycles
        js = os.path.join(a.out, "paper_c.json")
        sim = c_alone_cmd(a.multitree, sh, c, js)
        p = subprocess.run(["nice"] + sim, capture_output=True, text=True)
        cm = {}
        if p.returncode == 0 and os.path.exists(js):
            with open(js) as f:
                cm = json.load(f)
        res["c_alone"] = cm
        if not cm or cm.get("cycles") != res["cycles"]:
            res["fail"] += 1
            res["ok"] = False
            res["why"] = (res["why"] + "; " if res["why"] else "") + "multitree sim (C alone) took %s cycles, the co-simulation %d" % (
                cm.get("cycles"), res["cycles"])
        log(logf, "paper: %s, %d cycles, %d comparisons, %.0f s; Verilator %d cycles/s, C model in lockstep %d cycles/s, "
                  "C model alone (multitree sim) %s cycles in %s s = %s cycles/s%s" % (
                      "pass" if res["ok"] else "FAIL", res["cycles"], res["comparisons"], res["wall"], res["rtl_cps"], res["c_cps"],
                      cm.get("cycles"), cm.get("wall_s"), cm.get("cycles_per_s"), "" if res["ok"] else " -- " + res["why"]))
        record("paper", sh, c, res, cmd)

    by_shape = {}
    for c in configs:
        by_shape.setdefault(c["shape"]["name"], []).append(c)
    for sh in shapes:
        cs = by_shape.get(sh["name"], [])
        if not cs:
            continue
        spec = shape_spec(sh, sh["algos_ok"])
        try:
            binary, bs = ensure_build(sh, spec, a.params, a.out, a.copt, env, logf)
        except RuntimeError as x:
            log(logf, str(x))
            build_s[sh["name"]] = "failed"
            for c in cs:
                res = {"ok": False, "wall": 0, "cycles": 0, "comparisons": 0, "rtl_s": 0, "rtl_cps": 0, "c_s": 0, "c_cps": 0,
                       "mismatch": "", "why": "build failed", "pass": 0, "fail": 1}
                record(c["k"], sh, c, res, "")
            continue
        build_s[sh["name"]] = bs
        for c in cs:
            args = run_args(c, c["name"], 5000000)
            cmd = " ".join(shlex.quote(x) for x in [binary] + args)
            res = run_one(binary, args, a.timeout, os.path.join(a.out, "logs", c["name"] + ".log"))
            if not res["ok"] and not res["mismatch"]:
                classify(a.multitree, sh, c, res)
            log(logf, "cfg %3d %-4s %-14s %-9s %6d B %-5s %-7s mem %3d%%/%-2d seed %-10d %7d cycles %6.1f s %6d cyc/s%s\n"
                      "        reproduce: %s   (or: %s REGRESS_ARGS='--only %d')" % (
                          c["k"], "pass" if res["ok"] else "FAIL", sh["name"], c["algo"], c["bytes"], c["dtype"], c["flow"],
                          c["mem_ready"], c["mem_lat"], c["seed"], res["cycles"], res["wall"], res["rtl_cps"],
                          "" if res["ok"] else " -- " + res["why"], cmd, repro_base, c["k"]))
            record(c["k"], sh, c, res, cmd)
        if sh.get("switch"):
            perturb(sh, cs[0], binary)
    csvf.close()

    # ---- summary
    wall = time.time() - T0
    nfail = sum(1 for r in rows if not r["res"]["ok"])
    nmis = sum(1 for r in rows if r["res"]["mismatch"])
    log(logf, "")
    log(logf, "per shape (Verilator cycles/s = simulated cycles / time in the Verilated model; C model the same in lockstep):")
    log(logf, "%-14s %-10s %5s %6s %10s %10s %12s %12s  %s" % ("shape", "topo", "runs", "fail", "build_s", "cycles",
                                                               "verilator/s", "c_model/s", "hardware"))
    shapes_all = ([paper_shape(a.paper_bytes)] if any(r["id"] == "paper" for r in rows) else []) + shapes
    for sh in shapes_all:
        rs = [r for r in rows if r["shape"] == sh["name"] and not r["res"].get("perturbed")]
        if not rs:
            continue
        cyc = sum(r["res"]["cycles"] for r in rs)
        ts = sum(r["res"]["rtl_s"] for r in rs)
        tc = sum(r["res"]["c_s"] for r in rs)
        bs = build_s.get(sh["name"])
        log(logf, "%-14s %-10s %5d %6d %10s %10d %12.0f %12.0f  %s" % (
            sh["name"], sh["topo"], len(rs), sum(1 for r in rs if not r["res"]["ok"]), "reused" if bs is None else bs if isinstance(bs, str) else "%.0f" % bs, cyc,
            cyc / ts if ts else 0, cyc / tc if tc else 0, " ".join("%s=%s" % kv for kv in sh["set"].items()) or "Table III"))
    algos = {}
    for r in rows:
        if r["res"].get("perturbed"):
            continue
        algos.setdefault(r["algo"], 0)
        algos[r["algo"]] += 1
    log(logf, "algorithms: " + ", ".join("%s %d" % kv for kv in sorted(algos.items())))
    plain = [r for r in rows if not r["res"].get("perturbed")]
    pert = [r for r in rows if r["res"].get("perturbed")]
    log(logf, "flow: message %d, packet %d; dtype: int32 %d, fp32 %d" % (
        sum(r["flow"] == "message" for r in plain), sum(r["flow"] == "packet" for r in plain),
        sum(r["dtype"] == "int32" for r in plain), sum(r["dtype"] == "fp32" for r in plain)))
    if pert:
        log(logf, "perturbed C model on switch shapes: %d runs, %d caught" % (len(pert), sum(1 for r in pert if r["res"]["ok"])))
    for r in rows:
        if not r["res"]["ok"]:
            log(logf, "FAILED %s: %s\n    co-simulation: %s%s" % (r["id"], r["res"]["mismatch"] or r["res"]["why"], r["command"],
                                                            "\n    C model alone: " + r["res"]["c_alone_cmd"] if r["res"].get("c_alone_cmd") else ""))
    ndesign = sum(1 for r in rows if r["res"].get("class") == "design")
    nb = sum(1 for v in build_s.values() if v is not None and not isinstance(v, str))
    log(logf, "regress: %d configurations run (%s%s), %d passed, %d failed (%d RTL-vs-C mismatches, %d failing in the C model alone "
              "too); %d Verilator builds (%d reused, %d failed); wall %.0f s; seed %d" % (
                  len(rows), "paper case + %d random" % (len(plain) - 1) if any(r["id"] == "paper" for r in rows) else "%d random" % len(plain),
                  " + %d perturbed" % len(pert) if pert else "", len(rows) - nfail, nfail, nmis, ndesign, nb, sum(1 for v in build_s.values() if v is None),
                  sum(1 for v in build_s.values() if isinstance(v, str)), wall, a.seed))
    logf.close()
    return 1 if nfail or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
