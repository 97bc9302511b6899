#!/usr/bin/env bash
# test_bucket.sh BIN: the bucket planner and the bounds end to end (docs/reference/planner.md "bucket",
# docs/reference/bounds.md): `bound` prints the hand-worked values (torus:4x4 and mesh:4x4 at
# 1 MiB, 16 B/cycle); check proves bucket on tori and meshes; the cycle model (config paper,
# messages) runs torus:4x4 at 1 MiB with a correct result within 94% of the lower bound (the
# aggregate bound; measured 95.7%, 32,104 cycles against 30,720) and faster than MultiTree there; a plan whose flow sizes were
# edited is refused by check; --algo best picks as the cycle model ranks them; bad inputs are
# refused with exit 2 and the reason.
set -u
bin=${1:-build/multitree}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# edited TOPO BYTES F: a plan whose flows F and F+1 trade 4 bytes (still tiling the buffer)
# breaks the part rule: the plan passes check, the edited one is refused with exit 1
edited() {
  "$bin" plan --topo "$1" --algo bucket --bytes "$2" --json "$tmp/p.json" >/dev/null 2>&1
  python3 - "$tmp/p.json" "$tmp/q.json" "$3" <<'PY'
import json, sys
j, f = json.load(open(sys.argv[1])), int(sys.argv[3])
j["flows"][f]["size"] += 4
j["flows"][f + 1]["addr"] += 4
j["flows"][f + 1]["size"] -= 4
json.dump(j, open(sys.argv[2], "w"))
PY
  if "$bin" check "$tmp/p.json" >/dev/null 2>&1; then ok; else bad "check of the unedited plan $1 $2 failed"; fi
  local out rc
  out=$("$bin" check "$tmp/q.json" 2>&1)
  rc=$?
  if [[ $rc -eq 1 ]] && grep -q "bucket's rule" <<<"$out"; then ok; else bad "edited flow sizes $1 $2: rc $rc: $(head -3 <<<"$out")"; fi
}
out=$("$bin" bound --topo torus:4x4 --bytes 1M --config paper --json "$tmp/b.json" 2>&1)
# torus:4x4: S/(4 B) = 16384 per node and cut, 2*15*S/(64 B) = 30720 aggregate (binding)
if grep -q "per-node bound:  16384.0 cycles" <<<"$out" && grep -q "cut bound:       16384.0 cycles" <<<"$out" &&
  grep -q "lower bound:     30720.0 cycles (34.13 GB/s), the aggregate bound" <<<"$out"; then ok; else bad "bound torus:4x4: $out"; fi
# mesh:4x4: the corner S/(2 B) = 32768, aggregate 2*15*S/(48 B) = 40960 (binding)
out=$("$bin" bound --topo mesh:4x4 --bytes 1M 2>&1)
if grep -q "per-node bound:  32768.0 cycles (32.00 GB/s)" <<<"$out" && grep -q "lower bound:     40960.0 cycles (25.60 GB/s), the aggregate bound" <<<"$out"; then ok; else bad "bound mesh:4x4: $out"; fi
if python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['per_node_bound_cycles']==16384 and j['bound_cycles']==30720 and j['binding_bound']=='aggregate' else 1)" "$tmp/b.json"; then ok; else bad "bound --json: $(cat "$tmp/b.json")"; fi
for t in torus:4x4 torus:4x8 mesh:4x4 mesh:3x5 torus:3x3x3 ring:6; do
  out=$("$bin" check --topo "$t" --algo bucket --bytes 1M 2>&1)
  if grep -q ": OK" <<<"$out"; then ok; else bad "check $t bucket: $(head -3 <<<"$out")"; fi
