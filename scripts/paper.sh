#!/usr/bin/env bash
# paper.sh [BIN]: the paper's experiments with `multitree sim --config paper`:
#   Fig. 9  all-reduce bandwidth against size (FIG9_SIZES) on FIG9_TOPOS for ring, dbtree,
#           ring2d (256-byte packets, as the paper's baselines), MultiTree with packets and
#           MultiTree with message-based flow control;
#   Fig. 9c/9d the same on switch networks (FIG9SW_TOPOS: DGX-2-like, 8-ary 2-level fat-tree,
#           BiGraph 4x8 and 4x16; docs/switch.md) for ring, dbtree, hdrm (where the planner
#           accepts it: BiGraph), MultiTree with packets and with messages (FIG9SW_VARIANTS);
#   Fig. 10 weak scaling, FIG10_KIB*N KiB (paper: 375) on N-node tori (FIG10_TOPOS), normalised
#           to ring at 16 nodes.
# Writes build/paper/fig9.csv, fig9sw.csv, fig10.csv and PNG plots (gnuplot).
# Every run checks its own result (a wrong result is an error, never a number).
# (An empty FIG9_TOPOS, FIG9SW_TOPOS or FIG10_TOPOS skips that figure.)
# Env: JOBS (parallel runs, default 2), FIG9_SIZES, FIG9_TOPOS, FIG9SW_TOPOS, FIG9SW_SIZES
# (default FIG9_SIZES), FIG10_TOPOS, FIG10_KIB, SEED, EXTRA (sim flags), OUT (default
# build/paper), VARIANTS (Fig. 9 algorithm:flow list), FIG9SW_VARIANTS.
# A switch-network run that sim refuses because the NI stager's staging area (one buffer per
# child slot) would pass the NI's 32-bit addresses (MultiTree at 64 MiB on 64 nodes) is run
# again without the stager (--set ni_stage_after=0); fig9sw.csv says so in its `note` column.
set -u
BIN=${1:-build/multitree}
OUT=${OUT:-build/paper}; mkdir -p "$OUT/runs"
JOBS=${JOBS:-2}
FIG9_SIZES=${FIG9_SIZES-"32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M"}
FIG9_TOPOS=${FIG9_TOPOS-"torus:4x4 torus:8x8 mesh:4x4 mesh:8x8"}
FIG9SW_TOPOS=${FIG9SW_TOPOS-"dgx2 fattree:8,2 bigraph:4x8 bigraph:4x16"}
FIG9SW_SIZES=${FIG9SW_SIZES-$FIG9_SIZES}
FIG9SW_VARIANTS=${FIG9SW_VARIANTS-"ring:packet dbtree:packet hdrm:packet multitree:packet multitree:message"}
FIG10_TOPOS=${FIG10_TOPOS-"torus:4x4 torus:6x6 torus:8x8 torus:10x10 torus:12x12 torus:14x14 torus:16x16"}
FIG10_KIB=${FIG10_KIB:-375}
SEED=${SEED:-1}
EXTRA=${EXTRA:-}
VARIANTS=${VARIANTS-"ring:packet dbtree:packet ring2d:packet multitree:packet multitree:message"}

tokb() { case $1 in *K) echo $(( ${1%K} * 1024 ));; *M) echo $(( ${1%M} * 1048576 ));; *) echo "$1";; esac; }
jobs_file=$OUT/jobs.txt; : >"$jobs_file"
for topo in $FIG9_TOPOS; do for size in $FIG9_SIZES; do for v in $VARIANTS; do
  echo "fig9 $topo ${v%%:*} ${v##*:} $(tokb "$size")" >>"$jobs_file"; done; done; done
# switch networks: only the algorithms the planner accepts there (hdrm: BiGraph only)
for topo in $FIG9SW_TOPOS; do for size in $FIG9SW_SIZES; do for v in $FIG9SW_VARIANTS; do
  "$BIN" plan --topo "$topo" --algo "${v%%:*}" --bytes 32K >/dev/null 2>&1 || continue
  echo "fig9sw $topo ${v%%:*} ${v##*:} $(tokb "$size")" >>"$jobs_file"; done; done; done
