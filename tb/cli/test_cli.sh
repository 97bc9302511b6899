#!/usr/bin/env bash
# test_cli.sh BIN: the multitree command line: exit codes (0 ok, 1 violation, 2 bad input),
# error messages naming the problem, tampered schedules and images caught.
set -u
BIN=${1:-build/multitree}
D=$(dirname "$0")/../cmodel/data
T=build/test_cli; rm -rf "$T"; mkdir -p "$T"
pass=0; fail=0
# expect RC NEEDLE CMD...: exit code RC and output (stdout+stderr) containing NEEDLE
expect() {
  local rc=$1 needle=$2; shift 2
  local out; out=$("$@" 2>&1); local got=$?
  if [[ $got -eq $rc && $out == *"$needle"* ]]; then pass=$((pass+1))
  else fail=$((fail+1)); echo "FAIL: $* -> rc=$got (want $rc), output lacks '$needle':"; echo "$out" | head -5; fi
}
expect 0 "multitree plan" "$BIN" plan --help
expect 2 "unknown command" "$BIN" frobnicate
expect 2 "required" "$BIN" plan --topo torus:4x4 --algo multitree
expect 2 "unknown algorithm" "$BIN" plan --topo torus:4x4 --algo bogus --bytes 1M
expect 2 "zero" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 0
expect 2 "a byte count such as 67108864 or 64M" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 12q
expect 2 "unknown format" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format xyz --out "$T/x"
expect 2 "bad_syntax.topo:4:" "$BIN" plan --topo "file:$D/bad_syntax.topo" --algo multitree --bytes 1M
# a NUL byte or an over-long line in a topology file is named as such; a directory is refused as one
printf 'nodes 4\nlink 0 1\000 junk\nlink 1 2\n' >"$T/nul.topo"
expect 2 "nul.topo:2: NUL byte at column 9" "$BIN" plan --topo "file:$T/nul.topo" --algo multitree --bytes 1M
{ printf 'nodes 2 '; printf '%02000d\n' 0; } >"$T/long.topo"
expect 2 "long.topo:1: line longer than 1022 characters" "$BIN" plan --topo "file:$T/long.topo" --algo multitree --bytes 1M
expect 2 "is a directory, expected a topology file" "$BIN" plan --topo "file:$T" --algo multitree --bytes 1M
expect 2 "disconnected" "$BIN" plan --topo "file:$D/bad_disconnected.topo" --algo multitree --bytes 1M
expect 2 "4096" "$BIN" plan --topo torus:128x64 --algo multitree --bytes 1M
expect 2 "at least 2" "$BIN" plan --topo ring:1 --algo multitree --bytes 1M
expect 2 "cannot open" "$BIN" check "$T/none.json"
printf '{"format": "multitree-schedule/1",\n  "algorithm": }\n' >"$T/broken.json"
expect 2 "broken.json:2:" "$BIN" check "$T/broken.json"
# plan -> JSON -> check
expect 0 "planned in" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 1M --json "$T/t44.json" --dot "$T/t44.dot"
expect 0 "OK" "$BIN" check "$T/t44.json"
expect 0 "subgraph cluster_15" cat "$T/t44.dot"
# a tampered schedule: node 0's first entry now names the wrong parent
sed '0,/"parent":1,/s//"parent":2,/' "$T/t44.json" >"$T/t44_bad.json"
if cmp -s "$T/t44.json" "$T/t44_bad.json"; then fail=$((fail+1)); echo "FAIL: tampering did not change the file"; fi
expect 1 "violation" "$BIN" check "$T/t44_bad.json"
# the file is read a piece at a time (cmodel/table/mt_json_split.c): members in any order and
# any layout read the same (python's json module rewrites it: sorted keys, so "nodes" comes
# before "steps" and "topology", one value per line); syntax errors inside the big arrays
# are reported with their line; a repeated member counts once, the last one (as jansson)
"$BIN" check "$T/t44.json" >"$T/t44.chk" 2>&1
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=1, sort_keys=True)' "$T/t44.json" "$T/t44_pretty.json"
if "$BIN" check "$T/t44_pretty.json" >"$T/t44p.chk" 2>&1 && cmp -s "$T/t44.chk" "$T/t44p.chk"; then pass=$((pass+1))
else fail=$((fail+1)); echo "FAIL: check of the reordered, indented schedule differs: $(diff "$T/t44.chk" "$T/t44p.chk" | head -3)"; fi
# a comma dropped between two nodes, and one between two transfers: the line of the next element
for arr in nodes transfers; do
  ln=$(python3 - "$T/t44_pretty.json" "$T/t44_nc_$arr.json" "$arr" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index(' "%s": [' % sys.argv[3])
i = next(k for k in range(start + 1, len(lines)) if lines[k] == '  },')  # the first element's end
lines[i] = '  }'
open(sys.argv[2], "w").write("\n".join(lines))
print(i + 2)  # 1-based line of the next element's "{"
PY
)
  expect 2 "t44_nc_$arr.json:$ln: invalid JSON: ',' or ']' expected" "$BIN" check "$T/t44_nc_$arr.json"
