#!/usr/bin/env bash
# rtl_sim.sh: the RTL network alone, the FPGA path (issue #12 item 4, docs/reference/rtl_sim.md). No C
# model in lockstep: every NI's schedule table is loaded from the planner's ROM images by
# $readmemh (rtl/mt_node.sv, +mt_rom_dir), every node's final buffer is checked against the
# reference sum, and the cycle count against `multitree sim`'s for the same configuration.
#
#   scripts/rtl_sim.sh --topo torus:4x4 --algo multitree --bytes 256K [--config small|paper|FILE]
#       [--set key=value]... [--dtype int32|fp32] [--flow message|packet] [--seed S]
#       [--rom DIR] [--fst FILE [--fst-nodes 0,5]] [--hier 0|1] [--copt FLAGS] [--bin PATH]
#   make rtl-sim RTL_SIM_ARGS="..."
#
# Steps: (1) `multitree sim` with the same arguments (checks them all, gives the C model's
# cycles); (2) `multitree rom --format hex --out OUT/rom` (unless --rom DIR: those images, as
# they are); (3) the Verilated network of the shape (tb/cosim/cosim_net.cpp, -G flags from
# build/net/cosim_net_params --shape), cached in build/rtlsim/obj_<topo>_<hash> and rebuilt
# when rtl/, the harness or libmt are newer (--bin PATH: that build instead, refused when its
# network is not the configuration's; the harness checks that the ROM fits it); (4) the run: `cosim_net --rom DIR`. Prints both cycle counts, the words
# checked, and the line "rtl-sim: ... passed|FAILED"; exit 0 only when the RTL finished, every
# buffer equals the reference and the cycles equal `multitree sim`'s.
# --fst FILE needs a flat build with --trace-fst (its own cache directory; a hierarchical
# build cannot trace inside the nodes); --fst-nodes restricts it to those nodes.
# Without NET_VERILATE in the environment (set by mk/net.mk) it runs itself through make.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
if [[ -z ${NET_VERILATE:-} ]]; then
  exec make --no-print-directory -s rtl-sim RTL_SIM_ARGS="$(printf '%q ' "$@")"
fi
BUILD=${BUILD:-build}
MT=$BUILD/multitree
PARAMS=$BUILD/net/cosim_net_params
die() { echo "rtl_sim.sh: $*" >&2; exit 2; }

topo="" algo="" bytes="" config=small dtype=int32 flow=message seed=1 rom="" fst="" fst_nodes="" bin=""
hier=1 copt=-O2 sets=()
while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || die "$1: missing value (see the usage at the top of scripts/rtl_sim.sh)"
  case $1 in
    --topo) topo=$2 ;; --algo) algo=$2 ;; --bytes) bytes=$2 ;; --config) config=$2 ;;
    --set) sets+=("$2") ;; --dtype) dtype=$2 ;; --flow) flow=$2 ;; --seed) seed=$2 ;;
    --rom) rom=$2 ;; --fst) fst=$2 ;; --fst-nodes) fst_nodes=$2 ;; --bin) bin=$2 ;;
    --hier) hier=$2 ;; --copt) copt=$2 ;;
    *) die "unknown option $1 (see the usage at the top of scripts/rtl_sim.sh)" ;;
  esac
  shift 2
done
[[ -n $topo && -n $algo && -n $bytes ]] || die "--topo, --algo and --bytes are required"
[[ $hier == 0 || $hier == 1 ]] || die "--hier $hier: 0 (flat) or 1 (hierarchical)"
[[ -z $fst_nodes || -n $fst ]] || die "--fst-nodes needs --fst FILE"
[[ -n $fst ]] && hier=0 # waveforms inside the nodes need a flat build
# bytes with a K/M/G suffix, as multitree takes them; the harness wants a number
case $bytes in
  *[kK]) nbytes=$((${bytes%?} * 1024)) ;; *[mM]) nbytes=$((${bytes%?} * 1048576)) ;;
  *[gG]) nbytes=$((${bytes%?} * 1073741824)) ;; *) nbytes=$((bytes)) ;;
