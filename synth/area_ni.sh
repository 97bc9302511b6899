#!/usr/bin/env bash
# area_ni.sh BUILD: Yosys 0.23 area of the network interface (make area-ni).
# For N = 16, 64, 256 (MultiTree on 4x4, 8x8, 16x16 tori, 64-MiB buffer): the schedule table
# bits (depth x width, full and compact layouts, from `multitree rom` / layout.json), and
# the NI's logic apart from the table and the RAMs (mt_ni_table and mt_ni_ram black-boxed;
# FIFOs and the state not in mt_ni_ram included): generic `synth -flatten` cells, and
# synth_ice40 / synth_ecp5 cells, with the wall time of each Yosys run; the RAM bits apart,
# depth x width of every mt_ni_ram instance (a Yosys `dump` of the black-boxed cells).
# Other parameters: L=4, NetPorts=4, PayloadW=128, NumVcs=2,
# EjDepth=4, VcDepth=8, SQ=4, RQ=4, MaxFlows=N (the RTL defaults otherwise).
# Every generic run also writes its row to BUILD/area/ni.json (scripts/results_json.py: a list of
# {shape, n, stager, set, logic_cells, flip_flops, ram_bits, rams, table_bits, yosys_s}; a row
# replaces the row of the same shape, n, stager and set, the others are kept) and checks it.
# Knobs (environment):
#   NI_AREA_NS      N whose table bits are listed (default "16 64 256")
#   NI_AREA_SYNTH   N whose logic is synthesized (default "16")
#   NI_AREA_SHAPES  NI shapes, names of configs/ni/<name>.cfg (default "full compact", the
#                   one-engine NI in both layouts); each shape gives the receive engines E
#                   (RxEngines), memory ports M (MemPorts), chaining (ReduceChain) and the
#                   table layout (Compact); its other keys are not used (the table fields
#                   come from the ROM of N). E.g. "paper e8_m20 e4_m8".
#   NI_AREA_STAGER  "0", "1" or "0 1": each shape without and/or with the stager (default "0")
#   NI_AREA_STAGE_SET  the stager's parameters (default "StageAfter=20000 StageRanges=1024",
#                   configs/net/paper.cfg's ni_stage_after and ni_stage_ranges)
#   NI_AREA_FLOWS   Yosys flows per shape (default "gen ice ecp")
#   NI_AREA_BB      modules black-boxed besides the table and the RAMs (e.g. mt_ni_deps: the
#                   rest of a shape whose chain state is too slow to synthesize; its cells are then
#                   not counted; mt_ni_deps is then synthesized alone, generic, with the
#                   shape's engines and chaining, and listed below the table)
#   NI_AREA_DEPS    0: not that synthesis of mt_ni_deps alone (default 1)
#   NI_AREA_TIMEOUT seconds per Yosys run (default 0: none); a run that times out shows "-"
#   NI_AREA_MEM_GB  virtual memory cap per Yosys run, GB (default 8; ulimit -v)
#   NI_AREA_SET     more mt_ni parameters for every row, "K=V ..."; the shape column then shows them
#   NI_AREA_HIER    1: also a generic synth without -flatten, its cells per module written
#                   to BUILD/ni/area/hier_<shape>_<N>.md (where the area goes)
# Runs one Yosys job at a time, under nice.
set -u
B=${1:-build}; D=$B/ni/area; mkdir -p "$D" "$D/rows" "$B/area"
JSON=$B/area/ni.json
# the table as a black box: a stub with its ports replaces rtl/mt_ni_table.sv
cat >$D/mt_ni_table_bb.sv <<'BB'
(* blackbox *)
module mt_ni_table #(parameter int Depth = 64, parameter int Width = 86, parameter int NB = 1,
  parameter InitFile = "", localparam int AW = mt_common_pkg::idx_w(Depth)) (
  input logic clk_i, input logic we_i, input logic [AW-1:0] waddr_i, input logic [Width-1:0] wdata_i,
  input logic [AW-1:0] ra_i, output logic [Width-1:0] rda_o,
  input logic [NB*AW-1:0] rb_i, output logic [NB*Width-1:0] rdb_o);
