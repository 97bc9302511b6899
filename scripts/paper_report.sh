#!/usr/bin/env bash
# paper_report.sh DIR: markdown tables from DIR/fig9.csv, fig9sw.csv and fig10.csv
# (scripts/paper.sh) to stdout: Fig. 9 bandwidth per topology and size (GB/s and fraction of
# the lower bound; Fig. 9c/9d: the switch networks of fig9sw.csv),
# MultiTree's speedups over the baselines, Fig. 10 times normalised to ring at 16 nodes.
# A run that failed (no JSON) shows as "-".
set -u
OUT=${1:-build/paper}
F9=$OUT/fig9.csv; F9SW=$OUT/fig9sw.csv; F10=$OUT/fig10.csv
# CSV rows without the header, a quoted first field unquoted with ';' for its commas
# (fig9sw.csv: "fattree:8,2" -> fattree:8;2), as in paper_plots.sh
rows() { tail -n +2 "$1" | sed -E ':a; s/^("[^",]*),/\1;/; ta; s/^"([^"]*)"/\1/'; }
# fig9_tables CSV VARIANTS COLUMNS BASE2: per topology, GB/s (% of the lower bound) of each
# algorithm,flow of VARIANTS (headed COLUMNS, |-separated), then MultiTreeMsg over Ring, over
# BASE2 (an algorithm,flow) and over MultiTree with packets. fig9sw.csv's note: a run in
# which the NI stager staged units out is marked "s", one made without the stager "*".
fig9_tables() {
  local csv=$1 vs=$2 cols=$3 b2=$4 topo
  [[ -s $csv ]] || return 0
  for topo in $(rows "$csv" | cut -d, -f1 | sort -u); do
    echo
    echo "**Fig. 9, ${topo//;/,}** (GB/s, and % of the bandwidth lower bound)"
    echo
    echo "| size | $cols | MT-msg / Ring | MT-msg / $(label2 "$b2") | MT-msg / MT-pkt |"
    echo "|---|$(echo "$cols" | sed 's/[^|]*|/---|/g; s/|[^|]*$/|---|/')---|---|---|"
    rows "$csv" | awk -F, -v t="$topo" -v vs="$vs" -v b2="$b2" '
      $1 == t && $8 == "true" { k = $4 "," $2 "," $3; g[k] = $6; f[k] = $7; d[k] = ($9 ~ /staged/) ? " s" : ($9 != "") ? " *" : ""; sz[$4] = 1 }
      function cell(k) { return (k in g) ? sprintf("%.2f (%.0f%%)%s", g[k], 100 * f[k], d[k]) : "-" }
      function ratio(a, b) { return (a in g && b in g && g[b] > 0) ? sprintf("%.2fx", g[a] / g[b]) : "-" }
      END {
        n = split(vs, v, " ")
        m = 0; for (s in sz) ss[++m] = s + 0
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (ss[j] < ss[i]) { x = ss[i]; ss[i] = ss[j]; ss[j] = x }
        for (i = 1; i <= m; i++) {
          s = ss[i]; lab = s >= 1048576 ? (s / 1048576) " MiB" : (s / 1024) " KiB"
          line = "| " lab
          for (k = 1; k <= n; k++) line = line " | " cell(s "," v[k])
          mt = s ",multitree,message"
          line = line " | " ratio(mt, s ",ring,packet") " | " ratio(mt, s "," b2) " | " ratio(mt, s ",multitree,packet") " |"
          print line
        }
      }'
  done
}
label2() { case $1 in ring2d,*) echo "2D-Ring";; hdrm,*) echo "HDRM";; dbtree,*) echo "DBTree";; *) echo "$1";; esac; }
fig9_tables "$F9" "ring,packet dbtree,packet ring2d,packet multitree,packet multitree,message" \
  "Ring | DBTree | 2D-Ring | MultiTree (packets) | MultiTree (messages)" ring2d,packet
fig9_tables "$F9SW" "ring,packet dbtree,packet hdrm,packet multitree,packet multitree,message" \
  "Ring | DBTree | HDRM | MultiTree (packets) | MultiTree (messages)" hdrm,packet
if [[ -s $F10 ]] && [[ $(wc -l <"$F10") -gt 1 ]]; then
  echo
  echo "**Fig. 10** (weak scaling: time normalised to Ring at 16 nodes; lower is better)"
  echo
  echo "| nodes | size | Ring | 2D-Ring | MultiTree (messages) | Ring / MT | 2D-Ring / MT |"
  echo "|---|---|---|---|---|---|---|"
  awk -F, '
    NR > 1 && $8 == "true" { split(substr($1, 7), d, "x"); n = d[1] * d[2]; c[n "," $2] = $5; b[n] = $4; N[n] = 1 }
    function r(a, b2) { return (a in c && b2 in c && c[b2] > 0) ? sprintf("%.2fx", c[a] / c[b2]) : "-" }
    function nc(k) { return (k in c && base > 0) ? sprintf("%.3f", c[k] / base) : "-" }
    END {
      base = ("16,ring" in c) ? c["16,ring"] : 0
      m = 0; for (n in N) nn[++m] = n + 0
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (nn[j] < nn[i]) { x = nn[i]; nn[i] = nn[j]; nn[j] = x }
      for (i = 1; i <= m; i++) {
        n = nn[i]
        printf "| %d | %.2f MiB | %s | %s | %s | %s | %s |\n", n, b[n] / 1048576, nc(n ",ring"), nc(n ",ring2d"), nc(n ",multitree"),
          r(n ",ring", n ",multitree"), r(n ",ring2d", n ",multitree")
      }
    }' "$F10"
fi
