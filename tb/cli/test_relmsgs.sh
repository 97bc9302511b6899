#!/usr/bin/env bash
# test_relmsgs.sh BIN: the messages of the input readers (docs/reference/formats.md, config.md,
# topologies.md): a leading UTF-8 byte-order mark is skipped by every text reader, a directory
# given for a file is refused as one, a quoted number in layout.json is named a string, bound
# and train name themselves in their errors, a hier: latency has the dims: cap (1e12 ns), and
# base = NAME falls back to the built-in configuration when no NAME.cfg is beside the file.
set -u
bin=${1:-${MT_BIN:-build/multitree}}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
accept() { # expected text on a run that exits 0, then the command's arguments
  local want=$1
  shift
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [[ $rc -eq 0 ]] && grep -qF -- "$want" <<<"$out"; then ok; else bad "$* -> rc $rc: $(head -2 <<<"$out") (want '$want')"; fi
}
bom() { printf '\xef\xbb\xbf'; cat "$@"; }

# ---- a byte-order mark is skipped by every text reader ----
printf 'nodes 2\nlink 0 1\n' | bom >"$tmp/t.topo"
accept "ring on file:$tmp/t.topo: 2 nodes" plan --topo "file:$tmp/t.topo" --algo ring --bytes 1K
printf 'base = small\nlink_lat = 3\n' | bom >"$tmp/b.cfg"
accept "config b:" sim --topo torus:2x2 --algo ring --bytes 1K --config "$tmp/b.cfg"
bom tb/train/toy.csv >"$tmp/w.csv"
accept "train: w (3 layers" train --model "$tmp/w.csv" --topo torus:4x4 --algo ring --level flow --cache none
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 2, 4 ]\nlinks-count: [ 2, 1 ]\nbandwidth: [ 200.0, 50.0 ]\nlatency: [ 50.0, 2000.0 ]\n' | bom >"$tmp/d.yml"
accept "ring on dimsfile:$tmp/d.yml: 8 nodes" plan --topo "dimsfile:$tmp/d.yml" --algo ring --bytes 1K
"$bin" plan --topo torus:2x2 --algo ring --bytes 1K --json "$tmp/s0.json" >/dev/null
bom "$tmp/s0.json" >"$tmp/s.json"
accept "check: ring on torus:2x2, 4 nodes, 4 flows: OK" check "$tmp/s.json"
"$bin" rom --topo torus:2x2 --algo ring --bytes 1K --format mif --out "$tmp/rom" >/dev/null
bom "$tmp/rom/node0.mif" >"$tmp/m" && mv "$tmp/m" "$tmp/rom/node0.mif"
bom "$tmp/rom/layout.json" >"$tmp/m" && mv "$tmp/m" "$tmp/rom/layout.json"
accept "decode: $tmp/rom: 4 nodes" decode "$tmp/rom"

# ---- a directory where a file is expected ----
mkdir "$tmp/dir"
refuse "$tmp/dir: is a directory, expected a schedule JSON file (plan --json writes one)" check "$tmp/dir"
refuse "$tmp/dir: is a directory, expected a topology file" plan --topo "file:$tmp/dir" --algo ring --bytes 1K
refuse "$tmp/dir: is a directory, expected a workload CSV file" train --model "$tmp/dir" --topo torus:4x4 --algo ring --level flow --cache none

# ---- a quoted number in layout.json ----
"$bin" rom --topo torus:2x2 --algo ring --bytes 1K --format hex --out "$tmp/rq" >/dev/null
sed -E -i 's/"depth": *([0-9]+)/"depth": "\1"/' "$tmp/rq/layout.json"
refuse "layout.json: field 'depth' is a string where an integer is expected" decode "$tmp/rq"

# ---- each command names itself ----
refuse "multitree bound: $tmp/none.cfg: cannot open" bound --topo torus:2x2 --bytes 1K --config "$tmp/none.cfg"
refuse "multitree train: $tmp/none.cfg: cannot open" train --model tb/train/toy.csv --topo torus:4x4 --algo ring --level flow --cache none --config "$tmp/none.cfg"

# ---- one latency cap for hier: and dims: ----
refuse "expected a latency in ns 0..1e+12 after ':'" plan --topo 'hier:4+3@16:500,@1.25:1000000000001' --algo ring --bytes 1K
accept "ring on hier:4+3@16:500,@1.25:1000000000000: 7 nodes" plan --topo 'hier:4+3@16:500,@1.25:1000000000000' --algo ring --bytes 1K
refuse "latency 1e+12 ns; allowed 0..1e+12" plan --topo 'dims:ring4@100:1000000000001' --algo ring --bytes 1K

# ---- base = NAME outside configs/net/ ----
mkdir "$tmp/cf"
printf 'base = small\nlink_lat = 150\n' >"$tmp/cf/my.cfg"
accept "config my:" sim --topo torus:2x2 --algo ring --bytes 1K --config "$tmp/cf/my.cfg"
printf 'base = nope\n' >"$tmp/cf/n.cfg"
refuse "base: no file $tmp/cf/nope.cfg and no built-in configuration 'nope'" sim --topo torus:2x2 --algo ring --bytes 1K --config "$tmp/cf/n.cfg"
echo "RESULT relmsgs_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