endmodule
BB
# the per-flow state RAMs too (mt_ni_ram: their bits are Depth x Width per instance,
# docs/reference/ni.md "State in RAM"), as the table
cat >$D/mt_ni_ram_bb.sv <<'BB'
(* blackbox *)
module mt_ni_ram #(parameter int Depth = 16, parameter int Width = 32, parameter int Bypass = 1,
  localparam int AW = mt_common_pkg::idx_w(Depth)) (
  input logic clk_i, input logic we_i, input logic [AW-1:0] waddr_i, input logic [Width-1:0] wdata_i,
  input logic re_i, input logic [AW-1:0] raddr_i, output logic [Width-1:0] rdata_o);
endmodule
BB
RTL="rtl/mt_common_pkg.sv $D/mt_ni_table_bb.sv $D/mt_ni_ram_bb.sv $(ls rtl/mt_ni*.sv | grep -v 'mt_ni_table.sv\|mt_ni_ram.sv' | tr "\n" " ") rtl/mt_credit_counter.sv rtl/mt_reduce_alu.sv rtl/mt_fp32_add.sv"
NS=${NI_AREA_NS:-"16 64 256"}
SYN=${NI_AREA_SYNTH:-"16"}
SHAPES=${NI_AREA_SHAPES:-"full compact"}
FLOWS=${NI_AREA_FLOWS:-"gen ice ecp"}
HIER=${NI_AREA_HIER:-0}
STAGER=${NI_AREA_STAGER:-0}
STAGE_SET=${NI_AREA_STAGE_SET:-StageAfter=20000 StageRanges=1024}
BBOX=" blackbox mt_ni_ram;"; for m in ${NI_AREA_BB:-}; do BBOX="$BBOX blackbox $m;"; done

# shape S: "E M chain compact" from configs/ni/S.cfg (through `multitree shape`)
shape_of() {
  local g; g=$(./$B/multitree shape --gflags configs/ni/$1.cfg) || return 1
  python3 - "$g" <<'PY'
import sys
g = dict(a[2:].split('=', 1) for a in sys.argv[1].split())
print(g.get('RxEngines', '1'), g.get('MemPorts', '1'), g.get('ReduceChain', '0'), g.get('Compact', '0'))
PY
}
# yosys_run LOG SCRIPT: one Yosys job under nice; prints its wall seconds
yosys_run() {
  local t0=$SECONDS
  local rc=0
  ( ulimit -v $((${NI_AREA_MEM_GB:-8} * 1024 * 1024)); timeout "${NI_AREA_TIMEOUT:-0}" nice yosys -t -p "$2" ) >"$1" 2>&1 || rc=$?
  if [[ $rc == 124 ]]; then echo "yosys timed out after ${NI_AREA_TIMEOUT} s: $1, in: $(grep -E '^\[[0-9.]+\] [0-9.]+ Executing' "$1" | tail -1 | cut -c1-160)" >&2
  elif [[ $rc != 0 ]]; then echo "yosys failed (exit $rc): $1" >&2; tail -3 "$1" | cut -c1-200 >&2; fi
  echo $((SECONDS - t0))
}