done
python3 - "$T/t44_pretty.json" "$T/t44_badval.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"addr": ', t.index(' "nodes": ['))
open(sys.argv[2], "w").write(t[:i] + '"addr": 01' + t[t.index(",", i):])
PY
expect 2 "t44_badval.json:" "$BIN" check "$T/t44_badval.json"
printf '{"format": "multitree-schedule/1", "nodes": [1, 2' >"$T/trunc.json"
expect 2 "trunc.json:1: invalid JSON: unexpected end of file" "$BIN" check "$T/trunc.json"
printf '[1, 2]\n' >"$T/arr.json"
expect 2 "arr.json:1: invalid JSON: the top level is not an object" "$BIN" check "$T/arr.json"
{ head -c -1 "$T/t44.json"; printf ', "nodes": []}'; } >"$T/t44_dup.json"
expect 2 '"nodes": expected an array of 16 nodes' "$BIN" check "$T/t44_dup.json"
{ cat "$T/t44.json"; printf ' x'; } >"$T/t44_trail.json"
expect 2 "invalid JSON: end of file expected after the top-level object" "$BIN" check "$T/t44_trail.json"
# ROM images decode back to the same tables; a flipped bit is caught
expect 0 "images of" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format hex --out "$T/rom"
expect 0 "identical" "$BIN" decode "$T/rom" --compare "$T/t44.json"
sed -i '3s/^\(.\{20\}\)./\1f/' "$T/rom/node5.hex"
expect 1 "DIFFER" "$BIN" decode "$T/rom" --compare "$T/t44.json"
expect 0 "compact layout" "$BIN" rom --topo mesh:3x5 --algo multitree --bytes 60000 --format coe --compact --out "$T/romc"
expect 0 "identical" "$BIN" decode "$T/romc" --topo mesh:3x5 --algo multitree --bytes 60000
# layout.json fields that do not fit its topology are refused, never decoded (issue #11: a compact
# layout naming a smaller topology overflowed the node look-up; ports -1 shifted by 64)
expect 0 "images of" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format hex --compact --out "$T/romk"
# (the whole topology object: a spec that disagrees with its own links is refused earlier)
python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["topology"]={"spec":"ring:2","kind":"torus","dims":[2],"nodes":2,"switches":0,"links":[[0,1,1],[1,0,1]]}; json.dump(d,open(p,"w"))' "$T/romk/layout.json"
expect 2 "field 'nodes' does not fit topology ring:2" "$BIN" decode "$T/romk"
expect 0 "images of" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format hex --out "$T/romp"
sed -i 's/"ports": *4/"ports":-1/' "$T/romp/layout.json"
expect 2 "field 'ports' does not fit" "$BIN" decode "$T/romp"
# a summary that cannot be written, and NI parameters out of range, say what and what is allowed
expect 2 "/dev/full: write failed" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --json /dev/full
expect 2 "network interface: num_vcs (NumVcs)=16: must be 1..8" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --set num_vcs=16
# the hardware's checks name the key the user typed as well as the RTL parameter
expect 2 "router: num_vcs (NumVcs)=9: must be even" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --set num_vcs=9
expect 2 "ni_mem_ports=3: 1, L+E=12 or L+2E=20" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --set ni_mem_ports=3
# a run whose gradient buffers do not fit is refused up front with the numbers (issue #11, item 9)
# 16 x (1 MiB + 4 B) of memories + the reference's range, 16 x 64 Ki words: 20 MiB (docs/reference/network.md "Memory")
expect 2 "need about 20.0 MiB for the gradient buffers" "$BIN" sim --topo torus:4x4 --algo multitree --bytes 1M --mem-limit 10M
expect 0 "result not checked (--data none)" "$BIN" sim --topo torus:4x4 --algo multitree --bytes 1M --mem-limit 10M --data none
expect 0 "result correct" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --mem-limit 1M
# stray operands are refused where no command takes one; sizes --bytes 0 fails before printing
expect 2 "unexpected argument 'extra'" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 1M extra
expect 2 "unexpected argument 'x'" "$BIN" sizes x
expect 2 "at least one 4-byte element" "$BIN" sizes --bytes 0
expect 2 "--topo given twice ('torus:4x4' and 'mesh:2x2')" "$BIN" plan --topo torus:4x4 --topo mesh:2x2 --algo multitree --bytes 1M
expect 0 "result correct" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --set link_lat=3 --set num_vcs=4
[[ -z $("$BIN" sizes --bytes 0 2>/dev/null) ]] && { echo "ok   sizes --bytes 0 prints no table"; pass=$((pass+1)); } || { echo "FAIL sizes --bytes 0 printed a table"; fail=$((fail+1)); }
expect 2 "one-hop" "$BIN" rom --topo mesh:3x5 --algo ring --bytes 60000 --format hex --compact --out "$T/romr"
# images in a hardware's layout and depth (--fit configs/ni/NAME.cfg) as ecpbram takes them (bram)
FIT=$(dirname "$0")/../../configs/ni/fpga.cfg
expect 0 "4 images of 512 words x 60 bits" "$BIN" rom --topo torus:2x2 --algo multitree --bytes 4K --format bram --fit "$FIT" --out "$T/romfit"
expect 0 "identical" "$BIN" decode "$T/romfit" --topo torus:2x2 --algo multitree --bytes 4K --local-ports 3
expect 2 "needs AddrW=14, the hardware layout has AddrW=13" "$BIN" rom --topo torus:2x2 --algo bucket --bytes 16K --format bram --fit "$FIT" --out "$T/romfit2"
expect 2 "drop --compact" "$BIN" rom --topo torus:2x2 --algo multitree --bytes 4K --format bram --compact --fit "$FIT" --out "$T/romfit3"
printf 'tbl_depth = 512\n' >"$T/nolayout.cfg"
expect 2 "no flow_w" "$BIN" rom --topo torus:2x2 --algo multitree --bytes 4K --format bram --fit "$T/nolayout.cfg" --out "$T/romfit4"
printf 'base = fpga\ntbl_depth = 4\n' >"$T/cfg_shallow.cfg"; cp "$FIT" "$T/fpga.cfg"
expect 2 "the tables need 7 words" "$BIN" rom --topo torus:2x2 --algo multitree --bytes 4K --format bram --fit "$T/cfg_shallow.cfg" --out "$T/romfit5"
sed -i '1s/^/\/\/ a comment\n/' "$T/romfit/node1.bram"
expect 2 "node1.bram:1: unexpected '//'" "$BIN" decode "$T/romfit"
expect 0 "| 1024 |" "$BIN" sizes
# --trace: mesh 2x2 MultiTree has 4 trees of 3 edges, each used once to reduce and once
# to gather: 24 messages sent and finished, 12 reduced and 12 gathered
if "$BIN" sim --topo mesh:2x2 --algo multitree --bytes 1K --trace "$T/trace.csv" >/dev/null 2>&1; then
  got=$(awk -F, 'NR==1 {h=$0} NR>1 {n[$3]++} END {printf "%s|%d %d %d %d %d", h, n["send"], n["sent"], n["reduce"], n["gather"], n["received"]}' "$T/trace.csv")
  if [[ $got == "cycle,node,event,unit,flow,step,peer,bytes|24 24 12 12 24" ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: trace counts: $got"; fi
else fail=$((fail+1)); echo "FAIL: sim --trace"; fi
expect 2 "--trace" "$BIN" sim --topo mesh:2x2 --algo multitree --bytes 1K --trace /nonexistent/dir/t.csv
# a watchdog stop: error exit and the deadlock dump, a line per node (5). A real deadlock
# (dbtree on mesh:5 with packets, soak seed 35 run 8157, docs/results/reliability.md) with the
# NI stager off (ni_stage_after=0)
WDCASE=(sim --topo mesh:5 --algo dbtree --bytes 9680 --flow packet --config paper)
"$BIN" "${WDCASE[@]}" --set ni_stage_after=0 >"$T/wd.out" 2>&1; rc=$?
got="$rc $(grep -c '^node [0-9]*: NI ' "$T/wd.out") $(grep -c 'what the network holds' "$T/wd.out")"
if [[ $got == "1 5 1" ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: watchdog dump: rc, node lines, header = $got"; fi
# the same deadlock with the stager (the default, ni_stage_after=1000, and a short T):
# not-due units staged out, replayed when due, correct sums (docs/reference/ni.md "Staging")
# the stager with T = 1 (make soak seed 2 runs 419 and 439: a unit merged into a staged range
# while that range is offered would make the replay stream more flits than its head
# announced, error 9), the dbtree mesh:7 deadlock (seed 2 run 101: watchdog without the
# stager, correct with the default), seed 1 run 848 with T = 1 (a chained packet waiting in
# BUSY for a staged predecessor would deadlock) and run 977 with the default (a stager that
# turned off after each due unit would pay T per jam and stop on the watchdog)
for c in "sim --topo mesh:6x3 --algo dbtree --bytes 5040 --dtype fp32 --seed 1408379391 --flow packet --config small --set num_vcs=4 --set vc_depth=6 --set ej_depth=9 --set subpkt_flits=2 --set mem_lat_max=2 --set ni_sq=3 --set ni_rq=12 --set ni_rx_engines=1 --set ni_mem_ports=1 --set ni_stage_after=1" \
         "sim --topo mesh:6x4 --algo dbtree --bytes 15956 --dtype fp32 --seed 0 --flow message --config paper --set payload_w=512 --set ej_depth=2 --set subpkt_flits=1 --set pkt_bytes=64 --set mem_lat_max=2 --set ni_sq=1 --set ni_rx_engines=1 --set link_lat=65 --set ni_stage_after=1" \
         "sim --topo mesh:7 --algo dbtree --bytes 48 --dtype fp32 --seed 4294967295 --flow message --config paper --set vc_depth=65535 --set ej_depth=2 --set subpkt_flits=1 --set pkt_bytes=16 --set ni_sq=3 --set ni_rq=6" \
         "sim --topo torus:3x2x3 --algo multitree --bytes 15212 --dtype fp32 --seed 4294967295 --flow packet --config small --set ej_depth=18 --set pkt_bytes=48 --set step_prio=1 --set mem_p_ready=30 --set ni_sq=3 --set ni_rq=2 --set ni_mem_ports=12 --set wd_limit=28828 --set ni_stage_after=1" \
         "sim --topo mesh:5 --algo dbtree --bytes 4320 --dtype fp32 --seed 4294967295 --flow packet --config small --set ej_depth=2 --set subpkt_flits=1 --set pkt_bytes=16 --set step_prio=0 --set mem_lat_max=3 --set ni_sq=1 --set link_lat=15 --set wd_limit=40600"; do
  # shellcheck disable=SC2086
  if "$BIN" $c 2>&1 | grep -q "result correct on every node"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: stager: $c"; fi
done
for st in "" "--set ni_stage_after=50"; do
  # shellcheck disable=SC2086
  if "$BIN" "${WDCASE[@]}" $st 2>&1 | grep -q "result correct on every node"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: stager on the mesh:5 dbtree deadlock ($st)"; fi
done
# the multi-hop rule: dbtree on a torus sends routed packets even with message flow control
expect 2 "multi-hop transfers" "$BIN" sim --topo torus:4x3 --algo dbtree --bytes 1324 --config small --set vc_depth=1 --set ej_depth=1 --set subpkt_flits=1 --set pkt_bytes=16
# named configurations as files (configs/, cmodel/net/mt_net_cfg.c): a path gives what the
# built-in name gives; the built-in names work from any directory; broken files are refused
# with the file, line and key and what is allowed (exit 2)
R=$(cd "$(dirname "$0")/../.." && pwd); ABIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
S=(sim --topo torus:4x4 --algo multitree --bytes 4K)
"$BIN" "${S[@]}" --config small | grep -v ' s wall' >"$T/cfg_name.out"
"$BIN" "${S[@]}" --config "$R/configs/net/small.cfg" | grep -v ' s wall' >"$T/cfg_file.out"
if [[ -s $T/cfg_name.out ]] && cmp -s "$T/cfg_name.out" "$T/cfg_file.out"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: --config FILE differs from --config small"; fi
expect 0 "config paper:" bash -c "cd / && '$ABIN' ${S[*]} --config paper"
mkdir -p "$T/cfg"; cp "$R"/configs/net/*.cfg "$T/cfg/"
expect 0 "config mine:" bash -c "sed 's/^link_lat .*/link_lat = 3/' '$T/cfg/small.cfg' >'$T/cfg/mine.cfg' && '$ABIN' ${S[*]} --config '$T/cfg/mine.cfg'"
printf 'base = small\nvc_depth = 8\nvc_dpeth = 9\n' >"$T/cfg/typo.cfg"
expect 2 "typo.cfg:3: unknown key 'vc_dpeth'" "$BIN" "${S[@]}" --config "$T/cfg/typo.cfg"
printf 'base = small\nnum_vcs = four\n' >"$T/cfg/nan.cfg"
expect 2 "nan.cfg:2: num_vcs: 'four': not a number; expected a whole number 1..16" "$BIN" "${S[@]}" --config "$T/cfg/nan.cfg"
printf 'base = small\n\nvc_depth = 70000  # too deep\n' >"$T/cfg/range.cfg"
expect 2 "range.cfg:3: vc_depth: '70000': out of range; expected a whole number 1..65535" "$BIN" "${S[@]}" --config "$T/cfg/range.cfg"
printf 'base = small\nlink_lat = 2.5\n' >"$T/cfg/frac.cfg"
expect 2 "frac.cfg:2: link_lat: '2.5': a fraction where a whole number is wanted" "$BIN" "${S[@]}" --config "$T/cfg/frac.cfg"
grep -v '^link_lat' "$R/configs/net/paper.cfg" >"$T/cfg/nolat.cfg"
expect 2 "nolat.cfg: key 'link_lat' missing" "$BIN" "${S[@]}" --config "$T/cfg/nolat.cfg"
printf 'base = small\ndims = 2\n' >"$T/cfg/router_key.cfg"
expect 2 "router_key.cfg:2: unknown key 'dims' in a network configuration" "$BIN" "${S[@]}" --config "$T/cfg/router_key.cfg"
printf 'base = smal\n' >"$T/cfg/badbase.cfg"
expect 2 "badbase.cfg:1: base:" "$BIN" "${S[@]}" --config "$T/cfg/badbase.cfg"
expect 2 "none.cfg: cannot open" "$BIN" "${S[@]}" --config "$T/cfg/none.cfg"
expect 2 "unknown configuration 'huge'" "$BIN" "${S[@]}" --config huge
expect 2 "num_vcs: '99': out of range" "$BIN" "${S[@]}" --set num_vcs=99
# the ranges --set accepts are the ranges the models accept (were 0..4294967295, refused later)
expect 2 "ni_rx_engines: '9': out of range; expected a whole number 0..8" "$BIN" "${S[@]}" --set ni_rx_engines=9
expect 2 "ni_mem_ports: '25': out of range; expected a whole number 0..24" "$BIN" "${S[@]}" --set ni_mem_ports=25
expect 2 "mem_lat_max: '0': out of range; expected a whole number 1..1000" "$BIN" "${S[@]}" --set mem_lat_max=0
expect 2 "link_lat: '1000001': out of range; expected a whole number 1..1000000" "$BIN" "${S[@]}" --set link_lat=1000001
expect 2 "mem_p_ready: '0': out of range; expected a whole number 1..100" "$BIN" "${S[@]}" --set mem_p_ready=0
expect 2 "max_cycles: '0': out of range; expected a whole number 1.." "$BIN" "${S[@]}" --set max_cycles=0
expect 2 "unknown field 'bogus'" "$BIN" "${S[@]}" --set bogus=1
# multitree shape: the flags of a file, in file order; a broken router file is refused
expect 0 "-GD=1 -GL=1 -GK0=3 -GK1=1 -GK2=1 -GTorus=1 -GPayloadW=128 -GNumVcs=2 -GVcDepth=2 -GEjDepth=2 -GSubPktFlits=1 -GStepPrio=0 -GWdW=8" "$BIN" shape --gflags "$R/configs/router/min.cfg"
expect 0 '-DCFG_NAME=\"compact\" -DCFG_LOCAL_PORTS=4' "$BIN" shape --cflags "$R/configs/ni/compact.cfg"
expect 0 "-set VcDepth 318 -set EjDepth 318" "$BIN" shape --chparam "$R/configs/router/paper.cfg"
sed 's/^torus .*/torus = 2/' "$R/configs/router/min.cfg" >"$T/cfg/rt_bad.cfg"
expect 2 "rt_bad.cfg:8: torus: '2': out of range; expected a whole number 0..1" "$BIN" shape --gflags "$T/cfg/rt_bad.cfg"
for f in "$R"/configs/*/*.cfg; do expect 0 "" "$BIN" shape --check "$f"; done
# ---- ROM images: damage is refused with file:line and reason (issue #11, item 8; more in test_rom.c) ----
for f in mif hex coe mem h bin; do
  expect 0 "images of" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format $f --out "$T/rd_$f"
done
cp -r "$T/rd_mif" "$T/rd_mif_gap"; sed -i '/^    5 : /d' "$T/rd_mif_gap/node3.mif"
expect 2 "node3.mif:12: no word for address 5 before this one, address 6" "$BIN" decode "$T/rd_mif_gap"
cp -r "$T/rd_hex" "$T/rd_hex_short"; printf '@1a\n3\n' >"$T/rd_hex_short/node3.hex"
expect 2 "node3.hex:2: no word for addresses 0..25 before this one, address 26" "$BIN" decode "$T/rd_hex_short"
cp -r "$T/rd_mif" "$T/rd_mif_w"; sed -i 's/^WIDTH=102;/WIDTH=7;/' "$T/rd_mif_w/node3.mif"
expect 2 "node3.mif:2: WIDTH=7, but layout.json width is 102" "$BIN" decode "$T/rd_mif_w"
cp -r "$T/rd_mif" "$T/rd_mif_r"; sed -i 's/^DATA_RADIX=HEX;/DATA_RADIX=BIN;/' "$T/rd_mif_r/node3.mif"
expect 2 "node3.mif:5: DATA_RADIX=BIN: the decoder reads HEX data only" "$BIN" decode "$T/rd_mif_r"
cp -r "$T/rd_mem" "$T/rd_mem_d"; sed -i 's/^#Depth=27/#Depth=26/' "$T/rd_mem_d/node3.mem"
expect 2 "node3.mem:2: #Depth=26, but layout.json depth is 27" "$BIN" decode "$T/rd_mem_d"
cp -r "$T/rd_coe" "$T/rd_coe_x"; echo "0;" >>"$T/rd_coe_x/node3.coe"
expect 2 "node3.coe:31: text after the vector's closing ';': '0'" "$BIN" decode "$T/rd_coe_x"
cp -r "$T/rd_h" "$T/rd_h_d"; sed -i 's/NODE3_DEPTH 27/NODE3_DEPTH 28/' "$T/rd_h_d/node3.h"
expect 2 "node3.h:5: DEPTH 28, but layout.json depth is 27" "$BIN" decode "$T/rd_h_d"
cp -r "$T/rd_bin" "$T/rd_bin_x"; cp "$T/rd_bin/node3.bin" "$T/rd_bin_x/node16.bin"
expect 2 "node16.bin: an image layout.json does not account for (it lists 16 nodes" "$BIN" decode "$T/rd_bin_x"
cp -r "$T/rd_hex" "$T/rd_hex_crlf"; sed -i 's/$/\r/' "$T/rd_hex_crlf"/node*.hex
expect 0 "identical" "$BIN" decode "$T/rd_hex_crlf" --compare "$T/t44.json"
# ---- end of ROM image block ----
# several receive engines sharing one memory port under memory back-pressure (issue #11, item 5:
# each of these gave RESULT WRONG before the NI counted only a message's own accepted writes)
MB=(--set num_vcs=2 --set ni_mem_ports=1 --set mem_p_ready=30)
expect 0 "result correct on every node" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 256 "${MB[@]}"
expect 0 "result correct on every node" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 256 --dtype fp32 --flow packet "${MB[@]}"
expect 0 "result correct on every node" "$BIN" sim --topo mesh:4x4 --algo ring2d --bytes 4K "${MB[@]}"
expect 0 "result correct on every node" "$BIN" sim --topo mesh:4x4 --algo hd --bytes 256 "${MB[@]}"
# two receive engines shared by four ejection ports, chained packets of two flows each waiting
# on a predecessor only the other engine could take (an NI watchdog stop if the admission
# rule compared ports instead of engines)
expect 0 "result correct on every node" "$BIN" sim --topo torus:4x3 --algo multitree --bytes 4356 --dtype fp32 --flow packet --seed 1328960894 --set num_vcs=6 --set ni_rx_engines=2 --set ni_mem_ports=0 --set ni_chain=1 --set mem_p_ready=63 --set mem_lat_max=2 --set ej_depth=12
# neighbours sharing an ejection port can deadlock (make soak, seed 1, run 758: a watchdog stop
# with local_ports=1): refused with the reason; one port per network port runs (issue #11, item 12)
expect 2 "local_ports=1: node 2's neighbours 4 and 0 would share its ejection port 0" "$BIN" sim --topo torus:2x5 --algo multitree --bytes 244 --dtype fp32 --seed 3306821316 --flow packet --config small --set num_vcs=2 --set pkt_bytes=32 --set step_prio=0 --set local_ports=1 --set mem_lat_max=1 --set ni_sq=3 --set ni_rq=2
expect 2 "local_ports=3: node" "$BIN" sim --topo torus:4x4 --algo multitree --bytes 4K --set local_ports=3
expect 0 "result correct on every node" "$BIN" sim --topo torus:4x4 --algo multitree --bytes 4K --set local_ports=8
# plan --json writes a node at a time: 60 MB of address space suffice for torus 16x16 (the
# whole jansson tree needed 425 MB and, short of memory, sometimes wrote an 18 KB file and
# exited 0; a 2048-node ring was killed for memory). Short of memory, jansson's allocations
# stop with "out of memory" (check said "invalid JSON")
"$BIN" plan --topo torus:16x16 --algo multitree --bytes 1M --json "$T/m16full.json" >/dev/null 2>&1
if (ulimit -v 60000; "$BIN" plan --topo torus:16x16 --algo multitree --bytes 1M --json "$T/m16.json" >/dev/null 2>&1) &&
  cmp -s "$T/m16.json" "$T/m16full.json" && [[ $(tail -c 2 "$T/m16.json") == ']}' ]]; then pass=$((pass+1))
else fail=$((fail+1)); echo "FAIL: plan --json within 60 MB"; fi
# check reads the file a node at a time (mt_json_split.c): 60 MB suffice (the whole jansson
# tree did not fit); short of memory it still stops with "out of memory"
expect 0 "256 flows: OK" bash -c "ulimit -v 60000; exec $BIN check $T/m16.json"
expect 2 "multitree: out of memory" bash -c "ulimit -v 20000; exec $BIN check $T/m16.json"
# plan derives the tables a node at a time for --json (mt_json_write_sched); with --print it
# holds them whole and writes them with mt_json_write: the same bytes (issue #14 item 6)
for c in "torus:4x4 multitree" "fattree:4,2 multitree" "mesh:3x5 ring" "torus:3x5 dbtree" "file:tb/cmodel/data/multilink.topo multitree"; do
  read -r tp al <<<"$c"
  rm -f "$T/str.json" "$T/whole.json"
  "$BIN" plan --topo "$tp" --algo "$al" --bytes 1M --local-ports 2 --json "$T/str.json" >/dev/null 2>&1
  "$BIN" plan --topo "$tp" --algo "$al" --bytes 1M --local-ports 2 --print --json "$T/whole.json" >/dev/null 2>&1
  if [ -s "$T/str.json" ] && cmp -s "$T/str.json" "$T/whole.json"; then pass=$((pass+1))
  else fail=$((fail+1)); echo "FAIL: $tp $al: plan --json streamed and whole differ"; fi
done
# check proves schedules of any size: 1369 nodes and flows (bit sets per flow, not per node
# and flow, keep it to ~11 s CPU)
expect 0 "steps: 686 = 343 reduce-scatter + 343 all-gather" "$BIN" check --topo torus:37x37 --algo multitree --bytes 1M
# slow legal runs finish: the watchdog limits grow with link and memory latency (a fixed
# wd_limit=20000 of the small config would stop both)
expect 0 "result correct on every node" "$BIN" sim --topo torus:2x2 --algo multitree --bytes 1K --config small --set link_lat=30000
expect 0 "result correct on every node" "$BIN" sim --topo torus:4x2 --algo dbtree --bytes 6848 --dtype int32 --flow message --seed 2130570997 --config small --set num_vcs=2 --set ni_rx_engines=0 --set ni_mem_ports=1 --set ni_chain=0 --set mem_p_ready=4 --set mem_lat_max=32 --set ej_depth=5
# multi-dimensional topologies and the hierarchical baseline (issue #15 items 1-2, docs/reference/topologies.md)
expect 0 "steps: 10 = 5 reduce-scatter + 5 all-gather" "$BIN" plan --topo dims:ring4@100x2,sw4@50x1 --algo hier --bytes 1M
expect 0 "check: hier on dims:ring4@100x2,sw4@50x1, 16 nodes, 32 flows: OK" "$BIN" check --topo dims:ring4@100x2,sw4@50x1 --algo hier --bytes 1M
expect 0 "exact (0 of" "$BIN" ref --topo dims:fc4@10x3,ring3@5x2,sw2@1x1 --algo hier --bytes 96K --dtype int32
# a multi-dimensional schedule read back: kind "dims", rebuilt from its spec; another kind refused
expect 0 "" "$BIN" plan --topo dims:ring4@100x2,sw4@50x1 --algo hier --bytes 1M --json "$T/md.json"
expect 0 "32 flows: OK" "$BIN" check "$T/md.json"
sed 's/"kind":"dims"/"kind":"torus"/' "$T/md.json" >"$T/md_bad.json"
expect 2 'topology.kind: the value is not what spec "dims:ring4@100x2,sw4@50x1" builds' "$BIN" check "$T/md_bad.json"
expect 0 "1024 nodes, 2048 flows" "$BIN" plan --topo themis:4d-ring-fc-ring-sw --algo hier --bytes 1M
printf 'topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwidth: [100, 50]\nlatency: [20, 700]\n' >"$T/md.yml"
expect 0 "check: hier on dimsfile:$T/md.yml, 8 nodes, 16 flows: OK" "$BIN" check --topo "dimsfile:$T/md.yml" --algo hier --bytes 1M
printf 'topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwidth: [100, 50]\nlatency: [20, 700us]\n' >"$T/md_bad.yml"
expect 2 "md_bad.yml:4: key 'link-latency': value 2 (a latency in ns): '700us': text after the number" "$BIN" plan --topo "dimsfile:$T/md_bad.yml" --algo hier --bytes 1M
expect 2 "dimension 1 'ring4@100x': expected links per NPU" "$BIN" plan --topo dims:ring4@100x --algo hier --bytes 1M
expect 2 "hier needs a multi-dimensional topology" "$BIN" plan --topo mesh:4x4 --algo hier --bytes 1M
# the byte issue order (bucket pipelined on torus:4x8, docs/reference/formats.md): the JSON keeps each
# node's entries in table order (node 0's step 1 not in flow order), check proves the file,
# an image decodes to the same tables; entries of a step in another order still pass check
# (nothing but the NI's issue reads it), an entry moved into the step before is refused
expect 0 "" "$BIN" plan --topo torus:4x8 --algo bucket --bytes 8M --json "$T/b48.json"
expect 0 "640 flows: OK" "$BIN" check "$T/b48.json"
expect 0 "byte order" python3 - "$T/b48.json" "$T/b48_perm.json" "$T/b48_back.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
en = j["nodes"][0]["entries"]
s1 = [e for e in en if e["step"] == 1]
fl = [e["flow"] for e in s1]
# packetiser = port mod L (L = 4 ports); bytes queued before each entry must not decrease
q, keys = {}, []
for e in s1:
    p = e["parent_port"] % 4
    keys.append(q.get(p, 0))
    q[p] = q.get(p, 0) + e["size"]
assert fl != sorted(fl) and keys == sorted(keys), (fl, keys)
k = json.loads(json.dumps(j))
k["nodes"][0]["entries"][:len(s1)] = sorted(s1, key=lambda e: e["flow"])  # flow order
json.dump(k, open(sys.argv[2], "w"))
k = json.loads(json.dumps(j))
e2 = next(i for i, e in enumerate(en) if e["step"] == 2)
ent = k["nodes"][0]["entries"]
ent.insert(0, ent.pop(e2))  # a step-2 entry before the step-1 ones
json.dump(k, open(sys.argv[3], "w"))
print("byte order: node 0 step 1 flows", fl[:6], "queued bytes", keys[:6])
PY
expect 0 "640 flows: OK" "$BIN" check "$T/b48_perm.json"
expect 1 "steps must not go backwards" "$BIN" check "$T/b48_back.json"
expect 0 "images of" "$BIN" rom --topo torus:4x8 --algo bucket --bytes 8M --format hex --out "$T/romb"
expect 0 "identical" "$BIN" decode "$T/romb" --compare "$T/b48.json"
expect 1 "DIFFER" "$BIN" decode "$T/romb" --compare "$T/b48_perm.json"
echo "RESULT test_cli pass=$pass fail=$fail"
