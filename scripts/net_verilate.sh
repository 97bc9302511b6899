#!/usr/bin/env bash
# net_verilate.sh MDIR HIER COPT FLAGS...: one Verilator build of the RTL network co-simulation
# (tb/cosim/cosim_net.cpp on rtl/mt_net_top.sv) into MDIR; FLAGS are a shape's -G/-CFLAGS
# (build/net/cosim_net_params). Environment (set by mk/net.mk): NET_VERILATE (the verilator
# command), NET_VSRC (sources: tb/cosim/cosim_net.vlt, rtl/*.sv, the harness), NET_TOP.
#   HIER=0  flat: every node in one model (cosim_net.vlt: mt_node not inlined). Verilator 5.006
#           still writes every node's logic as its own C++ functions, so the C++ grows with
#           the node count (8x8 paper shape: ~40 minutes).
#   HIER=1  hierarchical: mt_node is Verilated once as a library (--hierarchical, hier_block)
#           and instantiated N times; the build time does not grow with the node count. The
#           children of a hierarchical build are given the command line's -G flags too and
#           refuse those of the top alone (NX, NY, LinkLat: "Parameters from the command line
#           were not found"), so these three are written as the defaults of a copy of
#           mt_net_top.sv in MDIR instead. No waveforms of signals inside a node (Verilator).
#   HIER=2  DPI-stepped nodes: mt_node Verilated alone (one C++ model, MDIR/node), the top
#           with a generated mt_node that steps one such model per node, once per rising edge
#           (scripts/net_dpi_node.py); Verilator's hierarchical wrapper evaluates a node five
#           times per cycle. No waveforms inside a node. The fastest to run
#           (docs/results/bench.md "RTL simulation speed"). NET_PGO=ARGS: the node's C++
#           profile-guided (a training run of cosim_net ARGS in between, below).
#   A switch network (FLAGS with -GSwPorts=..., rtl/mt_swnet_top.sv, docs/reference/switch.md) is always
#           built with its NIs (mt_ni) and switches (mt_router) as hierarchy blocks; none of
#           them has the top's parameters, so every -G flag becomes a default of a copy of
#           mt_swnet_top.sv (with the parameter files it includes written into it).
# C++ optimisation COPT for the model (OPT_FAST, OPT_GLOBAL); the run-once code at -O0.
# Prints "MDIR: Verilator build S s"; the log is MDIR.build.log.
set -u
mdir=$1; hier=$2; copt=$3; shift 3
: "${NET_VERILATE:?set by mk/net.mk}" "${NET_VSRC:?}" "${NET_TOP:?}"
flags="$*"
vsrc=$NET_VSRC
mkdir -p "$mdir"
log=$mdir.build.log
: >"$log"
t0=$(date +%s)
verilate=$NET_VERILATE
# LinkLat = 1: every mt_link is a wire, and Verilator takes every output of a hierarchy block
# as combinational from all its inputs (its *_combo__V wrappers), so node -> wire -> node
# closes loops that the registered outputs do not have: UNOPTFLAT (fatal with -Wall) waived
# in such a build (a switch network's is reported in Verilator's wrappers of the blocks,
# which a -file waiver in hier.vlt did not reach; a real loop in rtl/ still fails every
# flat build and every build with LinkLat > 1); the co-simulation compares every cycle
wire_links() {
  if [[ $1 == 1 ]]; then printf 'lint_off -rule UNOPTFLAT\n' >>"$mdir/hier.vlt"; fi
}
if [[ $flags == *-GSwPorts=* ]]; then
  verilate=${verilate/--top-module mt_net_top/--top-module mt_swnet_top}
  top=$mdir/mt_swnet_top.sv
  # the top with its `include'd parameter lists in place
  awk -v rtl="$NET_TOP/rtl" '/^`include "mt_(node|ni_layout)_params\.svh"$/ { f = $2; gsub(/"/, "", f); while ((getline l < (rtl "/" f)) > 0) print l; next } { print }' \
    "$NET_TOP/rtl/mt_swnet_top.sv" >"$top"
  rest=""
  for f in $flags; do
    if [[ $f =~ ^-G([A-Za-z0-9_]+)=(.*)$ ]]; then
      k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
      grep -Eq "^ *parameter +(int +|logic +\[[^]]*\] +)?$k +=" "$top" ||
        { echo "net_verilate.sh: mt_swnet_top has no parameter $k" >&2; exit 1; }
      sed -E -i "s/^( *parameter +(int +|logic +\[[^]]*\] +)?$k +=) *[^,]*,/\1 $v,/" "$top"
    else
      rest="$rest $f"
    fi
  done
  flags=$rest
  # the NI and the switches as hierarchy blocks; Verilator renames a block of each parameter
  # set (mt_router_N), hence DECLFILENAME
  printf '`verilator_config\nhier_block -module "mt_ni"\nhier_block -module "mt_router"\nlint_off -rule DECLFILENAME -file "*/mt_ni.sv"\nlint_off -rule DECLFILENAME -file "*/mt_router.sv"\n' >"$mdir/hier.vlt"
  wire_links "$(sed -n 's/.*-GLinkLat=\([0-9][0-9]*\).*/\1/p' <<<"$*")"
  vsrc=$(sed -e "s#$NET_TOP/tb/cosim/cosim_net.vlt#$mdir/hier.vlt#" -e "s#$NET_TOP/rtl/mt_swnet_top.sv#$top#" <<<"$vsrc")
  flags="--hierarchical $flags"
