#!/usr/bin/env bash
# test_relnum.sh BIN: every input format reads its numbers through the one strict parser
# (cmodel/util/mt_num.c, docs/reference/formats.md "Numbers"): a leading blank, a sign, hexadecimal,
# an exponent, a fraction where a whole number is wanted, more digits than fit and trailing text
# are refused with exit 2, naming the option or the file, line and field, the reason and the range.
# Each input here was read as some number before (a lenient strtoul/strtod/sscanf); the
# legal spellings next to them still work.
set -u
bin=${1:-${MT_BIN:-build/multitree}}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
accept() { # the command must exit 0
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [[ $rc -eq 0 ]]; then ok; else bad "$* -> rc $rc: $(head -2 <<<"$out") (want exit 0)"; fi
}
P=(plan --topo torus:4x4 --algo ring)
S=(sim --topo torus:4x4 --algo ring --bytes 1K)

# ---- command-line options ----
refuse "--bytes (a byte count such as 67108864 or 64M): ' -18446744073709550592': a leading blank; expected a whole number" "${P[@]}" --bytes ' -18446744073709550592'
refuse "--bytes (a byte count such as 67108864 or 64M): '+1024': a sign" "${P[@]}" --bytes '+1024'
refuse "--bytes (a byte count such as 67108864 or 64M): ' 1K': a leading blank" "${P[@]}" --bytes ' 1K'
refuse "'1e3': an exponent" "${P[@]}" --bytes 1e3
refuse "'0x400': hexadecimal" "${P[@]}" --bytes 0x400
refuse "'18446744073709551616': out of range; expected a whole number 0..18446744073709551615" "${P[@]}" --bytes 18446744073709551616
refuse "'18014398509481984': out of range; expected a whole number 0..17179869183" "${P[@]}" --bytes 18014398509481984G
refuse "--elem: '+4': a sign; expected a whole number 1..64" "${P[@]}" --bytes 1K --elem +4
refuse "--elem: ' 4': a leading blank" "${P[@]}" --bytes 1K --elem ' 4'
refuse "--local-ports: '2.0': a fraction where a whole number is wanted; expected a whole number 1..64" "${P[@]}" --bytes 1K --local-ports 2.0
refuse "--threads: '+2': a sign" "${S[@]}" --threads +2
refuse "--seed: '+5': a sign; expected a whole number 0..4294967295" "${S[@]}" --seed +5
refuse "--seed: '4294967296': out of range" "${S[@]}" --seed 4294967296
refuse "--mem-limit (a byte count such as 8G): ' 8G': a leading blank" "${S[@]}" --mem-limit ' 8G'
refuse "--chunks (chunks per collective): '0x10': hexadecimal; expected a whole number 1..65536" plan --topo torus:4x4 --algo themis --bytes 1M --chunks 0x10
refuse "--seed: '-18446744073709551615': a sign" train --model tb/train/toy.csv --topo torus:4x4 --algo ring --seed -18446744073709551615
# --bytes 0: best and bucket read 0 as "not given" and planned a default size (1024, 256 bytes)
refuse "byte count is zero" plan --topo torus:4x4 --algo best --bytes 0
refuse "byte count is zero" plan --topo mesh:4x4 --algo bucket --bytes 0
refuse "byte count is zero" sim --topo mesh:4x4 --algo best --bytes 0
accept "${P[@]}" --bytes 1KiB --elem 4 --local-ports 1
accept "${P[@]}" --bytes 0001024

