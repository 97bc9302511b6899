#!/usr/bin/env bash
# table2_dimbal.sh BIN [OUT]: dimbal (the dimension-balanced chunk schedule) against Themis+SCF
# and MultiTree on the six Themis Table 2 systems at the flow level (docs/results/themis.md
# "dimbal on the Table 2 systems"). Per system and size (100 MiB, 1 GiB): the lower bound,
# Themis+SCF (64 chunks, --overlap, front end 2), dimbal (its own chunk count, --overlap,
# front end 2) and, with MT=1, MultiTree (front end 1; 7-40 s and about 200 MB a run at
# 1 GiB; run it through /work/bin/heavy on a shared machine), or with MT_CSV=FILE MultiTree's
# rows of an earlier run's CSV (its schedule does not change with dimbal). Writes
# OUT/table2_dimbal.csv and OUT/table2_dimbal.md.
set -eu
bin=${1:?usage: table2_dimbal.sh BIN [OUT]}
out=${2:-build/table2-dimbal}
mkdir -p "$out"
csv=$out/table2_dimbal.csv
echo "system,bytes,variant,chunks,time_ns,bound_ns,fraction,wall_s,plan_s,peak_rss_bytes" >"$csv"
run() { # system bytes variant args...
  local s=$1 b=$2 v=$3
  shift 3
  "$bin" sim --level flow --topo "themis:$s" --bytes "$b" "$@" --json "$out/r.json" >/dev/null
  jq -r --arg s "$s" --arg v "$v" '[$s, .bytes, $v, .chunks, .time, .lower_bound, .lower_bound_fraction, .wall_s, .plan_s, .peak_rss_bytes] | @csv' "$out/r.json" |
    tr -d '"' >>"$csv"
}
for s in 2d-sw-sw 3d-sw-sw-sw-homo 3d-sw-sw-sw-hetero 3d-fc-ring-sw 4d-ring-sw-sw-sw 4d-ring-fc-ring-sw; do
  for b in 104857600 1073741824; do
    run "$s" "$b" themis_scf --algo themis --chunks 64 --overlap
    run "$s" "$b" dimbal --algo dimbal --overlap
    run "$s" "$b" dimbal_serial --algo dimbal
    if [[ ${MT:-0} == 1 && $b == 1073741824 ]]; then run "$s" "$b" multitree --algo multitree; fi
  done
done
rm -f "$out/r.json"
if [[ -n ${MT_CSV:-} ]]; then grep ',multitree,' "$MT_CSV" >>"$csv"; fi
awk -F, 'NR > 1 { k = $1 "," $2; t[k "," $3] = $5; f[k "," $3] = $7; c[k "," $3] = $4; lb[k] = $6; if (!(k in seen)) { seen[k] = 1; o[n++] = k } }
END {
  print "| system | size | bound (us) | Themis+SCF, 64 chunks (us, % of bound) | MultiTree (us, % of bound) | dimbal (chunks: us, % of bound) | dimbal / Themis+SCF | dimbal, one stage at a time (chunks: us, %) |"
  print "|---|---|---|---|---|---|---|---|"
  for (i = 0; i < n; i++) {
    split(o[i], a, ",")
    k = o[i]
    m = (k ",multitree") in t ? sprintf("%.0f, %.1f%%", t[k ",multitree"] / 1000, 100 * f[k ",multitree"]) : "-"
    printf "| %s | %s | %.0f | %.0f, %.1f%% | %s | %d: %.0f, %.1f%% | %.3fx | %d: %.0f, %.1f%% |\n", a[1], a[2] == 104857600 ? "100 MiB" : "1 GiB", lb[k] / 1000,
      t[k ",themis_scf"] / 1000, 100 * f[k ",themis_scf"], m, c[k ",dimbal"], t[k ",dimbal"] / 1000, 100 * f[k ",dimbal"],
      t[k ",dimbal"] / t[k ",themis_scf"], c[k ",dimbal_serial"], t[k ",dimbal_serial"] / 1000, 100 * f[k ",dimbal_serial"]
  }
}' "$csv" >"$out/table2_dimbal.md"
cat "$out/table2_dimbal.md"
