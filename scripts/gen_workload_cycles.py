#!/usr/bin/env python3
# gen_workload_cycles.py WORKLOADS_DIR MODEL CAP: run scalesim (OS, 32x32, ample bandwidth) on
# the three GEMMs of every layer of WORKLOADS_DIR/MODEL.csv whose output-stationary formula
# is at most CAP cycles, and write WORKLOADS_DIR/cycles/MODEL.csv (the layers whose three
# GEMMs all ran) and WORKLOADS_DIR/cycles/MODEL.agree.csv (scalesim against the formula of
# cmodel/train/mt_systolic.c, per GEMM). Called by gen_workload_cycles.sh inside its venv.
import csv, math, os, shutil, subprocess, sys, tempfile

R = C = 32
CFG = """[general]
run_name = os32
[architecture_presets]
ArrayHeight: 32
ArrayWidth: 32
IfmapSramSzkB: 6144
FilterSramSzkB: 6144
OfmapSramSzkB: 2048
IfmapOffset: 0
FilterOffset: 10000000
OfmapOffset: 20000000
Dataflow: os
Bandwidth: 10
ReadRequestBuffer: 32
WriteRequestBuffer: 32
[layout]
IfmapCustomLayout: False
IfmapSRAMBankBandwidth: 10
IfmapSRAMBankNum: 10
IfmapSRAMBankPort: 2
FilterCustomLayout: False
FilterSRAMBankBandwidth: 10
FilterSRAMBankNum: 10
FilterSRAMBankPort: 2
[sparsity]
SparsitySupport: false
SparseRep: ellpack_block
OptimizedMapping: false
BlockSize: 8
RandomNumberGeneratorSeed: 40
[run_presets]
InterfaceBandwidth: CALC
UseRamulatorTrace: False
"""


def formula(m, n, k):
    return 0 if not (m and n and k) else math.ceil(m / R) * math.ceil(n / C) * (k + R + C - 2) - 1


def gemms(rows):
    """(layer, pass, M, N, K) as cmodel/train/mt_systolic.c forms them"""
    out = []
    for i, r in enumerate(rows):
        ifh, ifw, fh, fw, ch, nf, s = (int(x) for x in r[1:8])
        m = ((ifh - fh) // s + 1) * ((ifw - fw) // s + 1)
        n, k = nf, fh * fw * ch
        out.append((r[0], "fwd", m, n, k))
        out.append((r[0], "bwd_in", 0, 0, 0) if i == 0 or r[8] == "embed" else (r[0], "bwd_in", m, k, n))
        out.append((r[0], "bwd_w", m, n, k) if r[8] == "embed" else (r[0], "bwd_w", k, n, m))
    return out


def main():
    wdir, model, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(os.path.join(wdir, model + ".csv")) as f:
        rows = [[x.strip() for x in line.split(",")] for line in f.readlines()[1:] if line.strip()]
    g = gemms(rows)
    run = [x for x in g if x[2] and formula(*x[2:]) <= cap]
    tmp = tempfile.mkdtemp()
    got = {}
    if run:
        with open(os.path.join(tmp, "os32.cfg"), "w") as f:
            f.write(CFG)
        with open(os.path.join(tmp, "layout.csv"), "w") as f:
            f.write("Layer name,\n")
        with open(os.path.join(tmp, "gemm.csv"), "w") as f:  # scalesim GEMM rows: M, N, K (K the reduction)
            f.write("Layer, M, N, K,\n")
            for j, x in enumerate(run):
                f.write("g%d, %d, %d, %d,\n" % (j, x[2], x[3], x[4]))
        drv = ("import sys\nfrom scalesim.scale_sim import scalesim\n"
               "s = scalesim(save_disk_space=True, verbose=False, config=sys.argv[1], topology=sys.argv[2], layout=sys.argv[3], input_type_gemm=True)\n"
               "s.run_scale(top_path=sys.argv[4])\n")
        subprocess.run([sys.executable, "-c", drv, tmp + "/os32.cfg", tmp + "/gemm.csv", tmp + "/layout.csv", tmp + "/out"], check=True,
                       stdout=subprocess.DEVNULL)
        rep = [p for p in (os.path.join(dp, fn) for dp, _, fns in os.walk(tmp + "/out") for fn in fns) if p.endswith("COMPUTE_REPORT.csv")][0]
        with open(rep) as f:
            rr = list(csv.reader(f))[1:]
        for j, x in enumerate(run):
            got[x[:2]] = int(rr[j][2])  # "Total Cycles" (without the prefetch)
    shutil.rmtree(tmp)
    os.makedirs(os.path.join(wdir, "cycles"), exist_ok=True)
    with open(os.path.join(wdir, "cycles", model + ".agree.csv"), "w") as f:
        f.write("layer,pass,M,N,K,scalesim,formula,diff_percent\n")
        for x in g:
            fo = formula(*x[2:])
            ss = 0 if not x[2] else got.get(x[:2])
            d = "" if ss is None else ("%.3f" % (0.0 if ss == fo else 100.0 * (fo - ss) / ss))
            f.write("%s,%s,%d,%d,%d,%s,%d,%s\n" % (x[0], x[1], x[2], x[3], x[4], "" if ss is None else ss, fo, d))
    n = 0
    with open(os.path.join(wdir, "cycles", model + ".csv"), "w") as f:
        f.write("Layer name, Forward, Backward input, Backward weight,\n")
        for r in rows:
            v = [0 if not x[2] else got.get(x[:2]) for x in g if x[0] == r[0]]
            if None not in v:
                f.write("%s, %d, %d, %d,\n" % (r[0], v[0], v[1], v[2]))
                n += 1
    print("%s: %d of %d layers from scalesim (%d GEMMs run, cap %d formula cycles)" % (model, n, len(rows), len(run), cap))


if __name__ == "__main__":
    main()
