#!/usr/bin/env python3
# json_eq.py A B [KEYS...]: two `multitree sim --json` summaries equal but for the wall-clock
# keys (wall_s, cycles_per_s, peak_rss_bytes), the threads used (threads) and KEYS; prints the keys that differ with both
# values and exits 1 then (tb/cli/test_sim_scale.sh, test_het_sim.sh).
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
skip = {"wall_s", "cycles_per_s", "peak_rss_bytes", "threads", *sys.argv[3:]}
diff = sorted(k for k in set(a) | set(b) if k not in skip and a.get(k) != b.get(k))
print(" ".join("%s: %s vs %s" % (k, a.get(k), b.get(k)) for k in diff))
sys.exit(1 if diff else 0)