elif [[ $hier == 2 ]]; then
  # DPI-stepped nodes (scripts/net_dpi_node.py): mt_node Verilated alone into MDIR/node (its
  # -G flags: the shape's, without the top's NX/NY/NZ/LinkLat/LinkLats, with D and K0..K2),
  # then the top with a generated mt_node that steps one such model per node
  get() { sed -n "s/.*-G$1=\([0-9][0-9]*\).*/\1/p" <<<"$flags"; }
  nx=$(get NX); ny=$(get NY); nz=$(get NZ); nz=${nz:-1}
  if [[ -z $nx || -z $ny ]]; then echo "net_verilate.sh: no -GNX/-GNY in the flags" >&2; exit 1; fi
  nflags="-GD=$( ((nz > 1)) && echo 3 || echo 2) -GK0=$nx -GK1=$ny -GK2=$nz"
  skip=0
  for f in $flags; do
    if [[ $skip == 1 ]]; then skip=0; continue; fi
    case $f in
      -CFLAGS) skip=1 ;;
      -GNX=* | -GNY=* | -GNZ=* | -GLinkLat=* | -GLinkLats=* | --trace*) ;;
      *) nflags="$nflags $f" ;;
    esac
  done
  amdir=$(cd "$mdir" && pwd)  # the top's make runs in MDIR
  nsrc=$(tr ' ' '\n' <<<"$NET_VSRC" | grep -E '/rtl/[^/]*\.sv$' | grep -v -e '/mt_net_top\.sv$' -e '/mt_swnet_top\.sv$' | tr '\n' ' ')
  t0n=$(date +%s)
  # the model's top: mt_node with its slow inputs through registers (net_dpi_node.py --cfg)
  python3 "$NET_TOP/scripts/net_dpi_node.py" --cfg "$NET_TOP/rtl/mt_node.sv" "$amdir/mt_node_cfg.sv" ||
    { echo "net_verilate.sh: net_dpi_node.py --cfg failed" >&2; exit 1; }
  nsrc="$nsrc $amdir/mt_node_cfg.sv"
  ncmd="${verilate%% *} --cc --build -j 2 -Wall -O3 --x-assign fast --x-initial fast --top-module mt_node_cfg --prefix Vmt_node \
    -I$NET_TOP/rtl -Mdir $(printf %q "$amdir/node") $nflags -CFLAGS $(printf %q "$copt") \
    -MAKEFLAGS $(printf %q "OPT_FAST=$copt OPT_SLOW=-O0 OPT_GLOBAL=$copt") $nsrc"
  echo "$ncmd" >>"$log"
  eval "$ncmd" >>"$log" 2>&1 || { tail -30 "$log"; exit 1; }
  echo "net_verilate.sh: node model built in $(($(date +%s) - t0n)) s" >>"$log"
  python3 "$NET_TOP/scripts/net_dpi_node.py" "$amdir/node/Vmt_node.h" "$NET_TOP/rtl/mt_node.sv" "$amdir/mt_node.sv" "$amdir/mt_node_dpi.cpp" ||
    { echo "net_verilate.sh: net_dpi_node.py failed" >&2; exit 1; }
  vsrc=$(sed -e "s#$NET_TOP/rtl/mt_node.sv#$amdir/mt_node.sv#" <<<"$vsrc")
  vsrc="$vsrc $amdir/mt_node_dpi.cpp"
  # -fno-assemble (no merging of adjacent assignments in the top) is how these builds were
  # measured and co-simulated; it did not remove the O(N^2) concatenations of the flat outputs
  # (at 8x8 a fifth of the time): rtl/mt_net_top.sv's gathering through arrays did
  flags="-fno-assemble $flags -CFLAGS -I$(printf %q "$amdir/node") -LDFLAGS $(printf %q "$amdir/node/Vmt_node__ALL.a")"
  # NET_THREADS > 1: the top's model on that many threads, the nodes' steps (DPI calls, each on
  # its own model and context) among them; UNOPTTHREADS (Verilator finds less parallel work
  # than threads, e.g. in small nodes) is a speed remark, not a fault
  if [[ ${NET_THREADS:-1} -gt 1 ]]; then
    verilate=${verilate/--threads 1/--threads $NET_THREADS --threads-dpi all -Wno-UNOPTTHREADS}
  fi
