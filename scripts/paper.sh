#!/usr/bin/env bash
# paper.sh [BIN]: the paper's experiments with `multitree sim --config paper`:
#   Fig. 9  all-reduce bandwidth against size (FIG9_SIZES) on FIG9_TOPOS for ring, dbtree,
#           ring2d (256-byte packets, as the paper's baselines), MultiTree with packets and
#           MultiTree with message-based flow control;
#   Fig. 9c/9d the same on switch networks (FIG9SW_TOPOS: DGX-2-like, 8-ary 2-level fat-tree,
#           BiGraph 4x8 and 4x16; docs/reference/switch.md) for ring, dbtree, hdrm (where the planner
#           accepts it: BiGraph), MultiTree with packets and with messages (FIG9SW_VARIANTS);
#   Fig. 10 weak scaling, FIG10_KIB*N KiB (paper: 375) on N-node tori (FIG10_TOPOS), normalised
#           to ring at 16 nodes.
# Writes OUT/jobs.txt (one run a line), OUT/runs/<run>.json and .log, then OUT/fig9.csv,
# fig9sw.csv, fig10.csv and PNG plots (gnuplot). Every run checks its own result (a wrong result
# is an error, never a number); exit status 1 if a run failed (the CSVs are written anyway).
# (An empty FIG9_TOPOS, FIG9SW_TOPOS or FIG10_TOPOS skips that figure.)
# The runs go through GNU parallel (docs/reference/sweeps.md): every core of this machine (JOBS: that
# many per host), other hosts with SSHLOGINS=FILE (its --sshloginfile; this repository and
# OUT at the same path there: a shared file system), resumable: OUT/joblog (--resume-failed)
# and a run whose JSON is newer than BIN is kept, so a second call redoes only what failed or
# did not finish.
#   paper.sh --slurm [BIN] > paper.sbatch   writes OUT/jobs.txt and prints a Slurm job array
#                                           script, one array task a line of it
#   paper.sh --merge                        CSVs and plots from OUT/runs alone (after Slurm),
#                                           and how many runs of OUT/jobs.txt have no result
#   paper.sh --run 'LINE'                   one line of OUT/jobs.txt (what parallel and the
#                                           array tasks call; BIN, OUT, SEED, EXTRA from env)
# Env: JOBS, SSHLOGINS, FIG9_SIZES, FIG9_TOPOS, FIG9SW_TOPOS, FIG9SW_SIZES (default
# FIG9_SIZES), FIG10_TOPOS, FIG10_KIB, FIG10_VARIANTS (Ring, 2D-Ring, MultiTree, MultiTreeMsg), SEED, EXTRA (sim flags), OUT (default build/paper),
# VARIANTS (Fig. 9 algorithm:flow list), FIG9SW_VARIANTS, MEMFREE (start a run only with that
# much memory free, e.g. 9G: GNU parallel's --memfree), SLURM_ARRAY_MAX (--slurm: at most that
# many tasks at once).
# A switch-network run that sim refuses because the NI stager's staging area (one buffer per
# child slot) would pass the NI's 32-bit addresses (MultiTree at 64 MiB on 64 nodes) is run
# again without the stager (--set ni_stage_after=0); fig9sw.csv says so in its `note` column.
set -u
set -u
me=$(realpath "$0")
mode=sweep
case ${1-} in --slurm | --merge | --run) mode=${1#--}; shift ;; esac
if [[ $mode == run ]]; then
  [[ -n ${BIN-} && -n ${OUT-} ]] || { echo "paper.sh --run: BIN and OUT must be set (paper.sh exports them)" >&2; exit 2; }
else
  BIN=$(realpath -m "${1:-build/multitree}")   # absolute: the runs may start elsewhere
  OUT=$(realpath -m "${OUT:-build/paper}")
fi
mkdir -p "$OUT/runs"
SEED=${SEED:-1}
EXTRA=${EXTRA:-}
jobs_file=$OUT/jobs.txt

# the run list, one run a line: "FIG TOPOLOGY ALGORITHM FLOW BYTES"
job_list() {
  local FIG9_SIZES=${FIG9_SIZES-"32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M"}
  local FIG9_TOPOS=${FIG9_TOPOS-"torus:4x4 torus:8x8 mesh:4x4 mesh:8x8"}
  local FIG9SW_TOPOS=${FIG9SW_TOPOS-"dgx2 fattree:8,2 bigraph:4x8 bigraph:4x16"}
  local FIG9SW_SIZES=${FIG9SW_SIZES-$FIG9_SIZES}
  local FIG9SW_VARIANTS=${FIG9SW_VARIANTS-"ring:packet dbtree:packet hdrm:packet multitree:packet multitree:message"}
  local FIG10_TOPOS=${FIG10_TOPOS-"torus:4x4 torus:6x6 torus:8x8 torus:10x10 torus:12x12 torus:14x14 torus:16x16"}
  local FIG10_KIB=${FIG10_KIB:-375}
  local FIG10_VARIANTS=${FIG10_VARIANTS-"ring:packet ring2d:packet multitree:packet multitree:message"}
  local VARIANTS=${VARIANTS-"ring:packet dbtree:packet ring2d:packet multitree:packet multitree:message"}
  local topo size v n
  tokb() { case $1 in *K) echo $((${1%K} * 1024)) ;; *M) echo $((${1%M} * 1048576)) ;; *) echo "$1" ;; esac; }
  for topo in $FIG9_TOPOS; do for size in $FIG9_SIZES; do for v in $VARIANTS; do
    echo "fig9 $topo ${v%%:*} ${v##*:} $(tokb "$size")"; done; done; done
  # switch networks: only the algorithms the planner accepts there (hdrm: BiGraph only)
  for topo in $FIG9SW_TOPOS; do for size in $FIG9SW_SIZES; do for v in $FIG9SW_VARIANTS; do
    "$BIN" plan --topo "$topo" --algo "${v%%:*}" --bytes 32K >/dev/null 2>&1 || continue
    echo "fig9sw $topo ${v%%:*} ${v##*:} $(tokb "$size")"; done; done; done
  for topo in $FIG10_TOPOS; do
    n=$(($(echo "${topo#torus:}" | cut -dx -f1) * $(echo "${topo#torus:}" | cut -dx -f2)))
    for v in $FIG10_VARIANTS; do echo "fig10 $topo ${v%%:*} ${v##*:} $((FIG10_KIB * 1024 * n))"; done
  done
}

