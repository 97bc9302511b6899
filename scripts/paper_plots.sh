#!/usr/bin/env bash
# paper_plots.sh DIR: gnuplot PNGs from DIR/fig9.csv (Fig. 9a/9b), fig9sw.csv (Fig. 9c/9d,
# switch networks) and fig10.csv.
set -u
OUT=${1:-build/paper}
label() { case "$1,$2" in ring,*) echo "Ring";; dbtree,*) echo "DBTree";; ring2d,*) echo "2D-Ring";; hdrm,*) echo "HDRM";;
  multitree,packet) echo "MultiTree";; multitree,message) echo "MultiTreeMsg";; *) echo "$1 $2";; esac; }
# CSV rows without the header, a quoted first field unquoted with ';' for its commas
# (fig9sw.csv: "fattree:8,2" -> fattree:8;2), so that awk -F, and cut see one field
rows() { tail -n +2 "$1" | sed -E ':a; s/^("[^",]*),/\1;/; ta; s/^"([^"]*)"/\1/'; }
# fig9_plots CSV VARIANTS SIZE KEY: one PNG per topology, fig9_<topology>.png (SIZE: w,h pixels;
# KEY: gnuplot key position)
fig9_plots() {
  local csv=$1 vs=$2 size=$3 key=$4 topo v f plot name
  [[ -s $csv ]] || return 0
  for topo in $(rows "$csv" | cut -d, -f1 | sort -u); do
    name=${topo//[:;]/_}; plot=""; lt=0
    for v in $vs; do
      f="$OUT/fig9_${name}_${v//,/_}.dat"; lt=$((lt + 1))   # a variant keeps its colour when another is missing
      rows "$csv" | awk -F, -v t="$topo" -v a="${v%,*}" -v fl="${v#*,}" '$1==t && $2==a && $3==fl && $8=="true" {print $4/1024, $6}' >"$f"
      [[ -s $f ]] && plot="$plot${plot:+, }'$f' using 1:2 with linespoints lt $lt title '$(label "${v%,*}" "${v#*,}")'"
    done
    [[ -n $plot ]] && gnuplot -e "set terminal pngcairo size $size; set output '$OUT/fig9_${name}.png'; set logscale x 2; set xlabel 'all-reduce size (KiB)'; set ylabel 'bandwidth (GB/s)'; set title 'Fig. 9: ${topo//;/,} (paper configuration)'; set key $key; plot $plot"
  done
}
fig9_plots "$OUT/fig9.csv" "ring,packet dbtree,packet ring2d,packet multitree,packet multitree,message" 640,420 "left top"
fig9_plots "$OUT/fig9sw.csv" "ring,packet dbtree,packet hdrm,packet multitree,packet multitree,message" 760,420 "outside right"
if [[ -s $OUT/fig10.csv ]] && [[ $(wc -l <"$OUT/fig10.csv") -gt 1 ]]; then
  base=$(awk -F, '$1=="torus:4x4" && $2=="ring" && $8=="true" {print $5}' "$OUT/fig10.csv")
  plot=""
  for v in ring,packet ring2d,packet multitree,packet multitree,message; do
    f="$OUT/fig10_${v//,/_}.dat"
    awk -F, -v a="${v%,*}" -v fl="${v#*,}" -v b="${base:-0}" '$2==a && $3==fl && $8=="true" && b>0 {split(substr($1,7),d,"x"); print d[1]*d[2], $5/b}' "$OUT/fig10.csv" | sort -n >"$f"
    [[ -s $f ]] && plot="$plot${plot:+, }'$f' using 1:2 with linespoints title '$(label "${v%,*}" "${v#*,}")'"
  done
  [[ -n $plot ]] && gnuplot -e "set terminal pngcairo size 640,420; set output '$OUT/fig10.png'; set xlabel 'nodes (2D torus)'; set ylabel 'time / ring at 16 nodes'; set title 'Fig. 10: weak scaling, 375*N KiB'; set key left top; plot $plot"
fi
echo "paper: CSV and plots in $OUT/"
