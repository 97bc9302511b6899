#!/usr/bin/env bash
# themis_paper.sh BIN [OUT]: Themis's experiments (ISCA 2022, Fig. 8/11 and Fig. 10) at the flow
# level (docs/reference/flowsim.md, front end 2: the planner's chunk schedule itself): the six Table 2
# systems at 100 MiB and 1 GiB with the baseline (hier), Themis+FIFO and Themis+SCF, 64 chunks;
# chunks per collective 4..512 on 3d-sw-sw-sw-hetero and 4d-ring-fc-ring-sw at 1 GiB. Writes
# OUT/themis.csv (one line per run) and OUT/themis.md (the tables of docs/results/themis.md). Each run
# takes milliseconds; the whole sweep a few seconds, so no job engine. OVERLAP=1: every run with
# --overlap (a dimension overlaps its stages' latency, Themis's several chunks per dimension),
# into OUT/themis_overlap.{csv,md}.
set -eu
bin=${1:?usage: themis_paper.sh BIN [OUT]}
out=${2:-build/themis-paper}
mkdir -p "$out"
sfx=; ov=()
if [[ ${OVERLAP:-0} == 1 ]]; then sfx=_overlap; ov=(--overlap); fi
csv=$out/themis$sfx.csv
echo "system,bytes,chunks,variant,time_ns,ideal_ns,bw_util" >"$csv"
systems="2d-sw-sw 3d-sw-sw-sw-homo 3d-sw-sw-sw-hetero 3d-fc-ring-sw 4d-ring-sw-sw-sw 4d-ring-fc-ring-sw"
run() { # system bytes chunks variant
  local args=(--algo hier)
  case $4 in fifo) args=(--algo themis --intra fifo) ;; scf) args=(--algo themis --intra scf) ;; esac
  "$bin" sim --level flow --topo "themis:$1" --bytes "$2" --chunks "$3" "${args[@]}" "${ov[@]}" --json "$out/r.json" >/dev/null
  jq -r --arg s "$1" --arg v "$4" '[$s, .bytes, .chunks, $v, .time, .lower_bound, .lower_bound_fraction] | @csv' "$out/r.json" | tr -d '"' >>"$csv"
}
for s in $systems; do
  for b in 104857600 1073741824; do
    for v in baseline fifo scf; do run "$s" "$b" 64 "$v"; done
  done
done
for s in 3d-sw-sw-sw-hetero 4d-ring-fc-ring-sw; do
  for c in 4 8 16 32 128 256 512; do
    for v in baseline fifo scf; do run "$s" 1073741824 "$c" "$v"; done
  done
done
rm -f "$out/r.json"
# the tables: time (us) and utilisation per system and size at 64 chunks; speed-ups over the
# baseline and their means; the chunk sweep
awk -F, 'NR > 1 { k = $1 "," $2 "," $3; t[k "," $4] = $5; u[k "," $4] = $7; id[k] = $6; if (!(k in seen)) { seen[k] = 1; order[n++] = k } }
END {
  print "| system | size | chunks | Ideal (us) | Baseline (us) | Themis+FIFO (us) | Themis+SCF (us) | FIFO speed-up | SCF speed-up | BW util. Baseline / FIFO / SCF |"
  print "|---|---|---|---|---|---|---|---|---|---|"
  for (i = 0; i < n; i++) {
    split(order[i], a, ",")
    if (a[3] != 64) continue
    b = t[order[i] ",baseline"]; f = t[order[i] ",fifo"]; s = t[order[i] ",scf"]
    sf += b / f; ss += b / s; m++
    ub += u[order[i] ",baseline"]; uf += u[order[i] ",fifo"]; us += u[order[i] ",scf"]
    printf "| %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.1f%% / %.1f%% / %.1f%% |\n", a[1], a[2] == 104857600 ? "100 MiB" : "1 GiB", a[3], id[order[i]] / 1000, b / 1000, f / 1000, s / 1000, b / f, b / s, 100 * u[order[i] ",baseline"], 100 * u[order[i] ",fifo"], 100 * u[order[i] ",scf"]
  }
  printf "| **mean** (%d points) | | | | | | | **%.2fx** | **%.2fx** | **%.1f%% / %.1f%% / %.1f%%** |\n\n", m, sf / m, ss / m, 100 * ub / m, 100 * uf / m, 100 * us / m
  print "| system (1 GiB) | chunks | BW util. Baseline | Themis+FIFO | Themis+SCF |"
  print "|---|---|---|---|---|"
  for (i = 0; i < n; i++) {
    split(order[i], a, ",")
    if (a[2] != 1073741824 || (a[1] != "3d-sw-sw-sw-hetero" && a[1] != "4d-ring-fc-ring-sw")) continue
    c[a[1] "," a[3]] = order[i]
  }
  split("4 8 16 32 64 128 256 512", cs, " ")
  split("3d-sw-sw-sw-hetero 4d-ring-fc-ring-sw", ss2, " ")
  for (j = 1; j <= 2; j++) for (q = 1; q <= 8; q++) { k = c[ss2[j] "," cs[q]]; if (k == "") continue
    printf "| %s | %d | %.1f%% | %.1f%% | %.1f%% |\n", ss2[j], cs[q], 100 * u[k ",baseline"], 100 * u[k ",fifo"], 100 * u[k ",scf"] }
}' "$csv" >"$out/themis$sfx.md"
echo "themis_paper: $(($(wc -l <"$csv") - 1)) runs; $csv, $out/themis$sfx.md"
