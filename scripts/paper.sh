#!/usr/bin/env bash
# paper.sh [BIN]: the paper's experiments with `multitree sim --config paper`:
#   Fig. 9  all-reduce bandwidth against size (FIG9_SIZES) on FIG9_TOPOS for ring, dbtree,
#           ring2d (256-byte packets, as the paper's baselines), MultiTree with packets and
#           MultiTree with message-based flow control;
#   Fig. 10 weak scaling, FIG10_KIB*N KiB (paper: 375) on N-node tori (FIG10_TOPOS), normalised
#           to ring at 16 nodes.
# Writes build/paper/fig9.csv, fig10.csv, PNG plots (gnuplot) and build/paper/results.md.
# Every run checks its own result (a wrong result is an error, never a number).
# (An empty FIG9_TOPOS or FIG10_TOPOS skips that figure.)
# Env: JOBS (parallel runs, default 2), FIG9_SIZES, FIG9_TOPOS, FIG10_TOPOS, FIG10_KIB, SEED,
# EXTRA (sim flags), OUT (default build/paper), VARIANTS (Fig. 9 algorithm:flow list).
set -u
BIN=${1:-build/multitree}
OUT=${OUT:-build/paper}; mkdir -p "$OUT/runs"
JOBS=${JOBS:-2}
FIG9_SIZES=${FIG9_SIZES-"32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M"}
FIG9_TOPOS=${FIG9_TOPOS-"torus:4x4 torus:8x8 mesh:4x4 mesh:8x8"}
FIG10_TOPOS=${FIG10_TOPOS-"torus:4x4 torus:6x6 torus:8x8 torus:10x10 torus:12x12 torus:14x14 torus:16x16"}
FIG10_KIB=${FIG10_KIB:-375}
SEED=${SEED:-1}
EXTRA=${EXTRA:-}
VARIANTS=${VARIANTS-"ring:packet dbtree:packet ring2d:packet multitree:packet multitree:message"}

tokb() { case $1 in *K) echo $(( ${1%K} * 1024 ));; *M) echo $(( ${1%M} * 1048576 ));; *) echo "$1";; esac; }
jobs_file=$OUT/jobs.txt; : >"$jobs_file"
for topo in $FIG9_TOPOS; do for size in $FIG9_SIZES; do for v in $VARIANTS; do
  echo "fig9 $topo ${v%%:*} ${v##*:} $(tokb "$size")" >>"$jobs_file"; done; done; done
for topo in $FIG10_TOPOS; do
  n=$(( $(echo "${topo#torus:}" | cut -dx -f1) * $(echo "${topo#torus:}" | cut -dx -f2) ))
  for v in ring:packet ring2d:packet multitree:message; do echo "fig10 $topo ${v%%:*} ${v##*:} $((FIG10_KIB * 1024 * n))" >>"$jobs_file"; done
done
run_one() {
  set -- $1
  local fig=$1 topo=$2 algo=$3 flow=$4 bytes=$5
  local tag="${fig}_${topo//:/_}_${algo}_${flow}_${bytes}"
  local json="$OUT/runs/$tag.json"
  if [[ -s $json && $json -nt $BIN ]]; then return 0; fi   # resume: runs newer than the binary are kept
  if "$BIN" sim --topo "$topo" --algo "$algo" --bytes "$bytes" --flow "$flow" --config paper --seed "$SEED" $EXTRA \
       --json "$json.tmp" >"$OUT/runs/$tag.log" 2>&1; then mv "$json.tmp" "$json"; echo "ok   $tag"
  else echo "FAIL $tag (see $OUT/runs/$tag.log)"; rm -f "$json.tmp"; fi
}
export -f run_one; export BIN OUT SEED EXTRA
echo "paper: $(wc -l <"$jobs_file") runs, $JOBS at a time"
xargs -P "$JOBS" -I{} bash -c 'run_one "$@"' _ {} <"$jobs_file"
# CSV from the run files (jansson-free: the sim JSON is one flat line)
field() { sed -n "s/.*\"$2\":\"\{0,1\}\([^,\"}]*\).*/\1/p" "$1"; }
for fig in fig9 fig10; do
  echo "topology,algorithm,flow,bytes,cycles,gbps,lower_bound_fraction,correct" >"$OUT/$fig.csv"
  for j in "$OUT"/runs/${fig}_*.json; do
    [[ -e $j ]] || continue
    echo "$(field "$j" topology),$(field "$j" algorithm),$(field "$j" flow),$(field "$j" bytes),$(field "$j" cycles),$(field "$j" gbps),$(field "$j" lower_bound_fraction),$(field "$j" correct)"
  done | sort -t, -k1,1 -k2,2 -k3,3 -k4,4n >>"$OUT/$fig.csv"
done
scripts/paper_plots.sh "$OUT"
