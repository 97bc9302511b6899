#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""deadlock_sweep.py: how often the C network model alone stops on a watchdog (a deadlock)
over `make regress`-style random draws (docs/ni.md, "Known deadlocks").

For each seed, --shapes random hardware shapes (scripts/regress.py draw_shape) and --per
configurations each (draw_config, checked and redrawn as `make regress` does), run with
`multitree sim` (regress.py c_alone_cmd: the RTL's NI of 1 engine and 1 memory port, or
with --engines default the C model's default NI). Prints one FAIL line per run that does not
complete and a total per seed; exit status 0 either way (it measures, it does not judge).
Needs build/multitree and build/net/cosim_net_params (make build/multitree regress deps, or
`make build/net/cosim_net_params`). Example (the docs/ni.md figure: 480 runs):
  scripts/deadlock_sweep.py --seeds 1,3,7,11 --shapes 10 --per 12
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regress as R  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1,3,7,11")
    ap.add_argument("--shapes", type=int, default=10)
    ap.add_argument("--per", type=int, default=12, help="configurations per shape")
    ap.add_argument("--engines", choices=["rtl", "default"], default="rtl")
    ap.add_argument("--multitree", default="build/multitree")
    ap.add_argument("--params", default="build/net/cosim_net_params")
    a = ap.parse_args()
    total = fails = 0
    for seed in [int(x) for x in a.seeds.split(",") if x]:
        runs = bad = 0
        for i in range(a.shapes):
            sh = R.draw_shape(seed, i, 16)
            algos = [x for x in R.describe(a.params, R.shape_spec(sh)).get("algos", "").split(",") if x]
            spec = R.shape_spec(sh, algos)
            for k in range(a.per):
                for attempt in range(20):
                    c = R.draw_config(seed, k * 1000 + i, sh, algos, attempt)
                    ok, _ = R.check(a.params, spec, c)
                    if not ok and c["flow"] == "packet":
                        c["flow"] = "message"
                        ok, _ = R.check(a.params, spec, c)
                    if ok:
                        break
                else:
                    continue
                cmd = R.c_alone_cmd(a.multitree, sh, c)
                if a.engines == "default":  # drop the RTL NI's 1 engine / 1 memory port
                    for kv in ("ni_rx_engines=1", "ni_mem_ports=1"):
                        j = cmd.index(kv)
                        del cmd[j - 1:j + 1]
                p = subprocess.run(cmd, capture_output=True, text=True)
                runs += 1
                if p.returncode:
                    bad += 1
                    print("FAIL %s :: %s" % (" ".join(cmd), (p.stderr.strip().splitlines() or [""])[0]), flush=True)
        print("seed %d: %d runs, %d did not complete" % (seed, runs, bad), flush=True)
        total += runs
        fails += bad
    print("deadlock_sweep: %d runs, %d did not complete" % (total, fails))
    return 0


if __name__ == "__main__":
    sys.exit(main())