elif [[ $hier == 1 ]]; then
  get() { sed -n "s/.*-G$1=\([0-9][0-9]*\).*/\1/p" <<<"$flags"; }
  nx=$(get NX); ny=$(get NY); ll=$(get LinkLat); nz=$(get NZ); nz=${nz:-1}
  if [[ -z $nx || -z $ny || -z $ll ]]; then echo "net_verilate.sh: no -GNX/-GNY/-GLinkLat in the flags" >&2; exit 1; fi
  # LinkLats (per-dimension latencies, a literal 96\'hX with the quote escaped for the eval below) likewise
  lls=$(sed -n "s/.*-GLinkLats=96\\\\'h\([0-9a-f]*\).*/\1/p" <<<"$flags")
  flags=$(sed -e 's/-GNX=[0-9]* *//' -e 's/-GNY=[0-9]* *//' -e 's/-GNZ=[0-9]* *//' -e 's/-GLinkLat=[0-9]* *//' -e "s/-GLinkLats=96\\\\'h[0-9a-f]* *//" <<<"$flags")
  sed -E -e "s/^( *parameter int NX +)= *[0-9]+,/\1= $nx,/" -e "s/^( *parameter int NY +)= *[0-9]+,/\1= $ny,/" \
    -e "s/^( *parameter int NZ +)= *[0-9]+,/\1= $nz,/" \
    -e "s/^( *parameter int LinkLat +)= *[0-9]+,/\1= $ll,/" "$NET_TOP/rtl/mt_net_top.sv" >"$mdir/mt_net_top.sv"
  if [[ -n $lls ]]; then
    sed -E -i "s/^( *parameter logic \[95:0\] LinkLats += *)96'h[0-9a-fA-F]+,/\196'h$lls,/" "$mdir/mt_net_top.sv"
    grep -q "parameter logic \[95:0\] LinkLats = 96'h$lls," "$mdir/mt_net_top.sv" ||
      { echo "net_verilate.sh: could not set the default of LinkLats in a copy of rtl/mt_net_top.sv" >&2; exit 1; }
  fi
  for kv in "NX = $nx" "NY = $ny" "NZ = $nz" "LinkLat = $ll"; do
    grep -Eq "parameter int ${kv%% *} += ${kv##* }," "$mdir/mt_net_top.sv" ||
      { echo "net_verilate.sh: could not set the default of ${kv%% *} in a copy of rtl/mt_net_top.sv" >&2; exit 1; }
  done
  # the node as a hierarchy block; Verilator renames its copy (mt_node_N), hence DECLFILENAME
  printf '`verilator_config\nhier_block -module "mt_node"\nlint_off -rule DECLFILENAME -file "*/mt_node.sv"\n' >"$mdir/hier.vlt"
  wire_links "$ll"
  vsrc=$(sed -e "s#$NET_TOP/tb/cosim/cosim_net.vlt#$mdir/hier.vlt#" -e "s#$NET_TOP/rtl/mt_net_top.sv#$mdir/mt_net_top.sv#" <<<"$vsrc")
  flags="--hierarchical $flags"