run_tag() { local fig=$1 topo=$2 algo=$3 flow=$4 bytes=$5; echo "${fig}_${topo//[:,]/_}_${algo}_${flow}_${bytes}"; }

# run_one LINE: one run into OUT/runs/<tag>.json (written whole or not at all) and .log; exit 1
# if it failed
run_one() {
  local f
  read -ra f <<<"$1"
  [[ ${#f[@]} -eq 5 && ${f[0]} =~ ^fig(9|9sw|10)$ && ${f[4]} =~ ^[0-9]+$ ]] ||
    { echo "paper.sh --run: '$1' is not a run line (FIG TOPOLOGY ALGORITHM FLOW BYTES, FIG one of fig9 fig9sw fig10)" >&2; return 2; }
  local fig=${f[0]} topo=${f[1]} algo=${f[2]} flow=${f[3]} bytes=${f[4]}
  local tag
  tag=$(run_tag "${f[@]}")
  local json="$OUT/runs/$tag.json" more="" try t0=$SECONDS
  if [[ -s $json && $json -nt $BIN ]]; then echo "kept $tag"; return 0; fi   # resume: runs newer than the binary are kept
  rm -f "$OUT/runs/$tag.nostage"
  for try in 1 2; do
    # shellcheck disable=SC2086 # EXTRA and more are lists of flags
    if "$BIN" sim --topo "$topo" --algo "$algo" --bytes "$bytes" --flow "$flow" --config paper --seed "$SEED" $EXTRA $more \
      --json "$json.tmp" >"$OUT/runs/$tag.log" 2>&1; then
      mv "$json.tmp" "$json"; echo "ok   $tag ($((SECONDS - t0)) s)"; return 0
    fi
    rm -f "$json.tmp"
    [[ $fig == fig9sw && $try == 1 ]] && grep -q "does not fit the NI's 32-bit addresses" "$OUT/runs/$tag.log" || break
    more="--set ni_stage_after=0"; echo "stager off (staging area > 4 GiB)" >"$OUT/runs/$tag.nostage"
  done
  echo "FAIL $tag ($((SECONDS - t0)) s, see $OUT/runs/$tag.log)"
  return 1
}

# CSV from the run files (jansson-free: the sim JSON is one flat line; a string value runs to
# its closing quote, a number or true/false to the next comma or brace). fig9sw.csv quotes
# the topology (fattree:8,2 holds a comma) and adds a `note` column: "stager off ..." or the
# NI stager's "N units staged out at M nodes" (sim's output; docs/reference/ni.md "Staging").
field() { sed -n -e "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p; t" -e "s/.*\"$2\":\([^,}]*\).*/\1/p" "$1"; }
merge() {
  local fig q note j n t
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
  "$(dirname "$me")/paper_plots.sh" "$OUT"
}

# missing: the lines of OUT/jobs.txt without a result (printed), and their count (status)
missing() {
  local line miss=0
  [[ -s $jobs_file ]] || return 0
  while read -r line; do
    # shellcheck disable=SC2086 # the line's five words
    [[ -s $OUT/runs/$(run_tag $line).json ]] && continue
    miss=$((miss + 1)); echo "paper: no result: $line"
  done <"$jobs_file"
  echo "paper: $(($(wc -l <"$jobs_file") - miss)) of $(wc -l <"$jobs_file") runs of $jobs_file have a result"
  [[ $miss -eq 0 ]]
}

case $mode in
run) run_one "${1-}"; exit ;;
merge) merge; missing; exit ;;
esac

job_list >"$jobs_file"
njobs=$(wc -l <"$jobs_file")
q() { printf '%q' "$1"; }
if [[ $mode == slurm ]]; then
  [[ $njobs -gt 0 ]] || { echo "paper.sh --slurm: the figure selection gives no runs (an array of 0 tasks)" >&2; exit 2; }
  mkdir -p "$OUT/slurm"
  cat <<SBATCH
#!/usr/bin/env bash
# Written by scripts/paper.sh --slurm on $(date -u +%Y-%m-%d): the $njobs runs of $jobs_file as
# a Slurm job array, task K runs line K (docs/reference/sweeps.md). This repository, BIN and OUT must be
# at these paths on the compute nodes (a shared file system). A task whose result is already
# there (newer than BIN) ends at once. Submit: sbatch [--partition ... --time ... --mem ...] FILE
# Afterwards: OUT=$(q "$OUT") $(q "$me") --merge
#SBATCH --job-name=multitree-paper
#SBATCH --array=1-$njobs${SLURM_ARRAY_MAX:+%$SLURM_ARRAY_MAX}
#SBATCH --cpus-per-task=1
#SBATCH --output=$OUT/slurm/%A_%a.out
export BIN=$(q "$BIN") OUT=$(q "$OUT") SEED=$(q "$SEED") EXTRA=$(q "$EXTRA")
k=\${SLURM_ARRAY_TASK_ID:?not a Slurm array task}
line=\$(sed -n "\${k}p" "\$OUT/jobs.txt")
[[ -n \$line ]] || { echo "task \$k: \$OUT/jobs.txt has no line \$k" >&2; exit 2; }
exec $(q "$me") --run "\$line"
SBATCH
  exit 0
fi

# the job log serves --resume-failed only for the same run list, binary, seed and flags (GNU
# parallel resumes by line number): otherwise it is set aside as joblog.old
key=$({ cat "$jobs_file"; stat -c '%s %Y' "$BIN"; echo "$SEED $EXTRA"; } | cksum)
if [[ ! -s $OUT/joblog || $(cat "$OUT/joblog.key" 2>/dev/null) != "$key" ]]; then
  [[ -e $OUT/joblog ]] && mv "$OUT/joblog" "$OUT/joblog.old"
  echo "$key" >"$OUT/joblog.key"
fi
command -v parallel >/dev/null && parallel --version 2>/dev/null | grep -q "GNU parallel" ||
  { echo "paper.sh: GNU parallel is needed (Debian package parallel; scripts/deps.sh)" >&2; exit 2; }
popts=(--will-cite --joblog "$OUT/joblog" --resume-failed --env BIN --env OUT --env SEED --env EXTRA)
[[ -n ${JOBS-} ]] && popts+=(--jobs "$JOBS")
[[ -n ${SSHLOGINS-} ]] && popts+=(--sshloginfile "$SSHLOGINS")
[[ -n ${MEMFREE-} ]] && popts+=(--memfree "$MEMFREE")   # a 64 MiB run on 64 nodes holds 8.4 GB
export BIN OUT SEED EXTRA
echo "paper: $njobs runs through GNU parallel, ${JOBS:-one per core} at a time on ${SSHLOGINS:-this machine}"
parallel "${popts[@]}" "$(q "$me") --run {}" :::: "$jobs_file"
prc=$?
merge
missing | tail -1
# parallel's exit status: the number of jobs that failed (101: more than 100), 255 its own error
[[ $prc -eq 0 ]] || { echo "paper: GNU parallel exited $prc (failed runs: exit status in $OUT/joblog, output in $OUT/runs/*.log)"; exit 1; }
