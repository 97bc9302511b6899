#!/usr/bin/env python3
"""mutate_check.py BIN [WORKDIR]: mutation check of `multitree check` (issue #11).

Plans valid schedules of every algorithm on several topologies, requires `check` to pass
each, then applies every class of corruption (routing fields, moved steps, the transfer
list, the top-level fields, the topology, NOP entries, dependencies, chunks,
contributions) and requires `check` to refuse each mutant: non-zero exit and a message
matching the class's pattern (the field it names). Python standard library only.
Prints one line per failure and `RESULT mutate_check pass=N fail=M`."""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
WORK = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="mutate_check.")
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TOP, "tb", "cmodel", "data")
os.makedirs(WORK, exist_ok=True)
# 1 MiB + 28 bytes: chunks of unequal size, so that a changed elem changes the tiling
BYTES = 1048604
TOPOS = ["torus:4x4", "mesh:4x4", "torus:3x5", "ring:8", "bigraph:2x4",
         "file:" + os.path.join(DATA, "switched.topo"), "file:" + os.path.join(DATA, "multilink.topo")]
# every algorithm, from the tool's own list ("Algorithms: multitree ring ...")
_help = subprocess.run([BIN, "--help"], capture_output=True, text=True)
ALGOS = re.search(r"^Algorithms: (.*)$", _help.stdout + _help.stderr, re.M).group(1).split()

# chunked schedules: themis and dimbal with 2 chunks on ring:8 only (its default 64 chunks makes files
# 32x larger; every topology would double this test's time); their gathers overlap later
# chunks' reduces ("interleaved": true)
ALGO_ARGS = {"themis": ["--chunks", "2"], "dimbal": ["--chunks", "2"]}
ALGO_TOPOS = {"themis": ["ring:8"], "dimbal": ["ring:8"]}
# hierarchies (docs/reference/flexreduce.md) for the two algorithms with uneven flows only
TOPOS += ["hier:4+3,2", "hier:2+2+2,3"]
TOPO_ALGOS = {"hier:4+3,2": ["flexreduce"], "hier:2+2+2,3": ["blueconnect"]}

npass = nfail = 0


