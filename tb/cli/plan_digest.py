#!/usr/bin/env python3
"""plan_digest.py FILE: a digest of the schedule in a `plan --json` file, independent of the
file's layout: steps, the flows (root, address, size), the transfers (flow, op, source,
destination, step, path of vertices) in order and each node's table entries (op, flow,
step, the ports and eject ports of the parent and the children, in order). Prints the first 16
hex digits of its SHA-256."""
import hashlib
import json
import sys

d = json.load(open(sys.argv[1]))
h = hashlib.sha256()
h.update(("%s %d %d\n" % (d["algorithm"], d["steps"], d["reduce_steps"])).encode())
for f in d["flows"]:
    h.update(("f %d %d %d %d\n" % (f["flow"], f["root"], f["addr"], f["size"])).encode())
for x in d["transfers"]:
    h.update(("x %d %s %d %d %d %s\n" % (x["flow"], x["op"], x["src"], x["dst"], x["step"], ",".join(map(str, x["path"])))).encode())
for n in d["nodes"]:
    h.update(("n %d %s\n" % (n["id"], ";".join("%s:%d:%d:%s:%s:%s:%s" % (e["op"], e["flow"], e["step"], e.get("parent_port"), e.get("parent_eject"),
                                                                   e.get("child_ports"), e.get("child_ejects")) for e in n["entries"]))).encode())
print(h.hexdigest()[:16])