# ---- --set NAME=VALUE ----
refuse "--set: link_lat: '0x10': hexadecimal; expected a whole number 1..1000000 (link latency in cycles)" "${S[@]}" --set link_lat=0x10
refuse "--set: link_lat: '1e1': an exponent" "${S[@]}" --set link_lat=1e1
refuse "--set: link_lat: ' 10': a leading blank" "${S[@]}" --set 'link_lat= 10'
refuse "--set: link_lat: '+10': a sign" "${S[@]}" --set link_lat=+10
refuse "--set: link_lat: '10.0': a fraction where a whole number is wanted" "${S[@]}" --set link_lat=10.0
refuse "--set: link_lat: '10 ': a blank inside or after the number" "${S[@]}" --set 'link_lat=10 '
refuse "--set: max_cycles: '9007199254740993': more significant digits than the setting holds" "${S[@]}" --set max_cycles=9007199254740993
refuse "--set: clock_ghz: '0x1p0': hexadecimal; expected a number 0.000001..1000" "${S[@]}" --set clock_ghz=0x1p0
refuse "--set: clock_ghz: '1e-6': an exponent (write the digits out)" "${S[@]}" --set clock_ghz=1e-6
refuse "--set: clock_ghz: 'inf': not a number" "${S[@]}" --set clock_ghz=inf
accept "${S[@]}" --set link_lat=10 --set clock_ghz=0.5 --set max_cycles=9007199254740992

# ---- configuration files ----
printf 'base = small\nlink_lat = 0x10\n' >"$tmp/hex.cfg"
refuse "hex.cfg:2: link_lat: '0x10': hexadecimal; expected a whole number 1..1000000" "${S[@]}" --config "$tmp/hex.cfg"
printf 'base = small\nclock_ghz = 1e0\n' >"$tmp/exp.cfg"
refuse "exp.cfg:2: clock_ghz: '1e0': an exponent" "${S[@]}" --config "$tmp/exp.cfg"
printf 'base = small\nnum_vcs = +2\n' >"$tmp/sign.cfg"
refuse "sign.cfg:2: num_vcs: '+2': a sign; expected a whole number 1..16" "${S[@]}" --config "$tmp/sign.cfg"
printf 'base = small\nlink_lat = 10\nclock_ghz = 0.5\n' >"$tmp/good.cfg"
accept "${S[@]}" --config "$tmp/good.cfg"

# ---- topology names ----
refuse "topology 'torus:+4x4': expected torus:XxY" plan --topo 'torus:+4x4' --algo ring --bytes 1K
refuse "topology 'torus:4x 4': expected torus:XxY" plan --topo 'torus:4x 4' --algo ring --bytes 1K
refuse "topology 'ring: 8': expected ring:N" plan --topo 'ring: 8' --algo ring --bytes 1K
refuse "topology 'fattree:+2,2': expected fattree:K,L" plan --topo 'fattree:+2,2' --algo ring --bytes 1K
refuse "topology 'bigraph:+4x2': expected bigraph:MxN" plan --topo 'bigraph:+4x2' --algo ring --bytes 1K
refuse "topology 'mesh:4x99999999999999999999': expected mesh:XxY" plan --topo 'mesh:4x99999999999999999999' --algo ring --bytes 1K
refuse "at character 6 ('e')" plan --topo 'hier:4+3@1e1,@1' --algo ring --bytes 1K
refuse "dims:ring4@1e2: dimension 1 'ring4@1e2': unexpected 'e'" plan --topo 'dims:ring4@1e2' --algo ring --bytes 1K
refuse "dims:ring+4: dimension 1 'ring+4': expected a size" plan --topo 'dims:ring+4' --algo ring --bytes 1K
accept plan --topo 'hier:4+3@16:500,@1.25:5000' --algo ring --bytes 1K

