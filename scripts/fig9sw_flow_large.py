#!/usr/bin/env python3
"""fig9sw_flow_large.py BIN FLOW_VS_CYCLE_CSV OUT_CSV: the Fig. 9c/9d points above 8 MiB (16, 32,
64 MiB) at the flow level, where the cycle model takes hours. Each (network, algorithm, flow
control) is used only when the flow level is within 1 % of the cycle model at 8 MiB in
FLOW_VS_CYCLE_CSV (scripts/flow_vs_cycle.py on docs/results/fig9sw.csv); OUT_CSV has every
run with that error and a `trusted` column, stdout the markdown table of docs/results/fig9sw.md."""
import csv, json, subprocess, sys, tempfile

bin_, fvc, out = sys.argv[1:4]
err = {(r["topology"], r["algorithm"], r["flow"]): float(r["error_pct"])
       for r in csv.DictReader(open(fvc)) if r["bytes"] == "8388608" and r["error_pct"]}
name = {("ring", "packet"): "Ring", ("hdrm", "packet"): "HDRM", ("multitree", "packet"): "MultiTree (packets)",
        ("multitree", "message"): "MultiTreeMsg"}
rows = []
for t in ["dgx2", "fattree:8,2", "bigraph:4x8", "bigraph:4x16"]:
    for a, f in name:
        if subprocess.run([bin_, "plan", "--topo", t, "--algo", a, "--bytes", "32K"], capture_output=True).returncode:
            continue  # hdrm: BiGraph only
        for b in (16 << 20, 32 << 20, 64 << 20):
            with tempfile.NamedTemporaryFile(suffix=".json") as tf:
                subprocess.run([bin_, "sim", "--level", "flow", "--topo", t, "--algo", a, "--flow", f, "--bytes", str(b), "--config", "paper",
                                "--json", tf.name], capture_output=True, check=True)
                j = json.load(open(tf.name))
            rows.append((t, a, f, b, j["time"], j["gbps"], j["lower_bound_fraction"], err.get((t, a, f))))
ok = lambda e: e is not None and abs(e) < 1
with open(out, "w") as fo:
    fo.write("topology,algorithm,flow,bytes,flow_cycles,gbps,lower_bound_fraction,flow_error_at_8MiB_pct,trusted\n")
    for t, a, f, b, tm, g, lb, e in rows:
        fo.write('"%s",%s,%s,%d,%.0f,%.3f,%.4f,%s,%s\n' % (t, a, f, b, tm, g, lb, "%+.3f" % e if e is not None else "", "yes" if ok(e) else "no"))
print("| network | algorithm | 16 MiB | 32 MiB | 64 MiB | flow level at 8 MiB against the cycle model |")
print("|---|---|---|---|---|---|")
for i in range(0, len(rows), 3):
    t, a, f, _, _, _, _, e = rows[i]
    cells = " | ".join("%.2f (%.0f%%)" % (r[5], 100 * r[6]) if ok(e) else "-" for r in rows[i:i + 3])
    print("| %s | %s | %s | %s%s |" % (t, name[(a, f)], cells, "%+.2f %%" % e if e is not None else "-", "" if ok(e) else " (not used)"))
