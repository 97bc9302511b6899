#!/usr/bin/env bash
# test_relinput.sh BIN: numbers that would wrap or change units are refused with exit 2 and the
# limit named (docs/reference/training.md "Limits", topologies.md, flexreduce.md, themis.md):
# workload rows whose sizes multiply or sum past the limits, compute tables and iterations
# whose cycles would wrap, hier:/dims: specs with an empty level or a bandwidth on some levels
# only, and chunk counts whose steps cannot fit the 16-bit step field (refused within 2 s,
# before any scheduling).
set -u
bin=${1:-${MT_BIN:-build/multitree}}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hdr="Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Kind, Params, Gradient bytes,"
train=(train --topo torus:4x4 --algo ring --level flow --cache none)

# ---- workloads: products and sums of sizes ----
printf '%s\nbig,16777216,16777216,16777216,16777216,16777216,16777216,16777216,weights,0,0,\n' "$hdr" >"$tmp/big.csv"
refuse "big.csv:2: fields 'IFMAP Height'..'Strides': the layer's multiply-accumulates OH*OW*NF*FH*FW*C" "${train[@]}" --model "$tmp/big.csv"
refuse "exceed 2^48: allowed at most 281474976710656" "${train[@]}" --model "$tmp/big.csv"
# a 2^24 x 2^24 window of 2 channels, one output pixel, one filter: 2^49 multiply-accumulates
printf '%s\nwide,16777216,16777216,16777216,16777216,2,1,1,weights,0,0,\n' "$hdr" >"$tmp/wide.csv"
refuse "wide.csv:2: fields 'IFMAP Height'..'Strides'" "${train[@]}" --model "$tmp/wide.csv"
# two embedding tables of 2^40 parameters each: the sum passes 2^40
printf '%s\ne1,1,1,1,1,1,1,1,embed,1099511627776,4398046511104,\ne2,1,1,1,1,1,1,1,embed,1099511627776,4398046511104,\n' "$hdr" >"$tmp/sum.csv"
refuse "sum.csv:3: field 'Params': the rows' sum reaches 2199023255552: allowed at most 2^40" "${train[@]}" --model "$tmp/sum.csv"
# the compute table: a cycle count of 2^63, and 100 layers of 2^48 (one iteration past 2^56)
printf 'Layer name, Forward, Backward input, Backward weight,\nconv1,9223372036854775808,1,1,\n' >"$tmp/c63.csv"
refuse "c63.csv:2: layer 'conv1': field 'Forward' (cycles): '9223372036854775808': out of range; expected a whole number 0..281474976710656" "${train[@]}" --model tb/train/toy.csv --cycles "$tmp/c63.csv"
{
  echo "$hdr"
  for i in $(seq 100); do echo "l$i,1,1,1,1,1,1,1,embed,1,4,"; done
} >"$tmp/many.csv"
{
  echo "Layer name, Forward, Backward input, Backward weight,"
  for i in $(seq 100); do echo "l$i,281474976710656,281474976710656,281474976710656,"; done
} >"$tmp/manyc.csv"
refuse "the compute of one iteration exceeds 2^56 cycles: allowed at most 72057594037927936" "${train[@]}" --model "$tmp/many.csv" --cycles "$tmp/manyc.csv"

# ---- hier: and dims: specs: an empty level, a bandwidth on some levels only ----
p=(plan --algo ring --bytes 1M --topo)
refuse "topology 'hier:4+3@16:500,@1.25:5000,': at the end: level 2 is empty (a ',' with nothing after it)" "${p[@]}" "hier:4+3@16:500,@1.25:5000,"
refuse "at character 5 (','): level 1 is empty" "${p[@]}" "hier:4+3,,2"
refuse "level 1 has '@1' but level 0 has no bandwidth: allowed '@GBPS[:LATns]' on every level (time in ns) or on none (cycles)" "${p[@]}" "hier:4+3,@1"
refuse "level 0 has '@16' but level 1 has no bandwidth" "${p[@]}" "hier:4+3@16:500,2"
refuse "level 0 has '@16' but level 2 has no bandwidth" "${p[@]}" "hier:2+2+2+2@16,2+2@4,2"
refuse "dims:ring4@100x2,sw4@50x1,: dimension 3 is empty" "${p[@]}" "dims:ring4@100x2,sw4@50x1,"
refuse "dims:ring4@100x2,,sw4@50x1: dimension 2 is empty" "${p[@]}" "dims:ring4@100x2,,sw4@50x1"
refuse "dimension 1 (ring4) has 100 GB/s but dimension 2 (sw4) has no bandwidth: allowed a bandwidth on every dimension (time in ns) or on none (cycles)" "${p[@]}" "dims:ring4@100x2,sw4"
refuse "dimension 2 (sw4) has 50 GB/s but dimension 1 (ring4) has no bandwidth" "${p[@]}" "dims:ring4:20ns,sw4@50x1"
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 4, 4 ]\nbandwidth: [ 100.0, 0 ]\nlatency: [ 20.0, 700.0 ]\n' >"$tmp/mix.yml"
refuse "dimension 1 (ring4) has 100 GB/s but dimension 2 (sw4) has no bandwidth" "${p[@]}" "dimsfile:$tmp/mix.yml"
# the rule keeps the legal forms: every level rated, or none
for t in "hier:4+3,2" "hier:4+3@16:500,@1.25:5000" "dims:ring4,sw4" "dims:ring4@100x2,sw4@50x1"; do
  if "$bin" "${p[@]}" "$t" >/dev/null 2>&1; then ok; else bad "plan --topo $t: refused"; fi
done

# ---- chunk counts whose steps cannot fit 16 bits: refused before scheduling, within 2 s ----
fast() { # expected message, then the command's arguments; exit 2 within 2 s
  local want=$1 s0 s1
  shift
  s0=$(date +%s.%N)
  out=$(timeout 2 "$bin" "$@" 2>&1)
  rc=$?
  s1=$(date +%s.%N)
  if [[ $rc -eq 2 ]] && grep -qF -- "$want" <<<"$out"; then ok; else bad "$* -> rc $rc after $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", b - a }') s: $(head -2 <<<"$out") (want '$want')"; fi
}
fast "hier on torus:4x4 with 65536 chunks needs at least 393216 steps" plan --topo torus:4x4 --algo hier --chunks 65536 --bytes 4294967292
fast "the 16-bit step field holds 65535, so more than 10922 chunks cannot fit here" plan --topo torus:4x4 --algo hier --chunks 65536 --bytes 4294967292
fast "themis on torus:4x4x4 with 65536 chunks needs at least 393216 steps" check --topo torus:4x4x4 --algo themis --chunks 65536 --bytes 4294967296
fast "themis on themis:3d-fc-ring-sw with 4096 chunks needs at least 122880 steps" sizes --algo themis --chunks 4096
fast "hier on themis:3d-fc-ring-sw with 4096 chunks needs at least 122880 steps" sizes --algo hier --chunks 4096
echo "RESULT relinput_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
