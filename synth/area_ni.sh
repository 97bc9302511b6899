#!/usr/bin/env bash
# area_ni.sh BUILD: Yosys 0.23 area of the network interface (make area-ni).
# For N = 16, 64, 256 (MultiTree on 4x4, 8x8, 16x16 tori, 64-MiB buffer): the schedule table
# bits (depth x width, full and compact layouts, from `multitree rom` / layout.json), and
# the NI's logic apart from the table (mt_ni_table black-boxed; FIFOs and per-flow state
# included): generic `synth -flatten` cells, and synth_ice40 / synth_ecp5 cells, with the
# wall time of each Yosys run. Other parameters: L=4, NetPorts=4, PayloadW=128, NumVcs=2,
# EjDepth=4, VcDepth=8, SQ=4, RQ=4, MaxFlows=N (the RTL defaults otherwise).
# Knobs (environment):
#   NI_AREA_NS      N whose table bits are listed (default "16 64 256")
#   NI_AREA_SYNTH   N whose logic is synthesized (default "16")
#   NI_AREA_SHAPES  NI shapes, names of configs/ni/<name>.cfg (default "full compact", the
#                   one-engine NI in both layouts); each shape gives the receive engines E
#                   (RxEngines), memory ports M (MemPorts), chaining (ReduceChain) and the
#                   table layout (Compact); its other keys are not used (the table fields
#                   come from the ROM of N). E.g. "paper e8_m20 e4_m8".
#   NI_AREA_FLOWS   Yosys flows per shape (default "gen ice ecp")
#   NI_AREA_BB      modules black-boxed besides the table (e.g. mt_ni_deps: the rest of a
#                   shape whose chain state is too slow to synthesize; its cells are then
#                   not counted; mt_ni_deps is then synthesized alone, generic, with the
#                   shape's engines and chaining, and listed below the table)
#   NI_AREA_DEPS    0: not that synthesis of mt_ni_deps alone (default 1)
#   NI_AREA_TIMEOUT seconds per Yosys run (default 0: none); a run that times out shows "-"
#   NI_AREA_SET     more mt_ni parameters, "K=V ..." (e.g. "StageAfter=50 StageRanges=16": the
#                   NI with the stager, docs/results/area.md); the shape column then shows them
#   NI_AREA_HIER    1: also a generic synth without -flatten, its cells per module written
#                   to BUILD/ni/area/hier_<shape>_<N>.md (where the area goes)
# Runs one Yosys job at a time, under nice.
set -u
B=${1:-build}; D=$B/ni/area; mkdir -p "$D"
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
BBOX=""; for m in ${NI_AREA_BB:-}; do BBOX="$BBOX blackbox $m;"; done

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
  timeout "${NI_AREA_TIMEOUT:-0}" nice yosys -t -p "$2" >"$1" 2>&1 || { echo "yosys failed or timed out: $1" >&2; tail -3 "$1" >&2; }
  echo $((SECONDS - t0))
}

NOTES=""
echo "| N | shape | E | M | chained | layout | table depth x width | table bits | generic cells (logic, no table) | of which FFs | iCE40 LUT4 | iCE40 FF | iCE40 carry | ECP5 LUT4 | ECP5 FF | ECP5 carry | Yosys wall s (gen/ice/ecp) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for N in $NS; do
  K=$(python3 -c "import math;print(math.isqrt($N))")
  for c in full compact; do
    f=""; [[ $c == compact ]] && f=--compact
    ./$B/multitree rom --topo torus:${K}x${K} --algo multitree --bytes 64M --format hex $f --out $D/${c}_$N >/dev/null || { echo "rom failed"; exit 1; }
  done
  for s in $SHAPES; do
    read -r E M CHN CP < <(shape_of "$s") || { echo "shape $s: configs/ni/$s.cfg not readable"; exit 1; }
    c=full; [[ $CP == 1 ]] && c=compact
    read -r W DEP CH FL ST ID PO EJ AD SZ < <(python3 -c "
import json; j=json.load(open('$D/${c}_$N/layout.json')); w={x['name']:x['width'] for x in j['fields']}
print(j['width'], j['depth'], j['children'], w['flow'], w['step'], w.get('parent.node',1), w['parent.port'], w['parent.eject'], w.get('addr',1), w.get('size',1))")
    row="| $N | $s${NI_AREA_SET:+ $NI_AREA_SET} | $E | $M | $([[ $CHN == 1 ]] && echo yes || echo no) | $c | $DEP x $W | $((DEP * W))"
    if [[ " $SYN " != *" $N "* ]]; then echo "$row | not run | | | | | | | | | |"; continue; fi
    EXTRA=""; for kv in ${NI_AREA_SET:-}; do EXTRA="$EXTRA -set ${kv%%=*} ${kv#*=}"; done
    P="chparam$EXTRA -set Depth $DEP -set Compact $CP -set FlowW $FL -set StepW $ST -set IdW $ID -set PortW $PO -set EjW $EJ -set AddrW $AD -set SizeW $SZ -set Children $CH -set MaxFlows $N -set RxEngines $E -set MemPorts $M -set ReduceChain $CHN mt_ni"
    PRE="read_verilog -sv $RTL; $P;$BBOX hierarchy -top mt_ni"
    x=${s}_$N; [[ -n ${NI_AREA_BB:-} ]] && x=${x}_bb; [[ -n ${NI_AREA_SET:-} ]] && x=${x}_$(echo ${NI_AREA_SET} | tr ' =' '__'); tg=-; ti=-; te=-
    # the stat files of flows not run now are an earlier run's: not read
    rm -f "$D/gen_$x.txt" "$D/ice_$x.txt" "$D/ecp_$x.txt"
    [[ " $FLOWS " == *" gen "* ]] && tg=$(yosys_run $D/gen_$x.log "$PRE; synth -top mt_ni -flatten; tee -q -o $D/gen_$x.txt stat")
    [[ " $FLOWS " == *" ice "* ]] && ti=$(yosys_run $D/ice_$x.log "$PRE; synth_ice40 -top mt_ni; tee -q -o $D/ice_$x.txt stat")
    [[ " $FLOWS " == *" ecp "* ]] && te=$(yosys_run $D/ecp_$x.log "$PRE; synth_ecp5 -top mt_ni; tee -q -o $D/ecp_$x.txt stat")
    # a value from a stat file (yosys -t stamps each line: the stamp is dropped)
    v() { [[ -f $2 ]] && sed 's/^\[[0-9.]*\] //' "$2" | awk "$1" || echo -; }
    gc=$(v '/Number of cells/ {v=$4} END {print v}' $D/gen_$x.txt)
    gf=$(v '/\$_.*DFF/ {s+=$2} END {print s+0}' $D/gen_$x.txt)
    il=$(v '/SB_LUT4/ {v=$2} END {print v+0}' $D/ice_$x.txt)
    iff=$(v '/SB_DFF/ {s+=$2} END {print s+0}' $D/ice_$x.txt)
    ic=$(v '/SB_CARRY/ {v=$2} END {print v+0}' $D/ice_$x.txt)
    el=$(v '/LUT4/ {v=$2} END {print v+0}' $D/ecp_$x.txt)
    ef=$(v '/TRELLIS_FF/ {s+=$2} END {print s+0}' $D/ecp_$x.txt)
    ec=$(v '/CCU2C/ {v=$2} END {print v+0}' $D/ecp_$x.txt)
    echo "$row | $gc | $gf | $il | $iff | $ic | $el | $ef | $ec | $tg/$ti/$te |"
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
[[ -n $NOTES ]] && echo "$NOTES"
true