# ---- topology files ----
printf 'nodes +4\nlink 0 1\nlink 1 2\nlink 2 3\n' >"$tmp/a.topo"
refuse "a.topo:1: 'nodes': '+4': a sign; expected a whole number 0..4096" plan --topo "file:$tmp/a.topo" --algo ring --bytes 1K
printf 'nodes 4\nlink +0 1\nlink 1 2\nlink 2 3\n' >"$tmp/b.topo"
refuse "b.topo:2: link end '+0' is not a node 0..3" plan --topo "file:$tmp/b.topo" --algo ring --bytes 1K
printf 'nodes 4\nswitches 1\nlink s-0 1\nlink 0 s0\nlink 2 s0\nlink 3 s0\n' >"$tmp/c.topo"
refuse "c.topo:3: link end 's-0' is not a node 0..3 or a switch s0..s0" plan --topo "file:$tmp/c.topo" --algo ring --bytes 1K
printf 'nodes 4\nlink 0 1 +2\nlink 1 2\nlink 2 3\n' >"$tmp/d.topo"
refuse "d.topo:2: multiplicity: '+2': a sign; expected a whole number 1..1024" plan --topo "file:$tmp/d.topo" --algo ring --bytes 1K
printf 'nodes 4\nlink 0 1 2\nlink 1 2\nlink 2 3\n' >"$tmp/e.topo"
accept plan --topo "file:$tmp/e.topo" --algo ring --bytes 1K

# ---- dimensions files (YAML and JSON) ----
printf 'topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwidth: [1, 1.5e2]\nlatency: [1, 1]\n' >"$tmp/m1.yml"
refuse "m1.yml:3: key 'link-bandwidth': value 2 (a bandwidth in GB/s): '1.5e2': an exponent" plan --topo "dimsfile:$tmp/m1.yml" --algo hier --bytes 1M
printf 'topology: [Ring, Switch]\nnpus_count: [4, +2]\nbandwidth: [1, 1]\nlatency: [1, 1]\n' >"$tmp/m2.yml"
refuse "m2.yml:2: key 'units-count': value 2: '+2': a sign; expected a whole number 2..4096" plan --topo "dimsfile:$tmp/m2.yml" --algo hier --bytes 1M
printf '{"topologies-per-dim": ["Ring"], "units-count": [4.0], "link-bandwidth": [1], "link-latency": [1]}' >"$tmp/m3.json"
refuse "m3.json: key 'units-count': value 1: '4.0': a fraction where a whole number is wanted" plan --topo "dimsfile:$tmp/m3.json" --algo hier --bytes 1M
printf '{"topologies-per-dim": ["Ring"], "units-count": [4], "link-bandwidth": [1.0], "link-latency": [1]}' >"$tmp/m4.json"
accept plan --topo "dimsfile:$tmp/m4.json" --algo hier --bytes 1M

# ---- workload and compute CSVs ----
hdr="Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Kind, Params, Gradient bytes,"
T=(train --topo torus:4x4 --algo ring --level flow --cache none)
printf '%s\nl1,\v4,4,1,1,1,1,1,weights,1,4,\n' "$hdr" >"$tmp/w1.csv"
refuse "w1.csv:2: field 'IFMAP Height': '\\x0b4': a leading blank; expected a whole number 1..16777216" "${T[@]}" --model "$tmp/w1.csv"
printf '%s\nl1,4,4,1,1,1,1,1,weights,1,0x4,\n' "$hdr" >"$tmp/w2.csv"
refuse "w2.csv:2: field 'Gradient bytes': '0x4': hexadecimal" "${T[@]}" --model "$tmp/w2.csv"
printf '%s\nl1,4,4,1,1,1,1,1,weights,1e0,4,\n' "$hdr" >"$tmp/w3.csv"
refuse "w3.csv:2: field 'Params': '1e0': an exponent" "${T[@]}" --model "$tmp/w3.csv"
printf '%s\nl1, 4, 4, 1, 1, 1, 1, 1, weights, 1, 4,\n' "$hdr" >"$tmp/w4.csv"
accept "${T[@]}" --model "$tmp/w4.csv"
printf 'Layer name, Forward, Backward input, Backward weight,\nconv1,-18446744073709551615,1,1,\n' >"$tmp/c1.csv"
refuse "c1.csv:2: layer 'conv1': field 'Forward' (cycles): '-18446744073709551615': a sign" "${T[@]}" --model tb/train/toy.csv --cycles "$tmp/c1.csv"
printf 'Layer name, Forward, Backward input, Backward weight,\nconv1,5,+1,1,\n' >"$tmp/c2.csv"
refuse "c2.csv:2: layer 'conv1': field 'Backward input' (cycles): '+1': a sign" "${T[@]}" --model tb/train/toy.csv --cycles "$tmp/c2.csv"
printf 'Layer name, Forward, Backward input, Backward weight,\nconv1,5,1,1.5,\n' >"$tmp/c3.csv"
refuse "c3.csv:2: layer 'conv1': field 'Backward weight' (cycles): '1.5': a fraction" "${T[@]}" --model tb/train/toy.csv --cycles "$tmp/c3.csv"

