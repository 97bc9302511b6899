#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""deadlock_sweep.py: how often the C network model alone stops on a watchdog (a deadlock)
over `make regress`-style random draws (docs/reference/ni.md, "Known deadlocks").

For each seed, --shapes random hardware shapes (scripts/regress.py draw_shape) and --per
configurations each (draw_config, checked and redrawn as `make regress` does), run with
`multitree sim` (regress.py c_alone_cmd: the RTL's NI of 1 engine and 1 memory port, or
with --engines default the C model's default NI). Prints one FAIL line per run that does not
complete and a total per seed; exit status 0 either way (it measures, it does not judge).
Needs build/multitree and build/net/cosim_net_params (make build/multitree regress deps, or
`make build/net/cosim_net_params`). Example (the docs/reference/ni.md figure: 480 runs):
  scripts/deadlock_sweep.py --seeds 1,3,7,11 --shapes 10 --per 12
The runs are drawn first, then run through GNU parallel (docs/reference/sweeps.md): --jobs at a time
(default: one per core), other hosts with SSHLOGINS=FILE (its --sshloginfile; this
repository and --out at the same path there); each run's stderr in OUT/<k>.err, exit status in
OUT/joblog.
"""
import argparse
import os
import shlex
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
    ap.add_argument("--jobs", default=None, help="runs at a time per host (GNU parallel's --jobs; default: one per core)")
    ap.add_argument("--out", default="build/deadlock_sweep", help="the runs' stderr and the job log")
    a = ap.parse_args()
    seeds = [int(x) for x in a.seeds.split(",") if x]
    runs = [(seed, cmd) for seed in seeds for cmd in draw_runs(a, seed)]
    res = run_all(a, [cmd for _, cmd in runs])
    total = fails = 0
    for seed in seeds:
        n = bad = 0
        for (s, cmd), (rc, err) in zip(runs, res):
            if s != seed:
                continue
            n += 1
            if rc:
                bad += 1
                print("FAIL %s :: %s" % (" ".join(cmd), (err.strip().splitlines() or [""])[0]), flush=True)
        print("seed %d: %d runs, %d did not complete" % (seed, n, bad), flush=True)
        total += n
        fails += bad
    print("deadlock_sweep: %d runs, %d did not complete" % (total, fails))
    return 0


def draw_runs(a, seed):
    """The commands of one seed's runs, in the order of the serial sweep of before."""
    cmds = []
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
            cmds.append(cmd)
    return cmds


def run_all(a, cmds):
    """[(exit status, stderr)] of every command, run through GNU parallel (line k: OUT/k.err)."""
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    jobs, joblog = os.path.join(out, "jobs.txt"), os.path.join(out, "joblog")
    with open(jobs, "w") as f:  # absolute binary: the runs may start elsewhere (SSHLOGINS)
        f.writelines(shlex.join([os.path.abspath(c[0])] + c[1:]) + "\n" for c in cmds)
    pcmd = ["parallel", "--will-cite", "--joblog", joblog, "--arg-file", jobs]
    pcmd += ["--jobs", a.jobs] if a.jobs else []
    pcmd += ["--sshloginfile", os.environ["SSHLOGINS"]] if os.environ.get("SSHLOGINS") else []
    try:  # eval: parallel quotes the line as one word; its exit status is the run's
        p = subprocess.run(pcmd + ["eval {} >/dev/null 2>%s/{#}.err" % shlex.quote(out)], stdout=subprocess.DEVNULL)
    except FileNotFoundError:
        sys.exit("deadlock_sweep.py: GNU parallel is needed (Debian package parallel; scripts/deps.sh)")
    status = {}
    with open(joblog) as f:
        for line in f.readlines()[1:]:  # Seq Host Starttime JobRuntime Send Receive Exitval Signal Command
            col = line.split("\t")
            status[int(col[0])] = int(col[6]) or int(col[7])
    if p.returncode > 100 and len(status) < len(cmds):
        sys.exit("deadlock_sweep.py: GNU parallel exited %d after %d of %d runs" % (p.returncode, len(status), len(cmds)))
    res = []
    for k in range(1, len(cmds) + 1):
        try:
            with open(os.path.join(out, "%d.err" % k)) as f:
                err = f.read()
        except OSError:
            err = "no output"
        res.append((status.get(k, -1), err))
    return res


if __name__ == "__main__":
    sys.exit(main())