NOTES=""
# a value from a stat file (yosys -t stamps each line: the stamp is dropped)
v() { [[ -f $2 ]] && sed 's/^\[[0-9.]*\] //' "$2" | awk "$1" || echo -; }
echo "| N | shape | stager | E | M | chained | layout | table depth x width | table bits | logic cells (generic, no table, no RAM) | flip-flops | RAM bits | RAMs (depth x width) | iCE40 LUT4 | iCE40 FF | iCE40 carry | ECP5 LUT4 | ECP5 FF | ECP5 carry | Yosys wall s (gen/ice/ecp) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for N in $NS; do
  K=$(python3 -c "import math;print(math.isqrt($N))")
  for c in full compact; do
    f=""; [[ $c == compact ]] && f=--compact
    ./$B/multitree rom --topo torus:${K}x${K} --algo multitree --bytes 64M --format hex $f --out $D/${c}_$N >/dev/null || { echo "rom failed"; exit 1; }
  done
  for s in $SHAPES; do
  for sg in $STAGER; do
    read -r E M CHN CP < <(shape_of "$s") || { echo "shape $s: configs/ni/$s.cfg not readable"; exit 1; }
    c=full; [[ $CP == 1 ]] && c=compact
    read -r W DEP CH FL ST ID PO EJ AD SZ < <(python3 -c "
import json; j=json.load(open('$D/${c}_$N/layout.json')); w={x['name']:x['width'] for x in j['fields']}
print(j['width'], j['depth'], j['children'], w['flow'], w['step'], w.get('parent.node',1), w['parent.port'], w['parent.eject'], w.get('addr',1), w.get('size',1))")
    SET=${NI_AREA_SET:-}; [[ $sg == 1 ]] && SET="${SET:+$SET }$STAGE_SET"
    row="| $N | $s${NI_AREA_SET:+ $NI_AREA_SET} | $([[ $sg == 1 ]] && echo "$STAGE_SET" || echo no) | $E | $M | $([[ $CHN == 1 ]] && echo yes || echo no) | $c | $DEP x $W | $((DEP * W))"
    if [[ " $SYN " != *" $N "* ]]; then echo "$row | not run | | | | | | | | | | |"; continue; fi
    EXTRA=""; for kv in $SET; do EXTRA="$EXTRA -set ${kv%%=*} ${kv#*=}"; done
    P="chparam$EXTRA -set Depth $DEP -set Compact $CP -set FlowW $FL -set StepW $ST -set IdW $ID -set PortW $PO -set EjW $EJ -set AddrW $AD -set SizeW $SZ -set Children $CH -set MaxFlows $N -set RxEngines $E -set MemPorts $M -set ReduceChain $CHN mt_ni"
    PRE="read_verilog -sv $RTL; $P;$BBOX hierarchy -top mt_ni"
    x=${s}_$N; [[ -n ${NI_AREA_BB:-} ]] && x=${x}_bb; [[ -n $SET ]] && x=${x}_$(echo $SET | tr ' =' '__'); tg=-; ti=-; te=-
    # the stat files of flows not run now are an earlier run's: not read
    rm -f "$D/gen_$x.txt" "$D/ram_$x.txt" "$D/ice_$x.txt" "$D/ecp_$x.txt"
    [[ " $FLOWS " == *" gen "* ]] && tg=$(yosys_run $D/gen_$x.log "$PRE; synth -top mt_ni -flatten; tee -q -o $D/gen_$x.txt stat; tee -q -o $D/ram_$x.txt dump t:mt_ni_ram")
    [[ " $FLOWS " == *" ice "* ]] && ti=$(yosys_run $D/ice_$x.log "$PRE; synth_ice40 -top mt_ni; tee -q -o $D/ice_$x.txt stat")
    [[ " $FLOWS " == *" ecp "* ]] && te=$(yosys_run $D/ecp_$x.log "$PRE; synth_ecp5 -top mt_ni; tee -q -o $D/ecp_$x.txt stat")
    # logic cells: the black-boxed table and RAM cells are not counted
    gc=$(v '/Number of cells/ {v=$4} / mt_ni_table | mt_ni_ram / {b+=$2} END {print v-b}' $D/gen_$x.txt)
    gf=$(v '/\$_.*DFF/ {s+=$2} END {print s+0}' $D/gen_$x.txt)
    il=$(v '/SB_LUT4/ {v=$2} END {print v+0}' $D/ice_$x.txt)
    iff=$(v '/SB_DFF/ {s+=$2} END {print s+0}' $D/ice_$x.txt)
    ic=$(v '/SB_CARRY/ {v=$2} END {print v+0}' $D/ice_$x.txt)
    el=$(v '/LUT4/ {v=$2} END {print v+0}' $D/ecp_$x.txt)
    ef=$(v '/TRELLIS_FF/ {s+=$2} END {print s+0}' $D/ecp_$x.txt)
    ec=$(v '/CCU2C/ {v=$2} END {print v+0}' $D/ecp_$x.txt)
    rj=null; rb=-; rl=-
    if [[ -f $D/ram_$x.txt && -f $D/gen_$x.txt ]]; then
      rj=$(scripts/results_json.py rams $D/ram_$x.txt)
      read -r rb rl < <(python3 -c "
import json, collections, sys; r=json.loads(sys.argv[1]); c=collections.Counter((x['depth'], x['width']) for x in r)
print(sum(x['depth']*x['width'] for x in r), ', '.join(f'{n} x {d}x{w}' for (d, w), n in sorted(c.items())) or 'none')" "$rj")
    fi
    echo "$row | $gc | $gf | $rb | $rl | $il | $iff | $ic | $el | $ef | $ec | $tg/$ti/$te |"
    if [[ $tg != - ]]; then
      n_or_null() { [[ $1 =~ ^[0-9]+$ ]] && echo "$1" || echo null; }
      [[ $rj == null ]] && { gc=null; gf=null; rb=null; }
      cat >$D/rows/$x.json <<ROW
{"shape": "$s", "n": $N, "stager": $([[ $sg == 1 ]] && echo true || echo false), "set": "$SET",
 "logic_cells": $(n_or_null "$gc"), "flip_flops": $(n_or_null "$gf"), "ram_bits": $(n_or_null "$rb"), "rams": $rj,
 "table_bits": $((DEP * W)), "yosys_s": $tg}
ROW
      scripts/results_json.py merge area-ni "$JSON" $D/rows/$x.json || { echo "area-ni: $JSON fails its check" >&2; exit 1; }
    fi
    if [[ $HIER == 1 ]]; then
      th=$(yosys_run $D/hier_$x.log "$PRE; synth -top mt_ni; tee -q -o $D/hier_$x.txt stat")
      synth/area_hier.py $D/hier_$x.txt "$s, N = $N, generic synth without -flatten, $th s" >$D/hier_$x.md
    fi
    if [[ " ${NI_AREA_BB:-} " == *" mt_ni_deps "* && ${NI_AREA_DEPS:-1} == 1 ]]; then
      # the black-boxed per-flow state alone: TIW, CntW as mt_ni derives them
      TIW=$(python3 -c "import math;print(max(1,math.ceil(math.log2($DEP))))"); CW=$(python3 -c "import math;print(math.ceil(math.log2($CH+1)))")
      td=$(yosys_run $D/deps_$x.log "read_verilog -sv rtl/mt_common_pkg.sv $D/mt_ni_ram_bb.sv rtl/mt_ni_chain.sv rtl/mt_ni_deps.sv; chparam -set MaxFlows $N -set TIW $TIW -set CntW $CW -set NE $E -set Children $CH -set Chain $([[ $CHN == 1 && $E -gt 1 ]] && echo 1 || echo 0) mt_ni_deps; hierarchy -top mt_ni_deps; synth -top mt_ni_deps; tee -q -o $D/deps_$x.txt stat")
      NOTES="$NOTES
mt_ni_deps alone ($s, N = $N): $(v '/Number of cells/ {v=$4} END {print v}' $D/deps_$x.txt) generic cells, $(v '/\$_.*DFF/ {s+=$2} END {print s+0}' $D/deps_$x.txt) FFs, $td s"
    fi
  done
  done
done
[[ -n $NOTES ]] && echo "$NOTES"
true