# ---- ROM C headers (decode) ----
if "$bin" rom --topo ring:4 --algo ring --bytes 1K --format h --out "$tmp/rom" >/dev/null 2>&1; then
  ok
  cp -r "$tmp/rom" "$tmp/rw"
  sed -i 's/_WIDTH \([0-9]\)/_WIDTH +\1/' "$tmp/rw/node0.h"
  refuse "node0.h:4: MT_ROM_NODE0_WIDTH: '+40': a sign; expected a whole number 0..2147483647" decode "$tmp/rw"
  cp -r "$tmp/rom" "$tmp/rn"
  sed -i 's/MT_ROM_NODE0_DEPTH/MT_ROM_NODE+0_DEPTH/' "$tmp/rn/node0.h"
  refuse "node0.h:5: '#define MT_ROM_NODE+0_DEPTH 8': expected #include or #define MT_ROM_NODE<i>_WIDTH / _DEPTH" decode "$tmp/rn"
  accept decode "$tmp/rom"
else bad "rom --format h failed"; fi

# ---- JSON inputs (schedule JSON for check, layout.json for decode): JSON's own number syntax,
# an integer field refuses a real, an exponent form and a string ----
if "$bin" plan --topo torus:4x4 --algo ring --bytes 1K --json "$tmp/s.json" >/dev/null 2>&1; then
  for v in 1024.0 1.024e3 '"1024"'; do
    sed "0,/\"bytes\":1024/s//\"bytes\":$v/" "$tmp/s.json" >"$tmp/sx.json"
    refuse "sx.json: \$.bytes: expected an integer" check "$tmp/sx.json"
  done
  sed '0,/"bytes":1024/s//"bytes":18446744073709551616/' "$tmp/s.json" >"$tmp/sx.json"
  refuse "too big integer" check "$tmp/sx.json"
  accept check "$tmp/s.json"
else bad "plan --json failed"; fi
if [[ -d $tmp/rom ]]; then
  cp -r "$tmp/rom" "$tmp/rl"
  sed -i 's/"depth": \([0-9]*\)/"depth": \1.0/' "$tmp/rl/layout.json"
  refuse "layout.json: field 'depth' is a real number where an integer is expected" decode "$tmp/rl"
fi

# ---- the train cache: a count with a sign is a damaged line (a miss), never read as a number ----
"$bin" train --model tb/train/toy.csv --topo torus:4x4 --algo ring --level flow --cache "$tmp/k.txt" >/dev/null 2>&1
if [[ -s $tmp/k.txt ]]; then
  awk '{ $6 = "+" $6; print }' "$tmp/k.txt" >"$tmp/k2.txt"
  out=$("$bin" train --model tb/train/toy.csv --topo torus:4x4 --algo ring --level flow --cache "$tmp/k2.txt" 2>&1)
  grep -qF "damaged cache line ignored: a field is not a number of the range 0..2^64-1" <<<"$out" && grep -qF "1 all-reduces simulated now" <<<"$out" && ok ||
    bad "cache count '+N': $(head -3 <<<"$out")"
else bad "train --cache wrote no cache"; fi

# ---- the fault-injection switch of the bound checks ----
out=$(MT_BOUND_SCALE=1e6 "$bin" "${S[@]}" 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -qF "MT_BOUND_SCALE: '1e6': an exponent" <<<"$out" && ok || bad "MT_BOUND_SCALE=1e6: rc $rc: $out"

echo "RESULT relnum_cli pass=$pass fail=$fail"
((fail == 0))
