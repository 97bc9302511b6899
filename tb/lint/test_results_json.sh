#!/usr/bin/env bash
# test_results_json.sh: the checker of the machine-readable results (scripts/results_json.py;
# build/area/ni.json of make area-ni, build/bench/rtl.json of make bench-rtl). Good rows pass and
# merge (a row replaces the row of its key); each planted malformed row is refused with its
# message; the RAM list is read from a Yosys dump of black-boxed mt_ni_ram cells (a default
# parameter included).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
rj=$top/scripts/results_json.py
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

area='{"shape": "full", "n": 16, "stager": false, "set": "", "logic_cells": 46000, "flip_flops": 10000, "ram_bits": 1280, "rams": [{"name": "u.r0", "depth": 16, "width": 64}, {"name": "u.r1", "depth": 16, "width": 16}], "table_bits": 3078, "yosys_s": 120}'
bench='{"shape": "t4x4:paper", "nodes": 16, "bytes": 65536, "cycles": 9000, "build_s": 200, "rtl_cycles_per_s": 3000, "lockstep_cycles_per_s": 2000, "rtl_node_cycles_per_s": 48000, "passed": true}'
# good KIND NAME JSON-LIST: passes the check
good() {
  printf '%s\n' "$3" >"$tmp/g.json"
  if "$rj" check "$1" "$tmp/g.json" 2>"$tmp/err"; then ok "$2"; else bad "$2: refused: $(cat "$tmp/err")"; fi
}
# broken KIND NAME PYTHON WANT: the good row changed by PYTHON (on r) must be refused with WANT
broken() {
  local row=$area; [[ $1 == bench-rtl ]] && row=$bench
  python3 -c "import json, sys; r = json.loads(sys.argv[1]); $3; print(json.dumps(r))" "$row" >"$tmp/b.json" || { bad "$2: python"; return; }
  if "$rj" check "$1" "$tmp/b.json" 2>"$tmp/err"; then bad "$2: passed"
  elif grep -qF -- "$4" "$tmp/err"; then ok "$2: $(head -1 "$tmp/err" | sed "s|$tmp/||")"
  else bad "$2: message is not '$4': $(cat "$tmp/err")"; fi
}
good area-ni "an area row" "[$area]"
good area-ni "an area row that did not finish" "[$(python3 -c "import json, sys; r = json.loads(sys.argv[1]); r.update(logic_cells=None, flip_flops=None, ram_bits=None, rams=None); print(json.dumps(r))" "$area")]"
good bench-rtl "a bench row" "[$bench]"
good bench-rtl "a bench row with a field set" "[${bench/t4x4:paper/t4x4:paper:rt_pipe=1}]"
good area-ni "an empty list" "[]"
broken area-ni "not a list"        'r = {"rows": [r]}' "not a JSON list"
broken area-ni "a missing key"     'r = [r]; del r[0]["table_bits"]' "missing key 'table_bits'"
broken area-ni "an unknown key"    'r = [r]; r[0]["luts"] = 3' "unknown key 'luts'"
broken area-ni "a string count"    'r = [r]; r[0]["logic_cells"] = "46,000"' "logic_cells = '46,000' is not int"
broken area-ni "a bool count"      'r = [r]; r[0]["flip_flops"] = True' "flip_flops = True is not int"
broken area-ni "stager not a bool" 'r = [r]; r[0]["stager"] = 1' "stager = 1 is not bool"
broken area-ni "a negative count"  'r = [r]; r[0]["yosys_s"] = -5' "yosys_s = -5 is negative"
broken area-ni "RAM bits off"      'r = [r]; r[0]["ram_bits"] = 1024' "ram_bits 1024 != sum of depth x width 1280"
broken area-ni "a bad RAM entry"   'r = [r]; r[0]["rams"][1]["depth"] = 0' "bad RAM entry"
broken area-ni "half a result"     'r = [r]; r[0]["rams"] = None' "all null or none"
broken area-ni "FFs above cells"   'r = [r]; r[0]["flip_flops"] = 50000' "more flip-flops"
broken area-ni "a key twice"       'r = [r, dict(r)]' "a second row for"
broken bench-rtl "a bad shape"     'r = [r]; r[0]["shape"] = "torus 4x4 paper"' "is not like t4x4:paper"
broken bench-rtl "a set, no value" 'r = [r]; r[0]["shape"] = "t4x4:paper:rt_pipe"' "is not like t4x4:paper"
broken bench-rtl "node rate off"   'r = [r]; r[0]["rtl_node_cycles_per_s"] = 3000' "!= 3000 x 16 nodes"
broken bench-rtl "passed, no rate" 'r = [r]; r[0]["lockstep_cycles_per_s"] = None' "passed, but a rate"
broken bench-rtl "a float rate"    'r = [r]; r[0]["rtl_cycles_per_s"] = 3000.5' "is not int"

# merge: the second row of a key replaces the first, another key is kept
printf '%s\n' "$area" >"$tmp/r1.json"
python3 -c "import json, sys; r = json.loads(sys.argv[1]); r['logic_cells'] = 47000; print(json.dumps(r))" "$area" >"$tmp/r2.json"
python3 -c "import json, sys; r = json.loads(sys.argv[1]); r['n'] = 64; print(json.dumps(r))" "$area" >"$tmp/r3.json"
rm -f "$tmp/m.json"
if "$rj" merge area-ni "$tmp/m.json" "$tmp/r1.json" "$tmp/r3.json" && "$rj" merge area-ni "$tmp/m.json" "$tmp/r2.json" &&
   python3 -c "import json, sys; r = json.load(open(sys.argv[1])); assert [(x['n'], x['logic_cells']) for x in r] == [(16, 47000), (64, 46000)], r" "$tmp/m.json"
then ok "merge replaces the row of a key, keeps the others, sorts by n"; else bad "merge: $(cat "$tmp/m.json")"; fi

# the RAM list from a Yosys dump (a stamped line, a default Width, a binary constant)
cat >"$tmp/dump.txt" <<'DUMP'
[12.5] attribute \hdlname "u_deps u_rv"
  cell \mt_ni_ram \u_deps.u_rv
    parameter signed \Depth 64
    parameter signed \Width 9
    connect \clk_i \clk_i
  end
  cell \mt_ni_ram \u_stage.u_pool
    parameter \Depth 32'00000000000000000000010000000000
  end
DUMP
want='[{"name": "u_deps.u_rv", "depth": 64, "width": 9}, {"name": "u_stage.u_pool", "depth": 1024, "width": 32}]'
got=$("$rj" rams "$tmp/dump.txt")
if [[ $got == "$want" ]]; then ok "RAMs from a dump: $got"; else bad "RAMs from a dump: $got, want $want"; fi

echo "RESULT results-json pass=$p fail=$f"
