#!/usr/bin/env bash
# test_reldup.sh BIN: a directive or key that may appear once per file is refused, naming both
# lines, when it appears twice (docs/reference/formats.md, config.md): `nodes`/`switches` in a
# topology file, a key or `base` in a configuration file (a key overriding its base is legal),
# a layer name in a workload CSV.
set -u
bin=${1:-${MT_BIN:-build/multitree}}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan() { refuse "$1" plan --topo "file:$2" --algo ring --bytes 1K; }

# ---- topology file ----
printf 'nodes 2\n# more\nnodes 3\nlink 0 1\nlink 1 2\n' >"$tmp/n.topo"
plan "$tmp/n.topo:3: key 'nodes' set again (first set on line 1)" "$tmp/n.topo"
printf 'nodes 3\nswitches 1\nswitches 1\nlink 0 s0\nlink 1 s0\nlink 2 s0\n' >"$tmp/s.topo"
plan "$tmp/s.topo:3: key 'switches' set again (first set on line 2)" "$tmp/s.topo"
printf 'nodes 2\nlink 0 1\nlink 1 0\n' >"$tmp/l.topo"
plan "$tmp/l.topo:3: link 1-0 given twice (use the multiplicity field for parallel links)" "$tmp/l.topo"

# ---- configuration files: once per file; overriding the base is legal ----
cp configs/net/small.cfg configs/net/paper.cfg "$tmp/"
sim() { refuse "$1" sim --topo torus:2x2 --algo ring --bytes 1K --config "$2"; }
printf 'base = small\nlink_lat = 3\n\nlink_lat = 4\n' >"$tmp/k.cfg"
sim "$tmp/k.cfg:4: key 'link_lat' set again (first set on line 2)" "$tmp/k.cfg"
printf 'base = small\nbase = paper\n' >"$tmp/b.cfg"
sim "$tmp/b.cfg:2: key 'base' set again (first set on line 1)" "$tmp/b.cfg"
printf 'base = small\nlink_lat = 3\n' >"$tmp/mid.cfg"
printf 'base = mid\nlink_lat = 5\n' >"$tmp/top.cfg"
out=$("$bin" sim --topo torus:2x2 --algo ring --bytes 1K --config "$tmp/top.cfg" 2>&1)
if [[ $? -eq 0 ]]; then ok; else bad "a key overriding its base: $(head -2 <<<"$out")"; fi
printf 'base = small\nlink_lat = 3\nlink_lat = 3\n' >"$tmp/mid2.cfg"
printf 'base = mid2\n' >"$tmp/top2.cfg"
sim "$tmp/mid2.cfg:3: key 'link_lat' set again (first set on line 2)" "$tmp/top2.cfg"
cp configs/router/min.cfg "$tmp/r.cfg" && echo 'k0 = 3' >>"$tmp/r.cfg"
line=$(grep -n '^k0' "$tmp/r.cfg" | head -1 | cut -d: -f1)
refuse "$tmp/r.cfg:$(wc -l <"$tmp/r.cfg"): key 'k0' set again (first set on line $line)" shape --check "$tmp/r.cfg"

# ---- workload CSV: layer names are unique ----
{ cat tb/train/toy.csv; sed -n 2p tb/train/toy.csv; } >"$tmp/w.csv"
n=$(wc -l <"$tmp/w.csv")
name=$(sed -n '2s/,.*//p' tb/train/toy.csv)
refuse "$tmp/w.csv:$n: field 'Layer name': '$name' set again (first set on line 2)" train --model "$tmp/w.csv" --topo torus:4x4 --algo ring --level flow --cache none

echo "RESULT reldup pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