fi
# NET_VERILATE is shell text (it quotes its -LDFLAGS), hence eval; the flag and source lists
# are words without quotes
cmd="$verilate -Mdir $(printf %q "$mdir") $flags -CFLAGS $(printf %q "$copt -I$NET_TOP/cmodel") \
  -MAKEFLAGS $(printf %q "OPT_FAST=$copt OPT_SLOW=-O0 OPT_GLOBAL=$copt") $vsrc"
echo "$cmd" >>"$log"
# A hierarchical build is tried twice. Verilator 5.006's generated <top>_hier.mk verilates
# each hierarchy block with a rule of two targets (`Vmt_node_2/mt_node_2.sv
# Vmt_node_2/Vmt_node_2.mk: ...`), which make does not group: under --build -j 2 it may run
# that verilation twice at once, one run rewriting the block's C++ while the other's make
# compiles it (seen in fresh-clone make test runs under load: Vmt_node_2.cpp failed to
# compile with sources identical to a good build's; Vmt_router_7's C++ cut short and then no
# Vmt_swnet_top.mk). So a second try starts from nothing Verilator wrote (the V* files and
# folders, the objects) and runs make with -j 1, where the race cannot happen; a real error
# fails both tries.
try=1
while ! eval "$cmd" >>"$log" 2>&1; do
  if [[ $flags == *--hierarchical* && $try == 1 ]]; then
    try=2
    echo "net_verilate.sh: the hierarchical build failed; trying once more from scratch with -j 1 (Verilator's two-target verilation rule, above)" >>"$log"
    rm -rf "$mdir"/V* "$mdir"/*.o "$mdir"/*.d "$mdir"/cosim_net
    cmd=${cmd/--build -j 2/--build -j 1}
    continue
  fi
  tail -30 "$log"
  exit 1
done
note=""; [[ $try == 2 ]] && note=" (second try)"
if [[ $hier == 2 && -n ${NET_PGO:-} ]]; then
  # profile-guided C++ of the node model (DPI-stepped builds): the node compiled with
  # -fprofile-generate, one training run of cosim_net with the arguments NET_PGO, the node
  # compiled again with -fprofile-use, the binary linked again
  nmake() { make -C "$amdir/node" -f Vmt_node.mk -j 1 OPT_SLOW=-O0 OPT_GLOBAL="$copt" OPT_FAST="$copt $1" >>"$log" 2>&1; }
  tmake() { rm -f "$mdir/cosim_net"; make -C "$mdir" -f Vmt_net_top.mk -j 1 "$@" >>"$log" 2>&1; }
  rm -f "$amdir"/node/*.o "$amdir"/node/*.a "$amdir"/node/*.gcda
  nmake "-fprofile-generate -fprofile-update=single" && tmake LDFLAGS=-fprofile-generate ||
    { tail -30 "$log"; exit 1; }
  echo "net_verilate.sh: PGO training: cosim_net $NET_PGO" >>"$log"
  (cd "$mdir" && eval "./cosim_net $NET_PGO") >>"$log" 2>&1
  ls "$amdir"/node/*.gcda >/dev/null 2>&1 || { echo "net_verilate.sh: the PGO training run wrote no profile" >&2; tail -30 "$log"; exit 1; }
  rm -f "$amdir"/node/*.o "$amdir"/node/*.a
  nmake "-fprofile-use -fprofile-correction -Wno-missing-profile" && tmake || { tail -30 "$log"; exit 1; }
  note="$note (PGO)"
fi
echo "$(basename "$mdir"): Verilator build $(($(date +%s) - t0)) s$note"
