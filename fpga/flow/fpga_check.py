#!/usr/bin/env python3
# fpga_check.py FILE [--planted]: check a results.json of make fpga (fpga_flow.py): the schema
# of every row and the consistency of its numbers (docs/reference/fpga.md "Checks").
# Without --planted: every row must pass; exit 1 otherwise. With --planted: the file's rows
# carry "_planted" (why the row is wrong) or not; each planted row must be caught and no other
# row may be (the checker's own test). Prints 'RESULT fpga-check pass=N fail=M'.
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fpga_flow import DEVICES, ROUTABLE  # noqa: E402  (the device capacities, one definition)

NUM = ("lut4", "ff", "bram", "dsp")


def row_errors(r):
    e = []
    for k, t in (("block", str), ("shape", str), ("device", str), ("fits", bool), ("status", str)):
        if not isinstance(r.get(k), t):
            e.append("%s: missing or not %s" % (k, t.__name__))
    if e:
        return e
    if not r["block"] or not re.fullmatch(r"[a-z0-9_]+", r["block"]):
        e.append("block: %r is not a block name" % r["block"])
    dev = DEVICES.get(r["device"])
    if dev is None:
        return e + ["device: %r unknown" % r["device"]]
    w = r.get("wall_s")
    if not isinstance(w, (int, float)) or isinstance(w, bool) or not 0 < w < 86400:
        e.append("wall_s: %r is not a positive time" % (w,))
    synthesized = not r["status"].startswith("synth")
    for k in NUM:
        v = r.get(k)
        if synthesized and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            e.append("%s: %r is not a cell count" % (k, v))
    if synthesized and isinstance(r.get("lut4"), int) and r["lut4"] == 0 and r.get("ff") == 0:
        e.append("lut4, ff: both 0 (an empty netlist)")
    f = r.get("fmax_mhz")
    if r["fits"]:
        if not r["status"].startswith("routed"):
            e.append("fits but status %r" % r["status"])
        for k in NUM:
            if isinstance(r.get(k), int) and r[k] > dev[k]:
                e.append("fits but %s %d > %d on %s" % (k, r[k], dev[k], r["device"]))
        if r["status"] == "routed":
            if not isinstance(f, (int, float)) or isinstance(f, bool) or not 0 < f < 1000:
                e.append("fmax_mhz: %r is not a frequency" % (f,))
            for k in ("path_from", "path_to"):
                if not isinstance(r.get(k), str) or not r[k]:
                    e.append("%s: missing for a routed block" % k)
            lv = r.get("logic_levels")
            if not isinstance(lv, int) or lv < 0:
                e.append("logic_levels: %r" % (lv,))
            if isinstance(f, (int, float)) and isinstance(r.get("path_ns"), (int, float)) and r["path_ns"] > 0:
                # the critical path and Fmax are one measurement
                if abs(1000.0 / r["path_ns"] - f) > 0.05 * f + 0.5:
                    e.append("fmax_mhz %s disagrees with path_ns %s" % (f, r["path_ns"]))
    else:
        if f is not None:
            e.append("fmax_mhz %r for a block that does not fit" % (f,))
        if r["status"].startswith("does not fit:") and not any(
                isinstance(r.get(k), int) and r[k] > dev[k] for k in NUM) and not (
                isinstance(r.get("luts_est"), int) and r["luts_est"] > (ROUTABLE if dev["family"] == "ecp5" else 1) * dev["lut4"]):
            e.append("does not fit, yet no count exceeds %s" % r["device"])
        if r["status"].startswith("routed"):
            e.append("routed but fits is false")
    return e


def check(doc):
    errs = []
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list) or not doc["rows"]:
        return [("-", ["no rows"])]
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(doc.get("date", ""))):
        errs.append(("-", ["date: %r" % doc.get("date")]))
    seen = set()
    for i, r in enumerate(doc["rows"]):
        if not isinstance(r, dict):
            errs.append((str(i), ["not an object"]))
            continue
        e = row_errors(r)
        k = (r.get("block"), r.get("device"))
        if k in seen:
            e.append("duplicate row %s on %s" % k)
        seen.add(k)
        if e:
            errs.append(("%s %s/%s" % (i, r.get("block"), r.get("device")), e))
    return errs


def main():
    if len(sys.argv) < 2:
        print(__doc__ or "usage: fpga_check.py FILE [--planted]", file=sys.stderr)
        return 2
    doc = json.load(open(sys.argv[1]))
    planted = "--planted" in sys.argv[2:]
    errs = dict(check(doc))
    if not planted:
        for k, e in errs.items():
            print("fpga-check: row %s: %s" % (k, "; ".join(e)))
        n = len(doc.get("rows", [])) if isinstance(doc, dict) else 0
        print("RESULT fpga-check pass=%d fail=%d" % (max(n - len(errs), 0), len(errs)))
        return 1 if errs else 0
    ok = bad = 0
    for i, r in enumerate(doc["rows"]):
        k = "%s %s/%s" % (i, r.get("block"), r.get("device"))
        caught = k in errs
        if caught == bool(r.get("_planted")):
            ok += 1
            print("fpga-check: row %s: %s" % (k, "caught: %s (planted: %s)" % ("; ".join(errs[k]), r["_planted"])
                                               if caught else "passes"))
        else:
            bad += 1
            print("fpga-check: row %s: %s" % (k, "planted (%s) but not caught" % r["_planted"] if not caught
                                               else "caught but not planted: %s" % "; ".join(errs[k])))
    print("RESULT fpga-check-planted pass=%d fail=%d" % (ok, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