def check(path):
    r = subprocess.run([BIN, "check", path], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def fail(msg):
    global nfail
    nfail += 1
    print("FAIL: " + msg)


def ports_of(doc, n):
    t = doc["topology"]
    if "dims" in t:
        return 2 * len(t["dims"])
    return sum((a == n) + (b == n) for a, b, _ in t["links"])


def entries(doc, pred):
    """(node, index, entry) of every entry satisfying pred, node by node."""
    return [(n, i, e) for n, node in enumerate(doc["nodes"]) for i, e in enumerate(node["entries"]) if pred(e)]


def pick(lst):
    return lst[len(lst) // 2] if lst else None


def sender(e):
    return e["op"] == "reduce" and e["parent"] is not None


def resort(doc, n):
    doc["nodes"][n]["entries"].sort(key=lambda e: e["step"])


# ---- mutation classes: each returns a pattern for check's message, or None if not applicable
def m_parent_port(d):
    x = pick(entries(d, sender))
    n, _, e = x
    p = e["parent_port"]
    np_ = ports_of(d, n)
    e["parent_port"] = 0 if p == "routed" else (p + 1) % np_ if np_ > 1 else p + 1
    return r"parent_port|child_ports"


def m_parent_eject(d):
    n, _, e = pick(entries(d, sender))
    e["parent_eject"] = e["parent_eject"] + 1
    return r"parent_eject|child_ejects"


def m_child_port(d):
    x = pick(entries(d, lambda e: e["op"] == "gather" and e["children"]))
    n, _, e = x
    p = e["child_ports"][0]
    np_ = ports_of(d, n)
    e["child_ports"][0] = 0 if p == "routed" else (p + 1) % np_ if np_ > 1 else p + 1
    return r"child_ports|parent_port"


def m_child_eject(d):
    _, _, e = pick(entries(d, lambda e: e["op"] == "gather" and e["children"]))
    e["child_ejects"][0] += 1
    return r"child_ejects|parent_eject"


def m_recv_port(d):  # the receiver's copy of the sender's port
    x = pick(entries(d, lambda e: e["op"] == "reduce" and e["children"]))
    n, _, e = x
    p = e["child_ports"][0]
    e["child_ports"][0] = 0 if p == "routed" else p + 1
    return r"child_ports"


def m_eject_neg(d):
    pick(entries(d, sender))[2]["parent_eject"] = -7
    return r"parent_eject"


def m_eject_huge(d):
    pick(entries(d, sender))[2]["parent_eject"] = 1 << 40
    return r"parent_eject"


def m_port_string(d):
    pick(entries(d, sender))[2]["parent_port"] = "east"
    return r"parent_port"


def m_port_deleted(d):
    del pick(entries(d, sender))[2]["parent_port"]
    return r"parent_port"


def m_child_ejects_short(d):
    pick(entries(d, lambda e: e["op"] == "gather" and e["children"]))[2]["child_ejects"].pop()
    return r"child_ejects"


def m_routed(d):  # a one-hop message marked routed
    x = pick(entries(d, lambda e: sender(e) and e["parent_port"] != "routed"))
    if not x:
        return None
    x[2]["parent_port"] = "routed"
    return r"routed|child_ports"


def m_unrouted(d):  # a multi-hop message given a port
    x = pick(entries(d, lambda e: sender(e) and e["parent_port"] == "routed"))
    if not x:
        return None
    x[2]["parent_port"] = 0
    return r"parent_port|parent_eject|child_ports"


def m_moved_step(d, keep_transfers=True):
    """Move a reduce send one step earlier (entries re-sorted): a dependency, a link or the
    transfer list must break."""
    x = pick(entries(d, lambda e: sender(e) and e["step"] > 1))
    if not x:
        return None
    n, _, e = x
    e["step"] -= 1
    resort(d, n)
    if not keep_transfers:
        del d["transfers"]
    return r"step|link .* carries|transfer"


def m_moved_step_no_transfers(d):
    """No transfer list: a reduce moved to the step in which one of its children sends
    (moving a leaf's send to a free step can leave a correct schedule)."""
    for n, node in enumerate(d["nodes"]):
        for e in node["entries"]:
            if sender(e) and e["children"]:
                ch = e["children"][0]
                sc = [x["step"] for x in d["nodes"][ch]["entries"] if sender(x) and x["flow"] == e["flow"] and x["parent"] == n]
                e["step"] = sc[0]
                resort(d, n)
                del d["transfers"]
                return r"has not arrived|step"
    return None


def m_moved_contention(d):
    """The issue's reproducer, generalised: a reduce moved to a step in which its sender
    already uses the same link (no transfer list)."""
    for n, node in enumerate(d["nodes"]):
        by = {}
        for e in node["entries"]:
            if sender(e):
                by.setdefault(e["parent"], []).append(e)
        for sends in by.values():
            steps = sorted({e["step"] for e in sends})
            if len(steps) >= 2 and sends[-1]["children"] == [] and sends[-1]["parent_port"] != "routed":
                sends[-1]["step"] = steps[0]
                resort(d, n)
                del d["transfers"]
                return r"link .* carries|step"
    return None


def m_xfer_dup(d):
    d["transfers"][0] = d["transfers"][1]
    return r"transfers\[1\] repeats|transfer list does not have"


def m_xfer_del(d):
    del d["transfers"][len(d["transfers"]) // 2]
    return r"transfer list does not have"


def m_xfer_add(d):
    x = dict(d["transfers"][0])
    x["step"] = d["steps"]
    d["transfers"].append(x)
    return r"transfers\[\d+\].*no table entry"


def m_xfer_append_dup(d):
    d["transfers"].append(d["transfers"][3])
    return r"repeats"


def m_xfer_path(d):
    x = pick([t for t in d["transfers"] if len(t["path"]) == 2])
    if not x:
        return None
    x["flow"] = (x["flow"] + 1) % len(d["flows"])  # one transfer names the wrong flow
    return r"transfer"


def setter(key, val):
    def f(d):
        if callable(val):
            d[key] = val(d[key])
        else:
            d[key] = val
        return re.escape(key) if key not in ("steps",) else r"steps|step"
    f.__name__ = "set_%s_%s" % (key, "fn" if callable(val) else val)
    return f


def deleter(key):
    def f(d):
        del d[key]
        return re.escape(key)
    f.__name__ = "del_" + key
    return f


def m_steps_up(d):
    d["steps"] += 1
    return r"steps|step 1?\d+"


def m_steps_down(d):
    d["steps"] -= 1
    return r"step"


def m_reduce_steps_up(d):
    d["reduce_steps"] += 1
    return r"reduce_steps"


def m_reduce_steps_down(d):
    d["reduce_steps"] -= 1
    return r"reduce_steps"


def m_elem3(d):
    d["elem"] = 3
    return r"elem"


def m_elem2(d):
    d["elem"] = 2
    return r"elem"


def m_elem8(d):
    d["elem"] = 8
    return r"elem"


def m_one_hop_flip(d):
    d["one_hop"] = not d["one_hop"]
    return r"one_hop"


def m_kind_hypercube(d):
    d["topology"]["kind"] = "hypercube"
    return r"topology\.kind"


def m_kind_other(d):
    d["topology"]["kind"] = "file" if d["topology"]["kind"] != "file" else "mesh"
    return r"topology"


def m_link_dup(d):
    d["topology"]["links"].append(d["topology"]["links"][0])
    return r"topology\.links"


def m_link_mult_huge(d):
    d["topology"]["links"][0][2] = (1 << 32) + 1
    return r"topology\.links"


def m_link_end_huge(d):
    d["topology"]["links"][0][1] = (1 << 31) + 1
    return r"topology\.links"


def m_link_deleted(d):
    del d["topology"]["links"][0]  # the other links of its ends are renumbered
    return r"topology|port|eject|link|transfer"


def m_link_mult_named(d):  # a named topology's links must be what its spec builds
    if d["topology"]["kind"] == "file":
        return None
    d["topology"]["links"][0][2] = 2
    return r"topology\.links"


def m_nodes(d):
    d["topology"]["nodes"] += 1
    return r"topology|nodes"


def m_nop_drop(d):
    x = pick(entries(d, lambda e: e["op"] == "nop"))
    if not x:
        return None
    del d["nodes"][x[0]]["entries"][x[1]]
    return r"NOP"


def m_nop_dup(d):
    x = pick(entries(d, lambda e: e["op"] == "nop"))
    if not x:
        return None
    d["nodes"][x[0]]["entries"].insert(x[1], dict(x[2]))
    return r"NOP"


def m_nop_size(d):
    x = pick(entries(d, lambda e: e["op"] == "nop"))
    if not x:
        return None
    x[2]["size"] += 4
    return r"NOP .*size"


def m_nop_flow(d):
    x = pick(entries(d, lambda e: e["op"] == "nop"))
    if not x:
        return None
    x[2]["flow"] = 1
    return r"NOP .*flow"


def m_dependency(d):  # a reduce child dropped
    x = pick(entries(d, lambda e: e["op"] == "reduce" and e["children"]))
    e = x[2]
    e["children"].pop()
    e["child_ports"].pop()
    e["child_ejects"].pop()
    return r"never added|contributions|holding"


def m_wrong_child(d):
    x = pick(entries(d, lambda e: e["op"] == "reduce" and e["children"]))
    e = x[2]
    N = len(d["nodes"])
    e["children"][0] = (e["children"][0] + 1) % N if (e["children"][0] + 1) % N != x[0] else (e["children"][0] + 2) % N
    return r"child|reduce|contribution"


def m_chunk(d):
    x = pick(entries(d, lambda e: e["op"] != "nop"))
    x[2]["addr"] += 4
    return r"chunk"


def m_flow_size(d):
    d["flows"][1]["size"] += 4
    return r"flow 1 "


def m_root(d):
    d["flows"][0]["root"] = (d["flows"][0]["root"] + 1) % len(d["nodes"])
    return r"root"


def m_contribution(d):  # a node's reduce send deleted
    x = pick(entries(d, sender))
    del d["nodes"][x[0]]["entries"][x[1]]
    return r"contribution|never"


def m_interleaved_flip(d):  # check derives whether gathers overlap reduces
    d["interleaved"] = not d.get("interleaved", False)
    return r"interleaved|before the reduce-scatter half ends"


def m_early_gather(d):
    x = pick(entries(d, lambda e: e["op"] == "gather" and e["parent"] is not None))
    n, _, e = x
    e["step"] -= 1
    resort(d, n)
    return r"gather|step"


MUTANTS = [m_parent_port, m_parent_eject, m_child_port, m_child_eject, m_recv_port, m_eject_neg, m_eject_huge,
           m_port_string, m_port_deleted, m_child_ejects_short, m_routed, m_unrouted,
           m_moved_step, m_moved_step_no_transfers, m_moved_contention,
           m_xfer_dup, m_xfer_del, m_xfer_add, m_xfer_append_dup, m_xfer_path,
           m_steps_up, m_steps_down, deleter("steps"), m_reduce_steps_up, m_reduce_steps_down, deleter("reduce_steps"),
           m_elem3, m_elem2, m_elem8, deleter("elem"), m_one_hop_flip, deleter("one_hop"),
           m_kind_hypercube, m_kind_other, m_link_dup, m_link_mult_huge, m_link_end_huge, m_link_deleted,
           m_link_mult_named, m_nodes,
           m_nop_drop, m_nop_dup, m_nop_size, m_nop_flow,
           m_dependency, m_wrong_child, m_chunk, m_flow_size, m_root, m_contribution, m_early_gather,
           m_interleaved_flip]

refused = total = valid = valid_refused = 0
for topo in TOPOS:
    for algo in ALGOS:
        if algo in ALGO_TOPOS and topo not in ALGO_TOPOS[algo]:
            continue
        if topo in TOPO_ALGOS and algo not in TOPO_ALGOS[topo]:
            continue
        name = re.sub(r"[^A-Za-z0-9]+", "_", topo.split("/")[-1]) + "-" + algo
        path = os.path.join(WORK, name + ".json")
        r = subprocess.run([BIN, "plan", "--topo", topo, "--algo", algo, "--bytes", str(BYTES), "--json", path, "--quiet"] + ALGO_ARGS.get(algo, []),
                           capture_output=True, text=True)
        if r.returncode:
            continue  # the algorithm does not apply to this topology
        rc, out = check(path)
        valid += 1
        if rc:
            valid_refused += 1
            fail("%s: the planner's schedule is refused:\n%s" % (name, out[-600:]))
            continue
        npass += 1
        base = json.load(open(path))
        jobs = []
        for mut in MUTANTS:
            d = json.loads(json.dumps(base))
            try:
                pat = mut(d)
            except (TypeError, IndexError, KeyError):
                pat = None
            if pat is None:
                continue
            total += 1
            mp = os.path.join(WORK, "%s.%s.json" % (name, mut.__name__))
            with open(mp, "w") as f:
                json.dump(d, f)
            jobs.append((mut, pat, mp))
        # two checks at a time (a 2-core machine)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda j: check(j[2]), jobs))
        for (mut, pat, mp), (rc, out) in zip(jobs, results):
            os.unlink(mp)
            if rc == 0:
                fail("%s %s: accepted:\n%s" % (name, mut.__name__, out[-400:]))
            elif rc not in (1, 2) or not re.search(pat, out):
                fail("%s %s: exit %d, message does not match /%s/:\n%s" % (name, mut.__name__, rc, pat, out[-600:]))
            else:
                refused += 1
                npass += 1
print("valid schedules: %d, passed: %d" % (valid, valid - valid_refused))
print("mutants refused: %d of %d (%d classes)" % (refused, total, len(MUTANTS)))
print("RESULT mutate_check pass=%d fail=%d" % (npass, nfail))
sys.exit(1 if nfail else 0)