for topo in $FIG10_TOPOS; do
  n=$(( $(echo "${topo#torus:}" | cut -dx -f1) * $(echo "${topo#torus:}" | cut -dx -f2) ))
  for v in ring:packet ring2d:packet multitree:message; do echo "fig10 $topo ${v%%:*} ${v##*:} $((FIG10_KIB * 1024 * n))" >>"$jobs_file"; done
done
run_one() {
  set -- $1
  local fig=$1 topo=$2 algo=$3 flow=$4 bytes=$5
  local tag="${fig}_${topo//[:,]/_}_${algo}_${flow}_${bytes}"
  local json="$OUT/runs/$tag.json" more=""
  if [[ -s $json && $json -nt $BIN ]]; then return 0; fi   # resume: runs newer than the binary are kept
  rm -f "$OUT/runs/$tag.nostage"
  local t0=$SECONDS
  for try in 1 2; do
    if "$BIN" sim --topo "$topo" --algo "$algo" --bytes "$bytes" --flow "$flow" --config paper --seed "$SEED" $EXTRA $more \
         --json "$json.tmp" >"$OUT/runs/$tag.log" 2>&1; then mv "$json.tmp" "$json"; echo "ok   $tag ($((SECONDS - t0)) s)"; return 0; fi
    rm -f "$json.tmp"
    [[ $fig == fig9sw && $try == 1 ]] && grep -q "does not fit the NI's 32-bit addresses" "$OUT/runs/$tag.log" || break
    more="--set ni_stage_after=0"; echo "stager off (staging area > 4 GiB)" >"$OUT/runs/$tag.nostage"
  done
  echo "FAIL $tag ($((SECONDS - t0)) s, see $OUT/runs/$tag.log)"
}
export -f run_one; export BIN OUT SEED EXTRA
echo "paper: $(wc -l <"$jobs_file") runs, $JOBS at a time"
xargs -P "$JOBS" -I{} bash -c 'run_one "$@"' _ {} <"$jobs_file"
# CSV from the run files (jansson-free: the sim JSON is one flat line; a string value runs to
# its closing quote, a number or true/false to the next comma or brace). fig9sw.csv quotes
# the topology (fattree:8,2 holds a comma) and adds a `note` column: "stager off ..." or the
# NI stager's "N units staged out at M nodes" (sim's output; docs/ni.md "Staging").
field() { sed -n -e "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p; t" -e "s/.*\"$2\":\([^,}]*\).*/\1/p" "$1"; }
for fig in fig9 fig9sw fig10; do
  [[ $fig == fig9sw ]] && q='"' note=",note" || q="" note=""
  echo "topology,algorithm,flow,bytes,cycles,gbps,lower_bound_fraction,correct$note" >"$OUT/$fig.csv"
  for j in "$OUT"/runs/${fig}_*.json; do
    [[ -e $j ]] || continue
    n=""; [[ -n $note ]] && n=",$(cat "${j%.json}.nostage" 2>/dev/null)$(sed -n 's/^sim: NI stager.*): \([0-9]* units staged out at [0-9]* nodes\).*/\1/p' "${j%.json}.log")"
    t=$(field "$j" topology)
    echo "$q${t//,/;}$q,$(field "$j" algorithm),$(field "$j" flow),$(field "$j" bytes),$(field "$j" cycles),$(field "$j" gbps),$(field "$j" lower_bound_fraction),$(field "$j" correct)$n"
  done | sort -t, -k1,1 -k2,2 -k3,3 -k4,4n | sed 's/^\("[^";]*\);/\1,/' >>"$OUT/$fig.csv"   # sorted with ';' in place of the comma
done
scripts/paper_plots.sh "$OUT"