esac 2>/dev/null || die "--bytes $bytes: a number, optionally with K, M or G"
cfgfile=$config
[[ $config == */* || $config == *.cfg ]] || cfgfile=configs/net/$config.cfg
[[ -r $cfgfile ]] || die "--config $config: $cfgfile: cannot read it (small, paper or a .cfg file)"
name=$(printf '%s_%s_%s_%s_%s_s%s' "$topo" "$algo" "$nbytes" "$flow" "$dtype" "$seed" | tr ':/' '__')
out=$BUILD/rtlsim/$name
mkdir -p "$out"
setargs=()
for kv in "${sets[@]+"${sets[@]}"}"; do setargs+=(--set "$kv"); done

# (1) the C model: checks every argument, gives the cycles to compare with; without the NI
# stager, which the RTL NI does not have yet (docs/reference/ni.md "Staging")
simlog=$out/sim.log
"$MT" sim --topo "$topo" --algo "$algo" --bytes "$nbytes" --dtype "$dtype" --flow "$flow" --config "$config" \
  "${setargs[@]+"${setargs[@]}"}" --set ni_stage_after=0 --seed "$seed" >"$simlog" 2>&1
simrc=$?
c_cycles=$(sed -n 's/^sim: .* \([0-9][0-9]*\) cycles, .*/\1/p' "$simlog" | head -1)
if [[ $simrc -ne 0 && -z $c_cycles ]]; then
  cat "$simlog" >&2
  die "multitree sim refused or failed the run (above); the RTL run needs the same arguments"
fi

# the configuration's values: shape keys become -G parameters, run-time keys harness options
declare -A cv
while read -r kv; do
  k=${kv#-DCFG_}; k=${k%%=*}; v=${kv#*=}; cv[${k,,}]=${v//\\\"/}
done < <("$MT" shape --cflags "$cfgfile" | tr ' ' '\n' | grep '^-DCFG_')
for kv in "${sets[@]+"${sets[@]}"}"; do cv[${kv%%=*}]=${kv#*=}; done
spec="topo=$topo base=small max_bytes=$nbytes algos=$algo"
for k in "${!cv[@]}"; do
  case $k in
    name | clock_ghz | mem_p_ready | mem_lat_max | wd_limit | max_cycles) ;;
    payload_w) [[ ${cv[$k]} == 128 ]] || die "payload_w=${cv[$k]}: the RTL network is built for 128" ;;
    local_ports) [[ ${cv[$k]} == 0 || ${cv[$k]} == 4 ]] || die "local_ports=${cv[$k]}: the RTL network has L = 4" ;;
    *) spec="$spec $k=${cv[$k]}" ;;
  esac
done
run=(--algo "$algo" --bytes "$nbytes" --dtype "$dtype" --flow "$flow" --seed "$seed" --mem-ready "${cv[mem_p_ready]}"
  --mem-lat "${cv[mem_lat_max]}" --wd-limit "${cv[wd_limit]}" --max-cycles "${cv[max_cycles]}" --name "$name")

# (2) the ROM images
if [[ -z $rom ]]; then
  rom=$out/rom
  rm -rf "$rom"
  "$MT" rom --topo "$topo" --algo "$algo" --bytes "$nbytes" --format hex --out "$rom" || die "multitree rom failed"
fi
[[ -d $rom ]] || die "--rom $rom: not a directory"

# (3) the Verilated network of this shape (cached)
flags=$("$PARAMS" --shape "$spec") || die "the RTL network cannot be built for this run (shape: $spec)"
if [[ -z $bin ]]; then
  trace=""
  [[ -n $fst ]] && trace=--trace-fst
  tag=$(printf '%s|%s|%s|%s' "$flags" "$copt" "$hier" "$trace" | sha1sum | cut -c1-10)
  mdir=$BUILD/rtlsim/obj_$(tr ':' '_' <<<"$topo")_$tag
  bin=$mdir/cosim_net
  stale=""
  if [[ -x $bin ]]; then
    stale=$(find rtl tb/cosim/cosim_net.cpp tb/cosim/cosim_net.vlt scripts/net_verilate.sh "$BUILD/libmt.a" -newer "$bin" \
      -type f 2>/dev/null | head -1)
  fi
  if [[ ! -x $bin || -n $stale ]]; then
    echo "rtl-sim: building the Verilated network ($([[ $hier == 1 ]] && echo hierarchical || echo flat), C++ $copt${trace:+, FST}) in $mdir${stale:+ ($stale changed)}"
    rm -rf "$mdir"
    nice scripts/net_verilate.sh "$mdir" "$hier" "$copt" $trace $flags || die "Verilator build failed ($mdir.build.log)"
  else
    echo "rtl-sim: reusing $mdir"
  fi
