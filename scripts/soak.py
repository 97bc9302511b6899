#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make soak: random all-reduce simulations under ASan+UBSan (docs/reference/soak.md; issue #11).

Run i is drawn from random.Random("soak:SEED:i") alone, so any run can be re-drawn by itself
(--only i) and every failure is printed with the exact command that reproduces it. A run is
one `build/multitree-san sim` (tori, meshes and rings: the topologies the network model
simulates) or, for the topologies only the planner takes (the switched / multilink files of
tb/cmodel/data/, fat-trees, BiGraph), one `build/multitree-san ref` (the untimed all-reduce
through the schedule tables; int32 is compared with the exact sum).

What is drawn: topology, algorithm (from `multitree --help`, those that accept the topology;
a few draws of any algorithm), --bytes, --dtype, --flow, --config (configs/net/*.cfg),
--seed, and every `--set` key that `multitree shape --keys` marks "net" (a key without a
draw rule below stops the soak: a new field cannot be left out silently). Values are biased
to small ones and include the edges of the range the model accepts; about one run in ten
also draws a value that `shape --keys` documents as legal but the model refuses (ranges
narrower than the documented ones), to count those refusals.

Policy (docs/reference/soak.md): link_lat and mem_lat_max are drawn up to 1000 (mostly up to 20 and
16; the run length grows with them: link_lat 1000000 took 8.8 s without sanitizers); the
watchdog must mean a hang: wd_limit is the configuration's only where that is above floor (an
estimate of the longest legal wait from every drawn latency and link period, the memory's wait
and the buffers' rate: flit_time, shrink_and_floor, fit_floor), else drawn from floor..U32MAX;
10% of runs turn it off (0), and then (and for U32MAX) max_cycles = 10 x floor + N x
ni_stage_after, 300,000..5,000,000, turns a hang into a stop;
otherwise max_cycles is the configuration's or drawn from 5,000,000, 10^9 and its maximum
(a smaller limit stops legal runs by design). On a slow network the size shrinks so that
a run stays within seconds. clock_ghz (reporting only) is drawn too.

Oracle of the lower bound (docs/reference/bounds.md): no simulation may finish below it. `sim`
refuses such a run itself (exit 1, "below its ... lower bound"); the soak also works out the
aggregate bound 2(N-1)S / (B x the links into nodes, a link of dimension d counting
1/link_period_d) from the grid's link list and compares it with the one sim reports in
--json (average_bound_cycles) and with the cycles, so a bound wrong in the C code either way
is caught (MT_BOUND_SCALE=0.5 or 2 in the environment injects such a fault).

Classes: OK, REFUSED (exit 2 with a message, before the run), WRONG (sums differ),
SANITIZER (an ASan/UBSan/LSan report), WATCHDOG (an NI or router watchdog, or max_cycles
with the watchdog off; DEADLOCK-STAGER-OFF instead, not a failure, when the stager is off and
reruns show a deadlock that the stager clears), HWERROR (an NI stopped with another error code, a router overflow
flag), BOUND (a run below its lower bound, or a reported bound that differs from the
soak's), CRASH (a signal, or an exit status or output the tool never gives), TIMEOUT (the
external per-run limit). Exit status 1 if any run is WRONG, SANITIZER, WATCHDOG, HWERROR,
BOUND, CRASH or TIMEOUT. The runs go through GNU parallel (--jobs at a time); each is one call of
this script with --exec.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time

FAIL_CLASSES = ("WRONG", "SANITIZER", "WATCHDOG", "HWERROR", "BOUND", "CRASH", "TIMEOUT")
# a watchdog stop of a run with the NI stager off (ni_stage_after=0) that is still stuck with the
# watchdog off and completes, correct, with the stager on: the known deadlock the stager exists to
# clear (docs/reference/ni.md "Staging not-due units"), reported by the watchdog as it must be
DEADLOCK_STAGER_OFF = "DEADLOCK-STAGER-OFF"
STAGER_ON = 20000  # the stager's T of configs/net/paper.cfg and small.cfg, for the confirming rerun
# a grid run past the per-run limit that the same command completes, correct, within SLOW_FACTOR
# times the limit: a budget overrun, not a hang (the models stop a hang themselves: watchdog,
# max_cycles), listed with its command
SLOW = "SLOW"
SLOW_FACTOR = 5
CLASSES = ("OK", "REFUSED", DEADLOCK_STAGER_OFF, SLOW) + FAIL_CLASSES
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
U32 = 4294967295
SIM_TOPO_FILES = ["tb/cmodel/data/switched.topo", "tb/cmodel/data/multilink.topo", "tb/cmodel/data/star.topo"]
WD_OFF_MAX_CYCLES = 5000000
SLOW_CYCLES = 400000  # the data of a run moves in about this many cycles at the slowest rate drawn
RE_SAN = re.compile(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|UndefinedBehaviorSanitizer|"
                    r"AddressSanitizer:DEADLYSIGNAL")


# ---------------------------------------------------------------- what the tool says it takes
def tool_algos(binary):
    p = subprocess.run([binary, "--help"], capture_output=True, text=True)
    for line in (p.stdout + p.stderr).splitlines():
        if line.startswith("Algorithms:"):
            return line.split(":", 1)[1].split()
    sys.exit("soak.py: `%s --help` lists no 'Algorithms:' line" % binary)


def tool_net_keys(binary):
    """{key: (min, max)} of every key `shape --keys` marks as a network-configuration key."""
    p = subprocess.run([binary, "shape", "--keys"], capture_output=True, text=True)
    keys = {}
    for line in p.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        # key, where (may contain ',' and is glued to the RTL name when long), RTL, lo..hi, what
        m = re.match(r"^(\S+)\s+(\S+)\s.*?\s(-?[\d.e+-]+)\.\.([\d.e+-]+)\s", line)
        if not m:
            sys.exit("soak.py: cannot read `shape --keys` line: %s" % line)
        if "net" in m.group(2).split(","):
            keys[m.group(1)] = (float(m.group(3)), float(m.group(4)))
    if not keys:
        sys.exit("soak.py: `%s shape --keys` lists no network keys" % binary)
    return keys


def read_cfg(name, depth=0):
    """configs/net/NAME.cfg with its base, as {key: number}."""
    out = {}
    with open(os.path.join(TOP, "configs", "net", name + ".cfg")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            k, _, v = (x.strip() for x in line.partition("="))
            if k == "base":
                out.update(read_cfg(v, depth + 1))
            else:
                out[k] = float(v)
    return out


def config_names():
    # paper-sim: the paper simulator's NI, not the project's (docs/reference/papersim.md; its own tests)
    return sorted(f[:-4] for f in os.listdir(os.path.join(TOP, "configs", "net")) if f.endswith(".cfg") and f != "paper-sim.cfg")


# ---------------------------------------------------------------- draws
def small(r, lo, hi, edges=()):
    """An integer in lo..hi, log-biased to small values; the edges now and then."""
    if edges and r.random() < 0.08:
        return r.choice(list(edges))
    if hi <= lo:
        return lo
    return min(hi, lo + int(2 ** r.uniform(0, math.log2(hi - lo + 1))) - 1)


def is_pow2(n):
    return n > 0 and n & (n - 1) == 0


def draw_topo(r):
    """(spec, kind, dims, mode): mode sim (the network model takes it) or ref."""
    u = r.random()
    if u < 0.08:  # topologies only the planner takes: ref runs
        v = r.random()
        if v < 0.5:
            spec = "file:" + r.choice(SIM_TOPO_FILES)
        elif v < 0.75:
            spec = "fattree:%d,%d" % (r.choice([2, 2, 4]), r.choice([2, 2, 3]))
        else:
            spec = "bigraph:%dx%d" % (r.choice([1, 2, 2, 4]), r.choice([2, 4]))
        return spec, spec.split(":")[0], [], "ref"
    if u < 0.20:
        n = small(r, 2, 16, (2, 16))
        return "ring:%d" % n, "ring", [n], "sim"
    kind = "torus" if r.random() < 0.5 else "mesh"
    nd = r.choice([1, 2, 2, 2, 3])
    pow2 = r.random() < 0.4  # hd and hdrm need a power-of-two node count
    for _ in range(100):
        if pow2:
            d = [r.choice([2, 2, 4, 4, 8]) for _ in range(nd)]
        elif nd == 1:
            d = [small(r, 2, 16)]
        elif nd == 2:
            d = [r.randint(2, 6), r.randint(2, 6)]
        else:
            d = [r.randint(2, 3) for _ in range(3)]
        if r.random() < 0.01:  # a one-wide dimension (refused: use ring:N)
            d[r.randrange(nd)] = 1
        big = r.random() < 0.03
        if math.prod(d) <= (64 if big else 32):
            break
    return "%s:%s" % (kind, "x".join(map(str, d))), kind, d, "sim"


def algo_accepts(algo, kind, dims, nodes):
    if algo in ("hd", "hdrm") and not is_pow2(nodes):
        return False
    # FlexReduce and BlueConnect need a tree of switches, hier and Themis a torus or a dims:
    # system: on the other topologies here they are refused (their own runs: draw_surface_run)
    if algo in ("flexreduce", "blueconnect"):
        return False
    if algo in ("hier", "themis", "dimbal"):
        return kind == "torus"
    if algo == "bucket":
        return kind in ("torus", "mesh", "ring")
    if algo == "hdrm":
        return kind == "bigraph"
    if algo == "ring2d":
        return kind in ("torus", "mesh") and len(dims) == 2 and min(dims) >= 2
    return True


def file_count(spec, key):
    """The number after the directive key ('nodes', 'switches') of a file: topology, 0 without it."""
    with open(os.path.join(TOP, spec[5:])) as f:
        for line in f:
            w = line.split()
            if len(w) > 1 and w[0] == key:
                return int(w[1])
    return 0


def has_switches(spec, kind):
    """True for a topology with switches: fat trees, BiGraph, a file: with a 'switches' line above 0."""
    return kind in ("fattree", "bigraph") or (kind == "file" and file_count(spec, "switches") > 0)


def plan_refuses(algo, kind, spec, dims, nodes, nbytes):
    """Why the planner refuses a draw that algo_accepts and draw_bytes take (None if it does not):
    MeshTree on a network with switches; fewer elements than hier's, dimbal's or Themis's flows (chunks x
    nodes x 2 directions where a dimension is longer than 2: mt_themis_split) or than a bucket
    part's flows (a part per dimension and direction, of uneven sizes: below 4 x D x nodes
    elements some part may have fewer than nodes)."""
    units = nbytes // 4
    H = 2 if dims and max(dims) > 2 else 1
    if algo == "meshtree" and has_switches(spec, kind):
        return "meshtree needs a network without switches"
    if algo in ("hier", "themis", "dimbal") and units < (64 if algo == "themis" else 1) * nodes * H:
        return "fewer elements than %s's flows" % algo
    if algo == "bucket" and units < 4 * max(1, len(dims)) * nodes:
        return "a bucket part may have fewer elements than its flows"
    return None


def topo_nodes(spec, kind, dims):
    if dims:
        return math.prod(dims)
    if kind == "fattree":
        k, l = map(int, spec.split(":")[1].split(","))
        return k ** l
    if kind == "bigraph":
        m, n = map(int, spec.split(":")[1].split("x"))
        return 2 * m * n
    return file_count(spec, "nodes")


def draw_bytes(r, nodes):
    """A multiple of 4, log-uniform from 4 x nodes (one element per flow of the widest
    algorithms) to a maximum that keeps a sanitizer run short; edges and a few refusals."""
    hi = 32768 if nodes <= 16 else 16384 if nodes <= 32 else 8192
    lo = 4 * nodes
    u = r.random()
    if u < 0.01:
        return r.choice([4 * nodes - 4, 0]), False  # fewer elements than flows, 0 bytes
    if u < 0.02:
        return 4 * r.randint(1, 64) + r.choice([1, 2, 3]), False  # not whole words
    if u < 0.06:
        return lo, True
    b = int(2 ** r.uniform(math.log2(lo), math.log2(hi)))
    b -= b % 4
    if r.random() < 0.3:
        b -= b % (4 * nodes)
    return max(lo, b), True


def draw_sets(r, cfg, dims, nbytes, nodes, flow):
    """{key: value} for the --set options (a key left out keeps the configuration's value) and
    the names of the keys drawn outside the range the model accepts."""
    s = {}
    out = []  # keys drawn in the documented range but outside the model's
    maybe = []  # draws the model refuses in some cases only

    def pick(k, legal, bad=None, p_bad=0.01):
        """set key k (half the time): legal() mostly, bad() with probability p_bad"""
        if bad is not None and r.random() < p_bad:
            s[k] = bad()
            out.append(k)
        elif r.random() < 0.5:
            s[k] = legal()

    def eff(k):
        return int(s.get(k, cfg[k]))

    D = len(dims) if dims else 1

    def lat_draw(usual):
        """a latency: mostly 1..usual, now and then up to 1000 (run length grows with it)"""
        return small(r, 1, usual, (1,)) if r.random() < 0.88 else small(r, usual, 1000, (1000,))

    pick("payload_w", lambda: r.choice([128, 128, 128, 256, 512]),
         lambda: r.choice([x for x in range(160, 512, 32) if x not in (256,)]))
    pick("num_vcs", lambda: r.choice([2, 2, 4, 4, 6, 8]), lambda: r.choice([1, 3, 5, 7, 10, 12, 16]))
    # depths from 2 (a 1-flit buffer has no room for a packet: only an edge draw)
    pick("vc_depth", lambda: small(r, 2, 48, (1, 65535)))
    pick("ej_depth", lambda: small(r, 2, 64, (1, 64)), lambda: small(r, 1025, 65535, (65535,)))  # MT_NI_MAX_EJD
    depth = min(eff("vc_depth"), eff("ej_depth"))
    # message flow control needs a sub-packet in a buffer; packets (and every schedule with
    # multi-hop transfers) a whole packet and its head flit (virtual cut-through): when the
    # configuration's value does not fit the drawn depths, a fitting one is drawn
    sub_legal = lambda: small(r, 1, min(depth, 32), (1, depth))
    pick("subpkt_flits", sub_legal, lambda: small(r, depth + 1, 65535, (65535,)))
    if "subpkt_flits" not in s and eff("subpkt_flits") > depth:
        s["subpkt_flits"] = sub_legal()
    fb = eff("payload_w") // 8
    pmax = max(1, min(depth - 1, 16))
    pkt_legal = lambda: fb * small(r, 1, pmax, (1, pmax))
    pick("pkt_bytes", pkt_legal, lambda: r.choice([1, fb - 1, fb + 1, fb * (depth + 1), U32]))
    if "pkt_bytes" in out and flow == "message" and s["pkt_bytes"] % fb == 0:  # too big only for packets
        out.remove("pkt_bytes")
        maybe.append("a packet larger than the buffers (refused if the schedule has multi-hop transfers)")
    if "pkt_bytes" not in s and (eff("pkt_bytes") % fb or eff("pkt_bytes") // fb + 1 > depth):
        s["pkt_bytes"] = pkt_legal()
    if depth < 2:
        maybe.append("a 1-flit buffer (no room for a packet)")
    pick("step_prio", lambda: r.randint(0, 1))
    pick("local_ports", lambda: r.choice([0, 0, 0, 1, 2 * D, r.randint(1, 8), 8]))
    if 0 < eff("local_ports") < 2 * D:  # refused where neighbours would share an ejection port (also the configuration's value)
        maybe.append("fewer local ports than network ports (shared ejection ports are refused, docs/reference/ni.md Limits)")
    pick("mem_p_ready", lambda: r.choice([100, 100, 100, 90, 75, 50, 30, 10, 1 if r.random() < 0.3 else 5]), lambda: 0)
    pick("mem_lat_max", lambda: lat_draw(16), lambda: r.choice([0, 1001, U32]))
    pick("ni_sq", lambda: small(r, 1, 16, (1, 16)))
    pick("ni_rq", lambda: small(r, 1, 16, (1, 16)))
    L = eff("local_ports") or 2 * D
    vcs = eff("num_vcs")
    rx_ok = sorted({d for d in range(1, L + 1) if L % d == 0} | {m * L for m in range(1, vcs + 1) if vcs % m == 0 and m * L <= 8})
    rx_ok = [x for x in rx_ok if x <= 8]
    pick("ni_rx_engines", lambda: r.choice([0, 0, 1] + rx_ok), lambda: r.choice([x for x in (3, 5, 7, 9, 16, U32) if x not in rx_ok]))
    E = eff("ni_rx_engines") or (2 * L if 2 * L <= 8 else L)
    mp_ok = [0, 1, L + E, L + 2 * E]
    pick("ni_mem_ports", lambda: r.choice(mp_ok), lambda: r.choice([x for x in (2, 3, L + 1, U32) if x not in mp_ok]))
    pick("ni_chain", lambda: r.randint(0, 1))
    pick("clock_ghz", lambda: r.choice([1.0, 0.5, 2.0, 1e-6, 1000.0]))
    # link and memory latency, then the watchdog policy that follows from them
    pick("link_lat", lambda: lat_draw(20), lambda: r.choice([1000001, U32]))
    # the watchdog policy: a stop must mean a hang, not a slow legal run. floor estimates the
    # longest legal wait of a node: latencies, the memory's wait (1/mem_p_ready) and the whole
    # data at the slowest rate the buffers allow (a credit round trip per buffer of flits),
    # four times over. The configuration's wd_limit stands where it is above floor; elsewhere
    # (and in 30% of the other runs) wd_limit is drawn from floor..U32MAX; 10% of runs turn
    # the watchdog off, with max_cycles as the stop.
    # the draws below use the floor of the keys drawn so far (floor0; the random stream is that
    # of the soaks before the per-dimension keys); wd_limit, max_cycles and the size are made
    # to fit the floor of every drawn key at the end (fit_floor)
    nbytes, floor = shrink_and_floor(eff, nbytes, nodes, 1)
    floor0 = floor
    u = r.random()
    if u < 0.1:
        s["wd_limit"] = 0
    elif u < 0.4 or cfg["wd_limit"] < floor:
        s["wd_limit"] = min(U32, r.choice([floor, floor, 2 * floor, small(r, floor, 10 * floor), U32]))
    if s.get("wd_limit", cfg["wd_limit"]) in (0, U32):  # no watchdog, or one that would take hours: max_cycles stops a hang
        s["max_cycles"] = min(WD_OFF_MAX_CYCLES, max(300000, 10 * floor))  # (fit_floor sets the final value)
    elif r.random() < 0.3:
        s["max_cycles"] = r.choice([WD_OFF_MAX_CYCLES, 10 ** 9, 18446744073709549568])
    # the NI stager (docs/reference/ni.md "Staging"): drawn last, so the draws above stay those of the
    # soaks before the key existed (the same seed gives the same runs but for this --set)
    pick("ni_stage_after", lambda: r.choice([0, 0, 1, 20000, small(r, 1, 5000, (1,))]))
    # the NI link's ejection depth (switch networks only; the soak's sim topologies are grids,
    # which must ignore it): drawn after everything else for the same reason
    pick("ni_link_depth", lambda: r.choice([0, 0, small(r, 1, 1024, (1, 1024))]), lambda: small(r, 1025, 65535, (65535,)))
    # links of several rates and latencies per dimension (docs/reference/network.md "Link rate and
    # latency"): drawn last too; a period on a dimension the network lacks is refused (the
    # watchdog floor above is the configuration's: the model's own limits grow with the
    # longest latency and the largest period)
    for d in range(3):
        if d < D:
            pick("link_period%d" % d, lambda: r.choice([1, 1, 2, 3, 4]))
            pick("link_lat%d" % d, lambda: r.choice([0, 0, lat_draw(20)]))
        else:
            pick("link_period%d" % d, lambda: 1, lambda: r.choice([2, 4]))
            pick("link_lat%d" % d, lambda: 0, lambda: small(r, 1, 20, (1,)))
    # the stager's range pool (ni_stage_ranges, docs/reference/ni.md "Staging"): drawn last as well;
    # 64 and more (a pool of 2 can stop a switch network on the watchdog, t-switch-sim's
    # known failure, which a soak would count as a failure); 0 and above 2^20 are refused
    pick("ni_stage_ranges", lambda: r.choice([1024, 1024, small(r, 64, 4096, (64, 4096))]), lambda: r.choice([0, 1048577]))
    # the paper simulator's NI (ni_model=1, docs/reference/papersim.md) is a model of the paper's system
    # with its own tests (t-c-paper_ni, t-papersim-cli): the soak keeps the project's NI and
    # only checks that the keys' out-of-range values are refused (drawn last, as above)
    pick("ni_model", lambda: 0, lambda: 2)
    pick("ni_paper_sendq", lambda: 58, lambda: 65536)
    pick("ni_paper_acc_width", lambda: 32, lambda: 0)
    pick("ni_paper_acc_pes", lambda: 16, lambda: 0)
    nbytes = fit_floor(s, cfg, eff, nbytes, nodes, D, floor0)
    return s, out, maybe, nbytes


def flit_time(eff, D):
    """(per_flit, lat): the estimate of a flit's slowest legal pace and the longest one-way
    latency of a hop, from every key that sets a latency or a period: link_lat, link_lat0..D-1
    (0 = link_lat) and link_period0..D-1 of the dimensions the network has, mem_lat_max,
    mem_p_ready and the NI's queues (a credit round trip per buffer of flits, a flit per
    period, the memory's wait and its latency over the requests in flight)."""
    lats = [eff("link_lat")] + [eff("link_lat%d" % d) or eff("link_lat") for d in range(D)]
    link, period = max(lats), max([1] + [eff("link_period%d" % d) for d in range(D)])
    depth = min(eff("vc_depth"), eff("ej_depth"))
    wait = -(-100 // max(1, eff("mem_p_ready")))
    per_flit = (-(-2 * link // max(1, min(depth, eff("subpkt_flits")))) + (period - 1) + wait +
                -(-eff("mem_lat_max") // eff("ni_rq")) + -(-eff("mem_lat_max") // eff("ni_sq")))
    return per_flit, link + eff("mem_lat_max"), wait


def shrink_and_floor(eff, nbytes, nodes, D):
    """(nbytes, floor): the size shrunk so that a slow network (long links, shallow buffers, a
    slow memory) moves the data in about SLOW_CYCLES (a sanitizer run stays within seconds;
    not below one element per flow, 4 x nodes), and floor, the estimate of the longest legal
    wait of a node: 1000 + 100 x lat x wait + 4 x flits x per_flit, at most WD_OFF_MAX_CYCLES / 2."""
    per_flit, lat, wait = flit_time(eff, D)
    fb = eff("payload_w") // 8
    if nbytes % 4 == 0 and nbytes > 4 * nodes and 4 * (nbytes // fb) * per_flit > SLOW_CYCLES:
        nbytes = max(4 * nodes, (SLOW_CYCLES // (4 * per_flit)) * fb // 4 * 4)
    flits = -(-nbytes // fb)
    return nbytes, min(WD_OFF_MAX_CYCLES // 2, 1000 + 100 * lat * wait + 4 * flits * per_flit)


def wd_off_max_cycles(floor, nodes, stage_after):
    """max_cycles with the watchdog off: 10 x floor, and N x T for the stagers' rounds (each NI's
    stager starts after T cycles of its own stall, docs/reference/ni.md "Errors and the watchdog"),
    300,000 .. WD_OFF_MAX_CYCLES"""
    return min(WD_OFF_MAX_CYCLES, max(300000, 10 * floor + nodes * stage_after))


def fit_floor(s, cfg, eff, nbytes, nodes, D, floor0):
    """After the last draw: the size, wd_limit and max_cycles made to fit the floor of every
    drawn key (the per-dimension latencies and periods, the stager's T are drawn after the
    watchdog policy). A drawn wd_limit scales by floor / floor0, the configuration's is raised
    to floor, max_cycles with the watchdog off follows wd_off_max_cycles. No random draw: a
    run whose floor these keys do not raise keeps its size and wd_limit."""
    nbytes, floor = shrink_and_floor(eff, nbytes, nodes, D)
    floor = max(floor, floor0)
    wd = eff("wd_limit")
    if floor > floor0 and wd not in (0, U32):
        if "wd_limit" in s:
            s["wd_limit"] = min(U32, -(-wd * floor // floor0))
        elif wd < floor:
            s["wd_limit"] = floor
    if eff("wd_limit") in (0, U32):
        s["max_cycles"] = wd_off_max_cycles(floor, nodes, eff("ni_stage_after"))
    return nbytes


DRAWN_KEYS = ("payload_w", "num_vcs", "vc_depth", "ej_depth", "subpkt_flits", "pkt_bytes", "step_prio", "local_ports",
              "mem_p_ready", "mem_lat_max", "ni_sq", "ni_rq", "ni_rx_engines", "ni_mem_ports", "ni_chain", "clock_ghz",
              "link_lat", "wd_limit", "max_cycles", "ni_stage_after", "ni_link_depth", "link_period0", "link_period1",
              "link_period2", "link_lat0", "link_lat1", "link_lat2", "ni_stage_ranges", "ni_model", "ni_paper_sendq",
              "ni_paper_acc_width", "ni_paper_acc_pes", "rt_pipe", "ni_alu_pipe")


def fmt_val(v):
    """A --set value as the tool reads it: plain decimal, never an exponent (formats.md "Numbers")."""
    if isinstance(v, float):
        t = ("%.12f" % v).rstrip("0").rstrip(".")
        return t or "0"
    return str(v)


def draw_b2b(seed, i):
    """Back-to-back all-reduces (docs/reference/network.md "Back-to-back all-reduces"): how many
    all-reduces a sim run does on one network without a reset, 1..3 (`sim --runs N`, seeds S, S+1,
    ...; each checked). Drawn from its own stream, so the rest of run i's draw does not move."""
    return random.Random("soak-b2b:%d:%d" % (seed, i)).choice([1, 2, 2, 3, 3])


def draw_run(seed, i, binary, algos, cfgs, share=None):
    rs = random.Random("soak-surface:%d:%d" % (seed, i))
    if rs.random() < (SURFACE_SHARE if share is None else share):
        return draw_surface_run(rs, i, binary)
    r = random.Random("soak:%d:%d" % (seed, i))
    spec, kind, dims, mode = draw_topo(r)
    nodes = topo_nodes(spec, kind, dims)
    legal = [a for a in algos if algo_accepts(a, kind, dims, nodes)]
    expect = True
    if r.random() < 0.02 or not legal:
        algo = r.choice(algos)
        expect = algo in legal
    else:
        algo = r.choice(legal)
    nbytes, ok = draw_bytes(r, nodes)
    expect = expect and ok and min(dims or [2]) >= 2
    dtype = r.choice(["int32", "fp32"])
    seed_in = r.choice([0, U32, r.randint(1, U32 - 1), r.randint(1, 1000)])
    head = [binary, mode, "--topo", spec, "--algo", algo]
    tail = ["--dtype", dtype, "--seed", str(seed_in)]
    out = []
    if mode == "sim":
        cfg = r.choice(cfgs + ["small"] * 3)  # small (fast) more often
        flow = r.choice(["message", "packet"])
        tail += ["--flow", flow, "--config", cfg]
        sets, out, maybe, nbytes = draw_sets(r, read_cfg(cfg), dims, nbytes, nodes, flow)
        # the router pipeline on the grid runs, from its own stream so that the other keys keep
        # the draws of the soaks before: rt_pipe 1 (no cycle of its own) on a tenth, rt_pipe 2 (a
        # register between VC and switch allocation: a cycle per hop) on a twentieth more
        u = random.Random("soak-rtpipe:%d:%d" % (seed, i)).random()
        if u < 0.15:
            sets["rt_pipe"] = 1 if u < 0.1 else 2
        # the NI adder's pipeline (ni_alu_pipe 1, 2: a sum 1 or 2 cycles later), its own stream too
        u = random.Random("soak-alupipe:%d:%d" % (seed, i)).random()
        if u < 0.2:
            sets["ni_alu_pipe"] = 1 if u < 0.1 else 2
        for k in DRAWN_KEYS:
            if k in sets:
                tail += ["--set", "%s=%s" % (k, fmt_val(sets[k]))]
        expect = expect and not out and not maybe
    expect = expect and not plan_refuses(algo, kind, spec, dims, nodes, nbytes)  # the final size
    b2b = draw_b2b(seed, i) if mode == "sim" else 1
    if b2b > 1:
        tail += ["--runs", str(b2b)]
    cmd = head + ["--bytes", str(nbytes)] + tail
    return {"i": i, "cmd": cmd, "mode": mode, "algo": algo, "topo": spec, "expect_ok": expect, "out_of_range": out, "b2b": b2b}


# ---------------------------------------------------------------- the new surfaces
# Hierarchies (hier:), multi-dimensional systems (dims:), switch networks at the cycle level,
# the flow level (sim --level flow), --threads 2 and --data none (the same cycles as the
# defaults: an oracle), and train on random small workloads (its all-reduce the same cycles as
# sim's). Drawn for SURFACE_SHARE of the runs from their own stream ("soak-surface:SEED:i"),
# so the other runs keep the draws of the soaks before; each run names the algorithms the
# topology takes, so that FlexReduce, BlueConnect, hier, Themis and dimbal are drawn where they are legal.
SURFACE_SHARE = 0.5
SWITCH_TOPOS = ["dgx2", "fattree:2,2", "fattree:2,3", "fattree:4,2", "bigraph:1x2", "bigraph:2x2", "bigraph:2x4",
                "file:tb/cmodel/data/switched.topo", "file:tb/cmodel/data/star.topo", "file:tb/cmodel/data/multilink.topo"]


def rate(r, lo_bw, hi_bw, lo_lat, hi_lat):
    """'@GBPS[:LAT]' (plain decimal)"""
    bw = fmt_val(float(r.choice([lo_bw, hi_bw, round(r.uniform(lo_bw, hi_bw), 2)])))
    return "@%s" % bw + (":%d" % r.randint(lo_lat, hi_lat) if r.random() < 0.7 else "")


def draw_hier(r):
    """(spec, nodes, symmetric): two or three levels of switches, learners at the leaves; a
    GB/s on every level or on none (a spec that mixes them is refused). A level is groups
    'N+N+...' of the level below, or (the top) the count of switches below it or '@GBPS' alone."""
    rates = r.random() < 0.5
    sym = r.random() < 0.5
    if r.random() < 0.7:  # machines of learners behind one top switch
        g = r.randint(2, 4)
        sizes = [r.randint(1, 4)] * g if sym else [r.randint(1, 4) for _ in range(g)]
        lv0 = "+".join(map(str, sizes))
        if rates:
            spec = "hier:%s%s,%s%s" % (lv0, rate(r, 8, 32, 100, 800), r.choice(["", str(g)]), rate(r, 1, 4, 1000, 6000))
        else:
            spec = "hier:%s,%d" % (lv0, g)
        return spec, sum(sizes), len(set(sizes)) == 1
    # three levels: learners in k*m groups of a, m of those under each of k switches, one top
    k, m, a = r.choice([2, 2, 3]), r.choice([2, 2, 3]), r.choice([1, 2, 2])
    spec = "hier:%s%s,%s%s,%s" % ("+".join([str(a)] * (k * m)), rate(r, 8, 32, 100, 800) if rates else "",
                                  "+".join([str(m)] * k), rate(r, 2, 8, 500, 2000) if rates else "",
                                  rate(r, 1, 2, 1000, 6000) if rates else str(k))
    return spec, a * k * m, True


def whole_ratios(spec):
    """A hier: spec for the cycle level: every level's GB/s a whole fraction of level 0's (the
    cycle model paces a link by whole cycles per flit, and the learners' links are the fastest:
    docs/reference/network.md "Link rate and latency"), and every latency at most 750 cycles of
    the network's clock (level 0's GB/s over 16-byte flits: 12000 / GB/s ns; as draw_dims keeps
    a cycle-level hop within 750 cycles: runs of seconds, not minutes); no other draw changes."""
    parts = spec.split("@")
    if len(parts) < 2:
        return spec
    b0 = float(re.match(r"[0-9.]+", parts[1]).group(0))
    cap = int(12000 / b0)
    for j in range(1, len(parts)):
        m = re.match(r"([0-9.]+)(?::([0-9]+))?(.*)", parts[j], re.S)
        bw = m.group(1) if j == 1 else fmt_val(b0 / max(1, round(b0 / float(m.group(1)))))
        lat = "" if m.group(2) is None else ":%d" % min(int(m.group(2)), cap)
        parts[j] = bw + lat + m.group(3)
    return "@".join(parts)


def draw_dims(r, cycle):
    """(spec, nodes, D): rings of 3..5 for the cycle model (it runs rings only), rings, fully
    connected groups and switches for the flow level; a rate on every dimension or on none."""
    rates = r.random() < 0.5
    for _ in range(50):
        D = r.choice([1, 2, 2, 3])
        dims = []
        for _ in range(D):
            kind = "ring" if cycle else r.choice(["ring", "fc", "sw"])
            size = r.randint(3, 5) if kind == "ring" else r.randint(2, 4)
            dims.append((kind, size))
        n = math.prod(sz for _, sz in dims)
        if n <= 32:
            break
    if not rates:
        return "dims:" + ",".join("%s%d" % (k, sz) for k, sz in dims), n, D
    # the cycle model paces a link by whole cycles per flit: bandwidths in whole ratios to the fastest
    fast = r.choice([25, 50, 100, 200])
    bws = [fast / r.choice([1, 1, 2, 4]) if cycle else round(r.uniform(10, 200), 2) for _ in dims]
    # latencies: up to 700 ns at the flow level; up to 60 ns at the cycle level, where a 200 GB/s
    # link runs at 12.5 GHz (60 ns = 750 cycles a hop: runs of seconds, not minutes)
    spec = "dims:" + ",".join("%s%d@%s%s" % (k, sz, fmt_val(float(bw)), ":%d" % r.randint(5, 60 if cycle else 700) if r.random() < 0.7 else "")
                              for (k, sz), bw in zip(dims, bws))
    return spec, n, D


def surface_algos(kind, nodes, sym, cycle, dims_kinds=()):
    """The algorithms this topology takes (docs/reference/cli.md and each planner's page)."""
    al = ["multitree", "ring", "dbtree"] + (["hd"] if is_pow2(nodes) else [])
    if kind == "hier":
        al += ["flexreduce"] + (["blueconnect"] if sym else [])
    elif kind == "dims":
        al += ["hier", "themis", "dimbal"]
    elif kind == "dgx2":
        al += ["flexreduce"]
    elif kind == "bigraph" and is_pow2(nodes):
        al += ["hdrm"]
    return al


def small_workload(r):
    """A random small workload CSV (docs/reference/training.md): 1..4 layers of each kind."""
    rows = ["Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Kind, Params, Gradient bytes,"]
    for li in range(r.randint(1, 4)):
        # the first row has weights: a workload without parameters has no all-reduce (refused)
        kind = "weights" if li == 0 else r.choice(["weights", "weights", "weights", "embed", "shared", "matmul"])
        ih, iw = r.randint(1, 16), r.randint(1, 16)
        fh, fw = r.randint(1, ih), r.randint(1, iw)
        ch, nf, st = r.randint(1, 32), r.randint(1, 32), r.randint(1, 2)
        if kind == "weights":
            params = fh * fw * ch * nf + r.randint(0, 3) * nf
        elif kind == "embed":
            params = nf * r.randint(1, 64)
        else:
            params = 0
        rows.append("l%d,%d,%d,%d,%d,%d,%d,%d,%s,%d,%d," % (li, ih, iw, fh, fw, ch, nf, st, kind, params, 4 * params))
    return "\n".join(rows) + "\n"


def draw_surface_run(r, i, binary):
    """One run on the new surfaces: (cycle level with twins | flow level | train) on a hier:,
    dims: or switch network (train also on grids)."""
    u = r.random()
    mode = "sim" if u < 0.55 else "flow" if u < 0.85 else "train"
    t = r.random()
    sym, dk = False, ()
    if t < 0.4:
        spec, nodes, sym = draw_hier(r)
        kind = "hier"
        if mode != "flow":
            spec = whole_ratios(spec)
    elif t < 0.7 and mode != "train":  # train does not simulate dims: systems (it says so)
        spec, nodes, D = draw_dims(r, mode != "flow")
        kind = "dims"
    elif t < 0.92 or mode != "train":
        # the cycle model takes switch networks whose end nodes have one link, to a switch
        spec = r.choice([x for x in SWITCH_TOPOS if mode == "flow" or not x.startswith("file:")])
        kind = spec.split(":")[0]
        nodes = 16 if kind == "dgx2" else topo_nodes(spec, kind, [])
    else:
        spec = r.choice(["torus:4x4", "torus:2x4", "mesh:3x3", "ring:6"])
        kind = spec.split(":")[0]
        nodes = math.prod(int(x) for x in spec.split(":")[1].split("x"))
    algo = r.choice(surface_algos(kind, nodes, sym, mode != "flow"))
    lo = 4 * nodes
    nbytes = max(lo, int(2 ** r.uniform(math.log2(lo), math.log2(16384))) // (4 * nodes) * (4 * nodes))
    extra = []
    if algo in ("themis", "hier", "dimbal"):
        ch = r.choice([1, 2, 4, 8]) if algo == "hier" or r.random() < 0.9 else 64
        extra = ["--chunks", str(ch)]
        nbytes = max(nbytes, 8 * ch * nodes * 2)
        nbytes -= nbytes % (4 * nodes)
    flow = r.choice(["message", "packet"])
    cfg = r.choice(["small", "small", "paper"])
    head = [binary]
    twins = []
    if mode == "train":
        lvl = r.choice(["flow", "cycle"]) if nodes <= 16 else "flow"
        cmd = head + ["train", "--model", "@WORKLOAD@", "--topo", spec, "--algo", algo, "--cache", "none", "--level", lvl,
                      "--config", cfg] + (["--msg"] if flow == "message" else [])
        return {"i": i, "cmd": cmd, "mode": "train", "algo": algo, "topo": spec, "expect_ok": True, "out_of_range": [],
                "surface": "train-" + kind, "workload": small_workload(r),
                "twin_sim": [binary, "sim", "--topo", spec, "--algo", algo, "--config", cfg, "--flow", flow] +
                            (["--level", "flow"] if lvl == "flow" else [])}
    cmd = head + ["sim", "--topo", spec, "--algo", algo, "--bytes", str(nbytes), "--flow", flow, "--config", cfg] + extra
    if mode == "flow":
        cmd += ["--level", "flow"]
    else:
        cmd += ["--dtype", r.choice(["int32", "fp32"]), "--seed", str(r.randint(0, U32))]
        if r.random() < 0.5:
            twins = [["--threads", "2"], ["--data", "none"]]
    # hier, Themis and dimbal run halving-doubling in a switch dimension: a power of two (mt_dimcoll.c)
    sw_odd = kind == "dims" and any(not is_pow2(int(n)) for n in re.findall(r"sw(\d+)", spec))
    return {"i": i, "cmd": cmd, "mode": mode, "algo": algo, "topo": spec, "expect_ok": not (sw_odd and algo in ("hier", "themis", "dimbal")),
            "out_of_range": [], "surface": "%s-%s" % (mode, kind), "twins": twins}


def rated_cycle(run):
    """train's cycles per ns on a topology with GB/s: the configuration's clock_ghz"""
    return read_cfg(run["twin_sim"][run["twin_sim"].index("--config") + 1]).get("clock_ghz", 1.0)


def json_of(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def exec_surface(a, run):
    """exec_one for a surface run: the run, its twins (the same cycles) and its oracles."""
    jd = os.path.join(a.out, "json")
    os.makedirs(jd, exist_ok=True)
    js = os.path.join(jd, "run%d.json" % run["i"])
    cmd = list(run["cmd"])
    wl = None
    if run["mode"] == "train":
        wl = os.path.join(jd, "run%d.csv" % run["i"])
        with open(wl, "w") as f:
            f.write(run["workload"])
        cmd[cmd.index("@WORKLOAD@")] = wl
    rc, so, se, to, wall = run_cmd(cmd + ["--json", js], a.timeout)
    cls, why = classify(rc, so, se, to)
    if cls == "CRASH" and rc == 0 and (so.startswith("sim: flow level") or "train: total" in so):
        cls, why = "OK", ""  # no data at the flow level / train: no result to check
    j = json_of(js) if cls == "OK" else None
    if cls == "OK" and j is None:
        cls, why = "CRASH", "exit 0 without a --json summary"
    if cls == "OK" and run["mode"] == "sim":
        why = bound_oracle(run["cmd"], js)
        cls = "BOUND" if why else cls
    if cls == "OK" and run["mode"] == "flow" and j["time"] < j["lower_bound"] * (1 - 1e-9):
        cls, why = "BOUND", "flow level: %.1f %s, below its lower bound %.1f" % (j["time"], j["units"], j["lower_bound"])
    if cls == "OK" and run["mode"] == "sim":
        for tw in run.get("twins", []):
            tj = js + ".twin"
            trc, tso, tse, tto, tw_wall = run_cmd(cmd + tw + ["--json", tj], a.timeout)
            wall += tw_wall
            t = json_of(tj)
            if trc != 0 or t is None:
                tcls, twhy = classify(trc, tso, tse, tto)
                cls, why = (tcls if tcls in FAIL_CLASSES else "CRASH"), "with %s: exit %d: %s" % (" ".join(tw), trc, twhy or tse.strip()[-200:])
            elif t["cycles"] != j["cycles"]:
                cls, why = "WRONG", "with %s: %d cycles, %d without" % (" ".join(tw), t["cycles"], j["cycles"])
            if os.path.exists(tj):
                os.remove(tj)
            if cls != "OK":
                break
    if cls == "OK" and run["mode"] == "train":
        ar, tot = j["allreduce_cycles"], j["total_cycles"]
        if tot != j["compute_cycles"] + j["exposed_cycles"] or j["exposed_cycles"] + j["overlapped_cycles"] != ar:
            cls, why = "WRONG", "train: total %d != compute %d + exposed %d, or exposed + overlapped != all-reduce %d" % (
                tot, j["compute_cycles"], j["exposed_cycles"], ar)
        else:  # the same all-reduce through sim: the same cycles (a spec with GB/s: the same time, in cycles of clock_ghz)
            tj = js + ".twin"
            trc, tso, tse, tto, tw_wall = run_cmd(run["twin_sim"] + ["--bytes", str(j["allreduce_bytes"]), "--json", tj], a.timeout)
            wall += tw_wall
            t = json_of(tj)
            got = None if t is None else t.get("cycles", t.get("time"))
            if got is not None and "@" in run["topo"]:
                got *= rated_cycle(run)
                if "cycles" in t:  # the network's cycles at its own clock: the fastest GB/s over the flit bytes
                    cfg = read_cfg(run["twin_sim"][run["twin_sim"].index("--config") + 1])
                    got /= max(float(x) for x in re.findall(r"@([0-9.]+)", run["topo"])) / (cfg["payload_w"] / 8)
            if trc != 0 or got is None:
                cls, why = "CRASH", "sim of the all-reduce (%d bytes): exit %d: %s" % (j["allreduce_bytes"], trc, tse.strip()[-200:])
            elif abs(got - ar) >= 1:  # train counts whole cycles of the flow level's real time
                cls, why = "WRONG", "train's all-reduce %d cycles, sim of its %d bytes %s" % (ar, j["allreduce_bytes"], got)
            if os.path.exists(tj):
                os.remove(tj)
    for f in (js, wl):
        if f and os.path.exists(f):
            os.remove(f)
    res = {"i": run["i"], "class": cls, "why": why, "wall": round(wall, 3), "rc": rc, "mode": run["mode"], "algo": run["algo"],
           "topo": run["topo"], "expect_ok": run["expect_ok"], "out_of_range": [], "surface": run["surface"],
           "cmd": " ".join(shlex.quote(x) for x in run["cmd"])}
    if cls in FAIL_CLASSES:
        res["hint"] = triage(run, cls, a.triage_bin)[0] if a.triage_bin and run["mode"] == "sim" else ""
        os.makedirs(os.path.join(a.out, "logs"), exist_ok=True)
        with open(os.path.join(a.out, "logs", "run%d.log" % run["i"]), "w") as f:
            f.write("%s\n# exit %d, %.2f s, %s\n%s--- stdout\n%s\n--- stderr\n%s" % (
                res["cmd"], rc, wall, cls, ("--- workload\n" + run["workload"]) if wl else "", so, se))
    print(json.dumps(res), flush=True)
    return 0


# ---------------------------------------------------------------- one run (--exec, called by GNU parallel)
def first_line(text, pat):
    for line in text.splitlines():
        if re.search(pat, line):
            return line.strip()
    return ""


def b2b_correct(so):
    """A sim's output says every all-reduce it ran (sim --runs N: "all-reduce k of N") was correct."""
    return so.count("result correct on every node") == b2b_count(so)


def b2b_count(so):
    """The all-reduces a sim output announces (sim --runs N), 1 without the header."""
    m = re.search(r"^sim: all-reduce \d+ of (\d+) back to back", so, re.M)
    return int(m.group(1)) if m else 1


def classify(rc, so, se, timed_out):
    txt = so + se
    if timed_out:
        return "TIMEOUT", "no result within the per-run limit (--timeout)"
    m = first_line(txt, RE_SAN.pattern)
    if m:
        return "SANITIZER", (first_line(txt, r"SUMMARY: ") or m)[:300]
    if rc < 0 or rc > 2:
        return "CRASH", "exit status %d%s" % (rc, (": " + se.strip().splitlines()[-1][:200]) if se.strip() else "")
    if "RESULT WRONG" in so or re.search(r", WRONG \(", so):
        return "WRONG", (first_line(txt, r"words differ|elements differ") or "RESULT WRONG")[:300]
    if rc == 0 and b2b_count(so) > 1 and not b2b_correct(so):  # a later all-reduce not reported correct, exit 0
        return "WRONG", "%d of %d back-to-back all-reduces reported correct" % (so.count("result correct on every node"), b2b_count(so))
    wd = first_line(txt, r"error 11 \(watchdog\)|raised its watchdog flag|did not finish within max_cycles")
    if wd:
        return "WATCHDOG", wd[:300]
    hw = first_line(txt, r"stopped with error|raised its (overflow|no-route) flag")
    if hw:
        return "HWERROR", hw[:300]
    lb = first_line(se, r"below its [a-z-]+ lower bound")
    if lb:
        return "BOUND", lb[:300]
    if rc == 0 and (b2b_correct(so) or re.search(r"^ref: .*(, exact \(| \(summation order)", so, re.M)):
        return "OK", ""
    if rc == 2 and se.strip() and not so.strip():
        return "REFUSED", se.strip().splitlines()[-1][:300]
    return "CRASH", "exit status %d without the expected output: %s" % (rc, (se.strip() or so.strip())[-200:])


def cmd_grid_cfg(cmd):
    """(kind, dims, cfg) of a sim command on a torus, mesh or ring: cfg the --config file's keys
    with every --set applied (the last one wins, as in the tool); (None, None, None) elsewhere."""
    arg = lambda k: cmd[cmd.index(k) + 1] if k in cmd else None
    kind, _, dims = (arg("--topo") or "").partition(":")
    if kind not in ("torus", "mesh", "ring"):
        return None, None, None
    cfg = read_cfg(arg("--config") or "small")
    for i, x in enumerate(cmd):
        if x == "--set" and i + 1 < len(cmd):
            k, _, v = cmd[i + 1].partition("=")
            cfg[k] = float(v)
    return kind, [int(x) for x in dims.split("x")], cfg


def floor_check(run):
    """'' when a drawn grid sim run's watchdog, max_cycles and size fit the floor worked out from
    its final command line (every --set, the per-dimension latencies and periods and the stager
    included), else what does not: the policy of docs/reference/soak.md, checked on the command
    as it runs, so that a key drawn after the watchdog policy cannot be left out of it."""
    cmd = run["cmd"]
    if run["mode"] != "sim" or run.get("surface") or run["out_of_range"]:
        return ""
    kind, dims, cfg = cmd_grid_cfg(cmd)
    if kind is None:
        return ""
    eff = lambda k: int(cfg[k])
    nodes, nbytes = math.prod(dims), int(cmd[cmd.index("--bytes") + 1])
    per_flit, _, _ = flit_time(eff, len(dims))
    shrunk, floor = shrink_and_floor(eff, nbytes, nodes, len(dims))
    wd, mc = eff("wd_limit"), eff("max_cycles")
    if shrunk != nbytes:
        return "%d bytes: %d flits x %d cycles each is above %d cycles (%d bytes would fit)" % (
            nbytes, -(-nbytes // (eff("payload_w") // 8)), per_flit, SLOW_CYCLES, shrunk)
    if wd not in (0, U32) and wd < floor:
        return "wd_limit %d below the floor %d" % (wd, floor)
    need = wd_off_max_cycles(floor, nodes, eff("ni_stage_after")) if wd in (0, U32) else WD_OFF_MAX_CYCLES
    if mc < need:
        return "max_cycles %d below %d (floor %d, wd_limit %d)" % (mc, need, floor, wd)
    return ""


def grid_bound(cmd):
    """The aggregate lower bound of a sim run on a torus, mesh or ring, from its command line:
    2(N-1) S / (B x the directed links, each of dimension d counting 1/link_period_d), the
    links counted here (a ring of k >= 3 has k links each way, of 2 one, a line of k k-1),
    B = payload_w / 8 of --config and --set. None for other topologies."""
    kind, dims, cfg = cmd_grid_cfg(cmd)
    if kind is None:
        return None
    n = math.prod(dims)
    w = 0.0
    for d, k in enumerate(dims):
        directed = (0 if k == 1 else n if k == 2 else 2 * n) if kind != "mesh" else 2 * (k - 1) * n // k
        w += directed / max(1.0, cfg.get("link_period%d" % d, 1.0))
    return 2.0 * (n - 1) * int(cmd[cmd.index("--bytes") + 1]) / ((int(cfg["payload_w"]) // 8) * w) if w else None


def bound_oracle(cmd, js):
    """'' when the summary js of an OK sim run keeps its lower bound, else why not."""
    try:
        j = json.load(open(js))
    except (OSError, ValueError) as x:
        return "no --json summary to check the bound: %s" % x
    cyc, lb, agg, mine = j["cycles"], j["bound_cycles"], j["average_bound_cycles"], grid_bound(cmd)
    if cyc < lb * (1 - 1e-9):
        return "finished in %d cycles, below its %s lower bound %.1f" % (cyc, j["binding_bound"], lb)
    if mine is not None and abs(agg - mine) > 1e-6 * mine:
        return "aggregate bound %.1f cycles reported, %.1f from the link list (soak.py grid_bound)" % (agg, mine)
    if mine is not None and cyc < mine * (1 - 1e-9):
        return "finished in %d cycles, below the aggregate bound %.1f from the link list" % (cyc, mine)
    return ""


def run_cmd(cmd, timeout):
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=TOP, errors="replace")
        return p.returncode, p.stdout, p.stderr, False, time.time() - t0
    except subprocess.TimeoutExpired as x:
        dec = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return -9, dec(x.stdout), dec(x.stderr), True, time.time() - t0


def stager_off(cmd):
    """A grid sim command whose NI stager is off (ni_stage_after 0, from --set or --config)."""
    kind, _, cfg = cmd_grid_cfg(cmd)
    return kind is not None and int(cfg["ni_stage_after"]) == 0


def triage(run, cls, triage_bin):
    """(hint, class) for a failure, from reruns on the build without sanitizers (faster). A
    WATCHDOG run with the stager off becomes DEADLOCK-STAGER-OFF when it is still stuck at
    WD_OFF_MAX_CYCLES with the watchdog off and completes, correct, with the stager on."""
    cmd = [triage_bin] + run["cmd"][1:]
    if cls == "WRONG" and run["mode"] == "sim":
        rc, so, se, to, _ = run_cmd(cmd + ["--set", "ni_rx_engines=1"], 120)
        if rc == 0 and "result correct" in so:
            return "correct with ni_rx_engines=1 (issue #11 item 5: several receive engines on one memory port)", cls
        return "wrong with ni_rx_engines=1 too", cls
    if cls == "WATCHDOG" and run["mode"] == "sim":
        rc, so, se, to, _ = run_cmd(cmd + ["--set", "wd_limit=0", "--set", "max_cycles=%d" % WD_OFF_MAX_CYCLES], 300)
        m = re.search(r": (\d+) cycles, ", so)
        if rc == 0 and b2b_correct(so):
            return "completes, correct, in %s cycles with the watchdog off: the watchdog limit is too tight" % m.group(1), cls
        if "did not finish within max_cycles" not in se:
            return "watchdog off: exit %d %s" % (rc, (se.strip().splitlines() or [""])[-1][:120]), cls
        hint = "still stuck at %d cycles with the watchdog off: a deadlock" % WD_OFF_MAX_CYCLES
        if not stager_off(run["cmd"]):
            return hint + " with the stager on (docs/reference/ni.md \"Known deadlocks\")", cls
        rc, so, se, to, _ = run_cmd(cmd + ["--set", "ni_stage_after=%d" % STAGER_ON], 300)
        m = re.search(r": (\d+) cycles, ", so)
        if rc == 0 and b2b_correct(so):
            return hint + " with the stager off; with ni_stage_after=%d it completes, correct, in %s cycles" % (
                STAGER_ON, m.group(1)), DEADLOCK_STAGER_OFF
        return hint + "; with ni_stage_after=%d too: exit %d %s" % (
            STAGER_ON, rc, (se.strip().splitlines() or [""])[-1][:120]), cls
    return "", cls


def exec_one(a):
    run = json.loads(a.exec)
    if run.get("surface"):
        return exec_surface(a, run)
    js = os.path.join(a.out, "json", "run%d.json" % run["i"])
    extra = []
    if run["mode"] == "sim":
        os.makedirs(os.path.dirname(js), exist_ok=True)
        extra = ["--json", js]
    rc, so, se, to, wall = run_cmd(run["cmd"] + extra, a.timeout)
    cls, why = classify(rc, so, se, to)
    slow = cls == "TIMEOUT"
    if slow:  # the limit is a budget: the same command once more with SLOW_FACTOR x the limit
        rc, so, se, to, wall2 = run_cmd(run["cmd"] + extra, a.timeout * SLOW_FACTOR)
        wall += wall2
        cls, why = classify(rc, so, se, to)
    if cls == "OK" and extra:
        why = bound_oracle(run["cmd"], js)
        cls = "BOUND" if why else cls
    if slow and cls == "OK":
        cls, why = SLOW, "no result within %d s; again with %d s: correct in %.0f s" % (a.timeout, a.timeout * SLOW_FACTOR, wall2)
    if extra and os.path.exists(js):
        os.remove(js)
    res = {"i": run["i"], "class": cls, "why": why, "wall": round(wall, 3), "rc": rc, "mode": run["mode"], "algo": run["algo"],
           "topo": run["topo"], "expect_ok": run["expect_ok"], "out_of_range": run["out_of_range"], "b2b": run.get("b2b", 1),
           "cmd": " ".join(shlex.quote(x) for x in run["cmd"])}
    if cls in FAIL_CLASSES:
        res["hint"], res["class"] = triage(run, cls, a.triage_bin) if a.triage_bin else ("", cls)
        os.makedirs(os.path.join(a.out, "logs"), exist_ok=True)
        with open(os.path.join(a.out, "logs", "run%d.log" % run["i"]), "w") as f:
            f.write("%s\n# exit %d, %.2f s, %s\n--- stdout\n%s\n--- stderr\n%s" % (res["cmd"], rc, wall, cls, so, se))
    print(json.dumps(res), flush=True)
    return 0


def b2b_summary(res):
    """One line: the sim runs by their number of back-to-back all-reduces, and how many of those
    with 2 or more finished OK (every all-reduce checked)."""
    sims = [r for r in res if r["mode"] == "sim"]
    by = collections.Counter(r.get("b2b", 1) for r in sims)
    multi = [r for r in sims if r.get("b2b", 1) > 1]
    return "back to back: sim runs with %s all-reduces; %d of the %d with 2 or more OK (%d all-reduces checked in them)" % (
        ", ".join("%d x %d" % (by[k], k) for k in sorted(by)) or "no", sum(1 for r in multi if r["class"] == "OK"), len(multi),
        sum(r["b2b"] for r in multi if r["class"] == "OK"))


# ---------------------------------------------------------------- the soak's own test
FAKE = r"""#!/usr/bin/env bash
# a multitree that misbehaves on purpose (soak.py --self-test): MODE=%s
real=%s
if [[ $1 != sim && $1 != ref && $1 != train ]]; then
  if [[ $MODE == newkey && $1 == shape ]]; then "$real" "$@"; echo "new_field       net          -              0..1                mt_net_cfg.new_field: a key with no draw rule"; exit 0; fi
  exec "$real" "$@"
fi
case $MODE in
  asan) echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011" >&2; exit 1 ;;
  ubsan) echo "cmodel/hw/mt_ni.c:10:5: runtime error: shift exponent 64 is too large" >&2; exit 1 ;;
  wrong) echo "sim: fake: 99 cycles, RESULT WRONG"; echo "multitree sim: 3 words differ from the reference (summed over nodes)" >&2; exit 1 ;;
  watchdog) echo "multitree sim: node 0's network interface stopped with error 11 (watchdog) at cycle 5" >&2; exit 1 ;;
  hwerror) echo "multitree sim: node 1's network interface stopped with error 10 (ej_ovf) at cycle 7" >&2; exit 1 ;;
  segv) kill -SEGV $$ ;;
  hang) exec sleep 30 ;;
  slow) sleep 4; exec "$real" "$@" ;;  # past the self-test's 3 s limit, within 5 x 3 s
  silent) exit 0 ;;
  refuse) echo "multitree sim: fake: value out of range (allowed: 1..2)" >&2; exit 2 ;;
  b2bsilent) printf 'sim: all-reduce 1 of 2 back to back, seed 1\nsim: fake: 9 cycles, result correct on every node\nsim: all-reduce 2 of 2 back to back, seed 2\nsim: fake: 1 cycles\n'; exit 0 ;;
  threads) [[ " $* " == *" --threads "* ]] && exec "$real" "$@" --set link_lat=7; exec "$real" "$@" ;;
  boundhigh) MT_BOUND_SCALE=1000000 exec "$real" "$@" ;;
  boundhalf) MT_BOUND_SCALE=0.5 exec "$real" "$@" ;;
  stageroff|stageroffstuck)  # a watchdog stop, still stuck with the watchdog off; the stager on clears it (stageroff)
    case ${@: -1} in
      max_cycles=5000000) echo "multitree sim: the all-reduce did not finish within max_cycles=5000000 (cycle limit)" >&2; exit 2 ;;
      ni_stage_after=20000) [[ $MODE == stageroff ]] && { echo "sim: fake: 9 cycles, result correct on every node"; exit 0; } ;;
    esac
    echo "multitree sim: node 0's network interface stopped with error 11 (watchdog) at cycle 5" >&2; exit 1 ;;
esac
"""


# run 6162 of seed 35 as the driver drew it before the floor took link_lat0..2 (max_cycles 300,000;
# the run takes 900,948 cycles): floor_check must find it
FLOOR_BAD_6162 = ("sim --topo ring:4 --algo meshtree --bytes 7136 --dtype int32 --seed 2277369060 --flow message --config small "
                  "--set vc_depth=1 --set subpkt_flits=1 --set pkt_bytes=16 --set step_prio=1 --set mem_lat_max=1 --set ni_sq=8 "
                  "--set ni_chain=0 --set clock_ghz=0.000001 --set wd_limit=0 --set max_cycles=300000 --set ni_link_depth=17 "
                  "--set link_period2=1 --set link_lat0=1000 --set link_lat1=0 --set ni_stage_ranges=1024 --set ni_paper_sendq=58 "
                  "--set ni_paper_acc_width=32 --runs 3")


def floor_self_test(binary):
    """(ok, line): every grid sim run drawn for seeds 1 and 35 (runs 0-9,999) fits the floor of
    its own command line (floor_check), and the old draw of seed 35 run 6162 does not."""
    algos, cfgs = tool_algos(binary), config_names()
    bad = [(seed, i, w) for seed in (1, 35) for i in range(10000)
           for w in [floor_check(draw_run(seed, i, "multitree", algos, cfgs))] if w]
    old = floor_check({"cmd": FLOOR_BAD_6162.split(), "mode": "sim", "out_of_range": []})
    ok = not bad and bool(old)
    return ok, "self-test floor    -> 20,000 draws, %d below their floor%s; seed 35 run 6162 as drawn before: %s: %s" % (
        len(bad), " (first: seed %d run %d: %s)" % bad[0] if bad else "", old or "passes", "caught" if ok else "NOT CAUGHT")


# draws of seed 36 that the planner or the network refuses, each for a rule the driver's
# expectation must know (a refusal of a draw taken for legal is reported, not failed): run, rule
LEGALITY_CASES = [(3, "bucket part"), (31, "local_ports of --config fpga"), (38, "hier, odd switch dimension"),
                  (40, "meshtree on a fat tree"), (57, "themis elements"), (222, "meshtree on a file: with switches"),
                  (1017, "dimbal elements")]


def legality_self_test(binary):
    """(ok, line): the draws of LEGALITY_CASES are not expected to pass, and of seed 36's runs
    0-1,999 at most a quarter of the others are not (the rules are not simply "expect nothing")."""
    algos, cfgs = tool_algos(binary), config_names()
    missed = [(i, why) for i, why in LEGALITY_CASES if draw_run(36, i, "multitree", algos, cfgs)["expect_ok"]]
    cases = {i for i, _ in LEGALITY_CASES}
    unexp = sum(1 for i in range(2000) if i not in cases and not draw_run(36, i, "multitree", algos, cfgs)["expect_ok"])
    ok = not missed and unexp <= 0.25 * 2000
    return ok, "self-test legality -> %d of %d refused draws expected to pass%s; %d of the other 1,993 draws not expected to: %s" % (
        len(missed), len(LEGALITY_CASES), " (%s)" % ", ".join("run %d: %s" % m for m in missed) if missed else "", unexp,
        "caught" if ok else "NOT CAUGHT")


def merge_self_test(d):
    """(ok, line): --merge of the chunks the fake soaks wrote in d: the refusals alone exit 0, the
    wrong sums exit 1 and name run 0, one chunk given twice is refused; --only 2-0 is refused."""
    def m(*names):
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--merge"] + [os.path.join(d, "out-" + x) for x in names],
                           capture_output=True, text=True, cwd=TOP)
        return p.returncode, p.stdout + p.stderr
    got = [m("refuse"), m("refuse", "wrong"), m("wrong", "wrong")]
    bad = subprocess.run([sys.executable, os.path.abspath(__file__), "--only", "2-0", "--dry-run"], capture_output=True, text=True, cwd=TOP)
    ok = (got[0][0] == 0 and "REFUSED 3," in got[0][1] and got[1][0] == 1 and "runs twice" in got[1][1] and
          got[2][0] == 1 and "runs twice" in got[2][1] and bad.returncode != 0 and "empty range" in bad.stderr)
    wrong = m("wrong")
    ok = ok and wrong[0] == 1 and "FAIL WRONG run 0" in wrong[1] and "WRONG 3," in wrong[1]
    return ok, "self-test merge    -> exits %d/%d/%d/%d, --only 2-0 exit %d: %s" % (
        got[0][0], got[1][0], got[2][0], wrong[0], bad.returncode, "caught" if ok else "NOT CAUGHT")


def self_test(a):
    """Each misbehaviour of a fake multitree must land in its class and turn the soak red (a
    refusal must not); a network key without a draw rule must stop it; a watchdog stop with the
    stager off is DEADLOCK-STAGER-OFF only when the reruns confirm it; every draw fits its floor,
    and run 6162 of seed 35 (the real build) completes."""
    import tempfile
    real = os.path.join(TOP, a.bin)
    cases = [("asan", "SANITIZER", 1), ("ubsan", "SANITIZER", 1), ("wrong", "WRONG", 1), ("watchdog", "WATCHDOG", 1),
             ("hwerror", "HWERROR", 1), ("segv", "CRASH", 1), ("hang", "TIMEOUT", 1), ("silent", "CRASH", 1),
             ("refuse", "REFUSED", 0), ("b2bsilent", "WRONG", 1), ("boundhigh", "BOUND", 1), ("boundhalf", "BOUND", 1), ("newkey", None, 1),
             ("threads", "WRONG", 1), ("stageroff", DEADLOCK_STAGER_OFF, 0), ("stageroffstuck", "WATCHDOG", 1), ("run6162", "OK", 0),
             ("slow", SLOW, 0)]
    # the bound faults run the real binary: runs of seed 1 that simulate quickly and correctly
    # (drawn as before the new surfaces: --surface-share 0); the twin fault (--threads 2 gives
    # other cycles) the first three surface runs of seed 1 with twins on a small switch network
    twins = [i for i in range(400) if (lambda d: d.get("twins") and d["topo"].startswith(("fattree:2,2", "bigraph:2x2", "hier:1")) and
                                       int(d["cmd"][d["cmd"].index("--bytes") + 1]) <= 4096)(draw_run(1, i, a.bin, [], [], 1.0))][:3]
    # runs 0, 1 and 2 of seed 1 draw the stager off (ni_stage_after=0); run6162: the real build on
    # seed 35 run 6162 (1-flit buffers, link_lat0=1000), which stopped on max_cycles before the floor took link_lat0
    only = {"boundhigh": "7,19,25", "boundhalf": "7,19,25", "slow": "7,19,25", "threads": ",".join(map(str, twins)), "run6162": "6162"}
    seeds = {"run6162": "35"}
    npass = nfail = 0
    ok, line = floor_self_test(real)
    print(line)
    npass, nfail = int(ok), int(not ok)
    with tempfile.TemporaryDirectory() as d:
        for mode, cls, want_rc in cases:
            fake = os.path.join(d, "multitree-" + mode)
            with open(fake, "w") as f:
                f.write(FAKE % (mode, shlex.quote(real)))
            os.chmod(fake, 0o755)
            out = os.path.join(d, "out-" + mode)
            tri = fake if mode.startswith("stageroff") else ""
            cmd = [sys.executable, os.path.abspath(__file__), "--seed", seeds.get(mode, "1"), "--only", only.get(mode, "0,1,2"), "--jobs", "2",
                   "--timeout", "60" if mode == "run6162" else "3", "--bin", real if mode == "run6162" else fake, "--triage-bin=" + tri,
                   "--out", out, "--quiet", "--surface-share", "1" if mode == "threads" else "0"]
            p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, MODE=mode), cwd=TOP)
            got = collections.Counter()
            if os.path.exists(os.path.join(out, "results.jsonl")):
                with open(os.path.join(out, "results.jsonl")) as f:
                    got = collections.Counter(json.loads(x)["class"] for x in f)
            if cls is None:  # the soak must refuse to start
                ok = p.returncode != 0 and "new_field" in p.stderr
            else:
                first, n = only.get(mode, "0").split(",")[0], len(only.get(mode, "0,1,2").split(","))
                shown = {"REFUSED": "", "OK": "", DEADLOCK_STAGER_OFF: "%s run %s (not a failure)" % (cls, first),
                         SLOW: "%s run %s (not a failure)" % (cls, first)}.get(
                    cls, "FAIL %s run %s" % (cls, first))
                ok = p.returncode == want_rc and got[cls] == n and shown in p.stdout
            print("self-test %-8s -> %-9s exit %d, classes %s: %s" % (mode, cls or "(stop)", p.returncode, dict(got),
                                                                      "caught" if ok else "NOT CAUGHT"))
            if not ok:
                print((p.stdout + p.stderr)[-1500:])
            npass += ok
            nfail += not ok
        for ok, line in (merge_self_test(d), legality_self_test(a.bin)):
            print(line)
            npass += ok
            nfail += not ok
    print("RESULT soak-selftest pass=%d fail=%d" % (npass, nfail))
    return 1 if nfail else 0


# ---------------------------------------------------------------- the soak
def summarize(res, tag, wall, jobs, seed, lost=0):
    """The summary of the runs res (sorted by run number): counts by class, mode, algorithm and
    surface, the refusals, every failure with its command; returns (text, failures)."""
    counts = collections.Counter(r["class"] for r in res)
    L = []
    L.append("soak: %s; %d runs in %.0f s wall (%.2f runs/s, %d jobs)" % (tag, len(res), wall, len(res) / wall if wall else 0, jobs))
    L.append("classes: " + ", ".join("%s %d" % (c, counts[c]) for c in CLASSES) + (", LOST %d" % lost if lost else ""))
    modes = collections.Counter(r["mode"] for r in res)
    L.append("modes: " + ", ".join("%s %d" % kv for kv in sorted(modes.items())))
    L.append(b2b_summary(res))
    by_algo = collections.defaultdict(collections.Counter)
    for r in res:
        by_algo[r["algo"]][r["class"]] += 1
    for al in sorted(by_algo):
        L.append("  %-10s %s" % (al, " ".join("%s %d" % (c, by_algo[al][c]) for c in CLASSES if by_algo[al][c])))
    surf = collections.defaultdict(collections.Counter)
    for r in res:
        if r.get("surface"):
            surf[r["surface"]][r["class"]] += 1
    for sf in sorted(surf):
        L.append("  surface %-14s %s" % (sf, " ".join("%s %d" % (c, surf[sf][c]) for c in CLASSES if surf[sf][c])))
    ref = [r for r in res if r["class"] == "REFUSED"]
    drawn_out = sum(1 for r in ref if r["out_of_range"])
    L.append("refusals: %d of draws outside the model's ranges (key drawn: documented by `shape --keys` but refused), %d of "
             "other refusable draws (algorithm, bytes, one-wide dimension), %d of draws the soak believed legal" % (
                 drawn_out, sum(1 for r in ref if not r["out_of_range"] and not r["expect_ok"]),
                 sum(1 for r in ref if r["expect_ok"])))
    reasons = collections.Counter(re.sub(r"-?\d+(\.\d+)?(e[+-]?\d+)?", "N", r["why"])[:140] for r in ref)
    for why, n in reasons.most_common():
        L.append("  %4d x %s" % (n, why))
    unexpected = [r for r in ref if r["expect_ok"]]
    for r in unexpected[:20]:
        L.append("  believed legal, refused: run %d: %s | %s" % (r["i"], r["why"], r["cmd"]))
    accepted_out = [r for r in res if r["out_of_range"] and r["class"] != "REFUSED"]
    for r in accepted_out[:20]:
        L.append("  drawn outside the model's range (%s) but not refused: run %d %s" % (",".join(r["out_of_range"]), r["i"], r["class"]))
    for r in res:
        if r["class"] == DEADLOCK_STAGER_OFF:  # not a failure: the watchdog reporting the deadlock the stager clears
            L.append("%s run %d (not a failure): %s\n    hint: %s\n    reproduce: %s" % (r["class"], r["i"], r["why"], r["hint"], r["cmd"]))
        elif r["class"] == SLOW:  # not a failure: past the per-run limit, complete and correct within SLOW_FACTOR x it
            L.append("%s run %d (not a failure): %s\n    reproduce: %s" % (r["class"], r["i"], r["why"], r["cmd"]))
    fails = [r for r in res if r["class"] in FAIL_CLASSES]
    for r in fails:
        L.append("FAIL %s run %d: %s%s\n    reproduce: %s\n    redraw:    make soak SOAK_SEED=%d SOAK_ONLY=%d" % (
            r["class"], r["i"], r["why"], "\n    hint: " + r["hint"] if r.get("hint") else "", r["cmd"], seed, r["i"]))
    nf = len(fails) + lost
    L.append("RESULT soak pass=%d fail=%d" % (len(res) - len(fails), nf))
    return "\n".join(L), nf


def merge(dirs):
    """--merge DIR...: the summary of several soaks' results.jsonl (the chunks of one seed run by --only)."""
    res, wall, seeds = [], 0.0, set()
    for d in dirs:
        res += [json.loads(line) for line in open(os.path.join(d, "results.jsonl")) if line.strip()]
        m = re.search(r"soak: seed (\d+),.* in (\d+) s wall", open(os.path.join(d, "summary.txt")).read())
        if m:
            seeds.add(int(m.group(1)))
            wall += float(m.group(2))
    dup = len(res) - len({r["i"] for r in res})
    if len(seeds) > 1 or dup:
        sys.exit("soak.py: --merge: %s" % ("several seeds %s" % sorted(seeds) if len(seeds) > 1 else "%d runs twice" % dup))
    res.sort(key=lambda r: r["i"])
    seed = seeds.pop() if seeds else -1
    text, nf = summarize(res, "seed %d, %d runs merged from %d parts" % (seed, len(res), len(dirs)), wall, 1, seed)
    print(text)
    return 1 if nf else 0


def parse_only(text):
    """--only: run numbers and ranges, "164,508" or "0-499,1000-1499" (both ends included)."""
    out = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            sys.exit("soak.py: --only %s: not a run number or a range A-B" % part)
        lo, hi = int(lo), int(hi) if sep else int(lo)
        if hi < lo:
            sys.exit("soak.py: --only %s: empty range" % part)
        out.update(range(lo, hi + 1))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="run numbers and ranges, e.g. 164,508 or 0-499 (re-draws and reruns them alone)")
    ap.add_argument("--bin", default="build/multitree-san", help="the sanitizer build (relative to the repository)")
    ap.add_argument("--triage-bin", default="build/multitree", help="build without sanitizers for failure hints ('' = none)")
    ap.add_argument("--timeout", type=int, default=120, help="per run, seconds")
    ap.add_argument("--out", default="build/soak")
    ap.add_argument("--surface-share", type=float, default=SURFACE_SHARE,
                    help="the share of runs on the new surfaces (hier:, dims:, switch networks, flow level, train)")
    ap.add_argument("--dry-run", action="store_true", help="print the drawn commands, run nothing")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--self-test", action="store_true", help="check that every failure class is caught (fake binaries)")
    ap.add_argument("--merge", nargs="+", metavar="DIR", help="print the summary of these soaks' results (chunks of one seed)")
    ap.add_argument("--exec", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.merge:
        return merge(a.merge)
    a.out = os.path.join(TOP, a.out)
    if a.exec is not None:
        return exec_one(a)

    binary = os.path.join(TOP, a.bin)
    if not os.access(binary, os.X_OK):
        sys.exit("soak.py: %s not built (make %s)" % (a.bin, a.bin))
    if a.self_test:
        return self_test(a)
    if a.triage_bin and not os.access(os.path.join(TOP, a.triage_bin), os.X_OK):
        a.triage_bin = ""
    parallel = shutil.which("parallel")
    if not a.dry_run and (not parallel or "GNU parallel" not in subprocess.run(
            [parallel, "--version"], capture_output=True, text=True).stdout):
        sys.exit("soak.py: GNU parallel not found (Debian package parallel; scripts/deps.sh installs it; moreutils' "
                 "parallel is another program)")
    algos = tool_algos(binary)
    keys = tool_net_keys(binary)
    missing, gone = set(keys) - set(DRAWN_KEYS), set(DRAWN_KEYS) - set(keys)
    if missing or gone:
        sys.exit("soak.py: `multitree shape --keys` and the draw rules differ: network keys with no rule: %s; rules for "
                 "keys it does not list: %s (update draw_sets)" % (" ".join(sorted(missing)) or "none", " ".join(sorted(gone)) or "none"))
    cfgs = config_names()
    only = parse_only(a.only) if a.only else list(range(a.runs))
    runs = [draw_run(a.seed, i, a.bin, algos, cfgs, a.surface_share) for i in only]
    if a.dry_run:
        for run in runs:
            print("%d %s" % (run["i"], " ".join(shlex.quote(x) for x in run["cmd"])))
        return 0

    os.makedirs(a.out, exist_ok=True)
    jobs = os.path.join(a.out, "jobs.txt")
    with open(jobs, "w") as f:
        for run in runs:
            f.write(json.dumps(run) + "\n")
    tag = "seed %d, %s" % (a.seed, "runs %s" % a.only if a.only else "%d runs" % a.runs)
    print("soak: %s, %d at a time, %s (per-run limit %d s); algorithms %s; network keys %d" % (
        tag, a.jobs, a.bin, a.timeout, " ".join(algos), len(keys)), flush=True)
    me = os.path.abspath(__file__)
    pcmd = [parallel, "--will-cite", "-j", str(a.jobs), "--line-buffer", "-N1", "--arg-file", jobs, sys.executable, me,
            "--exec", "{}", "--timeout=%d" % a.timeout, "--out=" + a.out, "--triage-bin=" + a.triage_bin]
    t0 = time.time()
    res = []
    counts = collections.Counter()
    with open(os.path.join(a.out, "results.jsonl"), "w") as rf:
        p = subprocess.Popen(pcmd, stdout=subprocess.PIPE, text=True, cwd=TOP)
        for line in p.stdout:
            try:
                r = json.loads(line)
            except ValueError:
                print("soak: unexpected output: %s" % line.rstrip(), flush=True)
                continue
            rf.write(line)
            res.append(r)
            counts[r["class"]] += 1
            if r["class"] in FAIL_CLASSES + (DEADLOCK_STAGER_OFF, SLOW):
                print("  run %d %s: %s%s" % (r["i"], r["class"], r["why"], " [%s]" % r["hint"] if r.get("hint") else ""), flush=True)
            if not a.quiet and len(res) % 100 == 0:
                dt = time.time() - t0
                print("  %d/%d runs, %.0f s, %.2f runs/s: %s" % (len(res), len(runs), dt, len(res) / dt,
                                                                 " ".join("%s %d" % (c, counts[c]) for c in CLASSES if counts[c])), flush=True)
        prc = p.wait()
    wall = time.time() - t0
    lost = len(runs) - len(res)
    if prc and not lost:
        print("soak: GNU parallel exited %d" % prc)
    res.sort(key=lambda r: r["i"])

    text, nf = summarize(res, tag, wall, a.jobs, a.seed, lost)
    print(text, flush=True)
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    return 1 if nf else 0


if __name__ == "__main__":
    sys.exit(main())