done
"$bin" sim --config paper --topo torus:4x4 --algo bucket --bytes 1M --data sample --json "$tmp/s.json" >"$tmp/s.out" 2>&1
"$bin" sim --config paper --topo torus:4x4 --algo multitree --bytes 1M --data sample --json "$tmp/m.json" >"$tmp/m.out" 2>&1
if python3 - "$tmp/s.json" "$tmp/m.json" <<'PY'; then ok; else bad "sim torus:4x4 bucket 1M: $(cat "$tmp/s.out")"; fi
import json, sys
s, m = (json.load(open(p)) for p in sys.argv[1:3])
print("bucket", s["cycles"], "cycles, lower bound fraction", round(s["bound_fraction"], 4), s["binding_bound"], "; multitree", m["cycles"])
sys.exit(0 if s["correct"] and s["bound_fraction"] >= 0.94 and s["binding_bound"] == "aggregate" and s["cycles"] < m["cycles"] else 1)
PY
# the pipelined chunks on a non-square torus (docs/reference/planner.md "Pipelined chunks"): torus:4x8 at
# 1 MiB, 2 chunks of the X-first parts (26 steps), correct and within 79 % of the lower
# bound (aggregate; with the byte issue order 81.8 %, 38,794 cycles against 31,744; in flow
# order it would be 74.2 %, 42,807; with one chunk 62.2 %, 51,014)
"$bin" sim --config paper --topo torus:4x8 --algo bucket --bytes 1M --data sample --json "$tmp/n.json" >"$tmp/n.out" 2>&1
if python3 - "$tmp/n.json" <<'PY'; then ok; else bad "sim torus:4x8 bucket 1M: $(cat "$tmp/n.out")"; fi
import json, sys
s = json.load(open(sys.argv[1]))
print("torus:4x8 bucket", s["cycles"], "cycles, lower bound fraction", round(s["bound_fraction"], 4))
sys.exit(0 if s["correct"] and s["bound_fraction"] >= 0.79 and s["steps"] == 26 else 1)
PY
# a pipelined plan (torus:4x8, 8 MiB, 20 chunks, 640 flows) with one chunk's flow edited
edited torus:4x8 8M 5
# the non-square tori at the flow level (docs/reference/planner.md "Per-node issue order",
# "Translated all-gathers"): torus:4x8 and torus:4x6 at 8 MiB within 93 % of the lower
# bound (aggregate) (94.7 % in 41 steps and 95.6 % in 31; in flow order with mirrored
# all-gathers 78.2 % and 79.8 %)
for c in "torus:4x8 41" "torus:4x6 31"; do
  read -r t st <<<"$c"
  "$bin" sim --level flow --config paper --topo "$t" --algo bucket --bytes 8M --json "$tmp/f.json" >"$tmp/f.out" 2>&1
  if python3 - "$tmp/f.json" "$st" <<'PY'; then ok; else bad "flow level $t bucket 8M: $(cat "$tmp/f.out")"; fi
import json, sys
s = json.load(open(sys.argv[1]))
print("flow level bucket", s["steps"], "steps, lower bound fraction", round(s["lower_bound_fraction"], 4))
sys.exit(0 if s["lower_bound_fraction"] >= 0.93 and s["steps"] == int(sys.argv[2]) else 1)
PY
done
# --algo best: MultiTree at 32 KiB on the tori, bucket at 1 MiB on the square ones and on the
# meshes; on the non-square tori bucket from 8 MiB on 4x8 and from 1 MiB on 4x6 (flow level
# 94.7 % against 85.5 %, 94.6 % against 78.4 %), MultiTree at 1 MiB on 4x8 (83.4 % against
# 81.4 %: the one close pair it gets wrong) and off grids
for c in "torus:4x4 32K multitree" "torus:4x4 1M bucket" "torus:8x8 32K multitree" "torus:4x8 1M multitree" "torus:4x8 8M bucket" "torus:4x6 1M bucket" "torus:4x6 32K multitree" "mesh:8x8 32K bucket" "fattree:4,2 1M multitree"; do
  read -r t sz want <<<"$c"
  out=$("$bin" check --topo "$t" --algo best --bytes "$sz" 2>&1 | head -1)
  if grep -q "^check: $want on $t.*: OK" <<<"$out"; then ok; else bad "best $t $sz: $out (want $want)"; fi
done
edited mesh:4x4 64K 0
refuse "bucket needs a torus or a mesh" plan --topo fattree:4,2 --algo bucket --bytes 1M
refuse "fewer than its 16 flows" plan --topo torus:4x4 --algo bucket --bytes 128
refuse "--topo and --bytes are required" bound --topo torus:4x4
refuse "unknown" bound --topo hypercube:4 --bytes 1M
echo "RESULT t-bucket-cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