fi
[[ -x $bin ]] || die "--bin $bin: not an executable"
# a given build must have this configuration's network (the harness checks the table layout)
have=$("$bin" --shape) || die "--bin $bin: --shape failed"
for m in NumVcs:num_vcs VcDepth:vc_depth EjDepth:ej_depth LinkLat:link_lat SubPktFlits:subpkt_flits PktBytes:pkt_bytes SQ:ni_sq RQ:ni_rq AluPipe:ni_alu_pipe; do
  want=$(sed -n "s/.*-G${m%%:*}=\([0-9]*\).*/\1/p" <<<"$flags")
  got=$(sed -n "s/.* ${m#*:}=\([0-9]*\).*/\1/p" <<<"$have")
  [[ $want == "$got" ]] || die "--bin $bin: its ${m#*:} is ${got:-unknown}, this configuration needs $want (without --bin it is built)"
done

# (4) the RTL alone
fstargs=()
[[ -n $fst ]] && fstargs=(--fst "$fst")
[[ -n $fst_nodes ]] && fstargs+=(--fst-nodes "$fst_nodes")
log=$out/rtl.log
"$bin" --rom "$rom" "${run[@]}" "${fstargs[@]+"${fstargs[@]}"}" >"$log" 2>&1
rc=$?
grep -v '^RESULT ' "$log"
r_cycles=$(sed -n 's/^cycles: RTL \([0-9][0-9]*\).*/\1/p' "$log")
words=$(sed -n 's/.* = \([0-9][0-9]*\) words checked against mt_ref_result, \([0-9][0-9]*\) differ$/\1 \2/p' "$log")
res=$(grep -E '^RESULT ' "$log" | tail -1)
fail=0
[[ $rc -eq 0 && $res == *" fail=0" ]] || fail=1
echo "C model: $(grep -m1 '^sim: ' "$simlog")"
if [[ -n $r_cycles && -n $c_cycles && $r_cycles == "$c_cycles" ]]; then
  echo "cycles: RTL $r_cycles, multitree sim $c_cycles: equal"
  echo "RESULT rtl_sim_cycles_$name pass=1 fail=0"
elif [[ -z $r_cycles ]]; then
  echo "cycles: the RTL did not run (above); multitree sim ${c_cycles:-failed too}"
  echo "RESULT rtl_sim_cycles_$name pass=0 fail=1"
  fail=1
else
  echo "cycles: RTL $r_cycles, multitree sim ${c_cycles:-none}: DIFFERENT"
  echo "RESULT rtl_sim_cycles_$name pass=0 fail=1"
  fail=1
fi
[[ -n $res ]] && echo "$res"
# a gtkwave save file beside the FST: the first traced node's control signals (NI status,
# local ports, memory ports); `gtkwave FILE.gtkw` opens both
if [[ -n $fst && -f $fst ]]; then
  gn=${fst_nodes%%,*}
  gn=${gn:-0}
  mp=$(sed -n 's/.*-GMemPorts=\([0-9]*\).*/\1/p' <<<"$flags")
  mp=${mp:-1}
  s="TOP.mt_net_top.g_node[$gn].u_node"
  {
    echo "[dumpfile] \"$(realpath "$fst")\""
    echo "[savefile] \"$(realpath "${fst%.fst}").gtkw\""
    echo "[treeopen] TOP."
    echo "[treeopen] TOP.mt_net_top."
    echo "[treeopen] $s."
    echo "@28"
    for sig in clk_i rst_ni "start_i[0:0]" "busy_o[0:0]" "done_o[0:0]" "err_o[0:0]"; do echo "$s.$sig"; done
    echo "@22"
    for sig in "err_code_o[3:0]" "step_o[15:0]" "idx_o[15:0]" "st_o[2:0]" "inj_valid_o[3:0]" "ej_valid_o[3:0]" \
      "mem_req_valid_o[$((mp - 1)):0]" "mem_rsp_valid_i[$((mp - 1)):0]"; do echo "$s.$sig"; done
  } >"${fst%.fst}.gtkw"
fi
w=${words% *}; d=${words#* }
fstmsg=""
[[ -n $fst && -f $fst ]] && fstmsg=", FST $fst ($(stat -c %s "$fst") bytes${fst_nodes:+, nodes $fst_nodes}; gtkwave ${fst%.fst}.gtkw)"
if [[ $fail -eq 0 ]]; then
  echo "rtl-sim: $topo $algo $nbytes B $dtype $flow, ROM $rom: $r_cycles cycles (= multitree sim), ${w:-0} words equal to the reference$fstmsg: passed"
  exit 0
fi
echo "rtl-sim: $topo $algo $nbytes B $dtype $flow, ROM $rom: FAILED (${w:+$d of $w words differ from the reference; }log $log)"
exit 1
