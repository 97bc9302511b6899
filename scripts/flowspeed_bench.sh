#!/usr/bin/env bash
# flowspeed_bench.sh NEW_BIN [OLD_BIN] [OUTDIR]: the runs of docs/reference/flowsim.md "MultiTree on 1024
# NPUs": MultiTree 1 GiB at the flow level on 3-D switch systems of 64-1024 NPUs and on
# torus:32x32 (with OLD_BIN too, e.g. a build without the incremental solve: OLD_TIMEOUT
# seconds at most, default 600), then MultiTree, hier (1 chunk) and the baseline and Themis
# (64 chunks, --overlap) on the six Table 2 systems. One run at a time, niced. Writes
# OUTDIR/runs.tsv (default build/flowspeed): tag, exit code, time, share of the bound, wall_s,
# plan_s, user s, sys s, peak_rss_bytes (or max RSS KB of /usr/bin/time when stopped), solves,
# rates_solved, arguments.
set -u
new=$1 old=${2:-} dir=${3:-build/flowspeed}
mkdir -p "$dir"
out=$dir/runs.tsv
: >"$out"
run() { # tag bin timeout args...
  local tag=$1 bin=$2 to=$3; shift 3
  local j=$dir/$tag.json el us sy kb
  rm -f "$j"
  /usr/bin/time -f "%e %U %S %M" -o "$dir/$tag.time" timeout "$to" nice -n 10 "$bin" sim --level flow "$@" --json "$j" >"$dir/$tag.out" 2>&1
  local rc=$?
  read -r el us sy kb < <(tail -1 "$dir/$tag.time")
  if [[ -s $j ]]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tag" "$rc" "$(jq -r .time "$j")" "$(jq -r .lower_bound_fraction "$j")" \
      "$(jq -r .wall_s "$j")" "$(jq -r '.plan_s // "-"' "$j")" "$us" "$sy" "$(jq -r .peak_rss_bytes "$j")" "$(jq -r .solves "$j")" \
      "$(jq -r '.rates_solved // "-"' "$j")" "$*" >>"$out"
  else
    printf '%s\t%s\t-\t-\t%s\t-\t%s\t%s\t%sKB\t-\t-\t%s\n' "$tag" "$rc" "$el" "$us" "$sy" "$kb" "$*" >>"$out"
  fi
  tail -1 "$out"
}
sw=(dims:sw4@25x8:700ns,sw4@25x4:700ns,sw4@50x1:1700ns dims:sw8@25x8:700ns,sw8@25x4:700ns,sw4@50x1:1700ns
  dims:sw16@25x8:700ns,sw8@25x4:700ns,sw4@50x1:1700ns themis:3d-sw-sw-sw-hetero)
npus=(64 256 512 1024)
for i in 0 1 2 3; do
  [[ -n $old ]] && run "old_sw${npus[i]}" "$old" "${OLD_TIMEOUT:-600}" --topo "${sw[i]}" --algo multitree --bytes 1G
  run "new_sw${npus[i]}" "$new" 900 --topo "${sw[i]}" --algo multitree --bytes 1G
done
for b in 64M 1G; do
  [[ -n $old ]] && run "old_t32_$b" "$old" "${OLD_TIMEOUT:-600}" --topo torus:32x32 --algo multitree --bytes $b --config paper
  run "new_t32_$b" "$new" 900 --topo torus:32x32 --algo multitree --bytes $b --config paper
done
for sys in 2d-sw-sw 3d-sw-sw-sw-homo 3d-sw-sw-sw-hetero 3d-fc-ring-sw 4d-ring-sw-sw-sw 4d-ring-fc-ring-sw; do
  [[ $sys != 3d-sw-sw-sw-hetero ]] && run "mt_$sys" "$new" 900 --topo themis:$sys --algo multitree --bytes 1G
  run "hier1_$sys" "$new" 900 --topo themis:$sys --algo hier --bytes 1G
  run "hier64_$sys" "$new" 900 --topo themis:$sys --algo hier --bytes 1G --chunks 64 --overlap
  run "themis64_$sys" "$new" 900 --topo themis:$sys --algo themis --bytes 1G --chunks 64 --overlap
done
