#!/usr/bin/env python3
"""fpga/flow/router2_stall.py LOG [--window W]: exit 0 when nextpnr's router2 stalled in LOG (its log)

When it stalled, one line says how: its iterations and the fewest overused wires.

router2 runs until no wire is overused, and it can stall, with a wire or two that it never frees
or with thousands on a placement too dense for it: stalled means that none of its last W
iterations (default 20) left fewer wires overused than the fewest before them (a finished route
ends at 0, below every iteration before it). fpga/ulx3s/build.sh watches the board's route with
it, stops a stalled router2 and places again with the next seed.
"""
import argparse
import re
import sys


def overused(text):
    """router2's overused wires, one per iteration"""
    return [int(v) for v in re.findall(r"\biter=\d+ wires=\d+ overused=(\d+)", text)]


def is_stalled(v, window):
    return len(v) > window and min(v[-window:]) >= min(v[:-window])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--window", type=int, default=20)
    a = ap.parse_args()
    if a.window < 1:
        sys.exit("router2_stall: --window must be at least 1")
    try:
        text = open(a.log, errors="replace").read()
    except OSError:
        return 1
    v = overused(text)
    if not is_stalled(v, a.window):
        return 1
    print("%d iterations, none of the last %d below %d overused wires" % (len(v), a.window, min(v)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
