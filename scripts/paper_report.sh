#!/usr/bin/env bash
# paper_report.sh DIR: markdown tables from DIR/fig9.csv and DIR/fig10.csv (scripts/paper.sh)
# to stdout: Fig. 9 bandwidth per topology and size (GB/s and fraction of the lower bound),
# MultiTree's speedups over the baselines, Fig. 10 times normalised to ring at 16 nodes.
# A run that failed (no JSON) shows as "-".
set -u
OUT=${1:-build/paper}
F9=$OUT/fig9.csv; F10=$OUT/fig10.csv
V="ring,packet dbtree,packet ring2d,packet multitree,packet multitree,message"
if [[ -s $F9 ]]; then
  for topo in $(tail -n +2 "$F9" | cut -d, -f1 | sort -u); do
    echo
    echo "**Fig. 9, $topo** (GB/s, and % of the bandwidth lower bound)"
    echo
    echo "| size | Ring | DBTree | 2D-Ring | MultiTree (packets) | MultiTree (messages) | MT-msg / Ring | MT-msg / 2D-Ring | MT-msg / MT-pkt |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk -F, -v t="$topo" -v vs="$V" '
      NR > 1 && $1 == t && $8 == "true" { g[$4 "," $2 "," $3] = $6; f[$4 "," $2 "," $3] = $7; sz[$4] = 1 }
      function cell(k) { return (k in g) ? sprintf("%.2f (%.0f%%)", g[k], 100 * f[k]) : "-" }
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
          line = line " | " ratio(mt, s ",ring,packet") " | " ratio(mt, s ",ring2d,packet") " | " ratio(mt, s ",multitree,packet") " |"
          print line
        }
      }' "$F9"
  done
fi
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
