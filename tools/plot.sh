#!/usr/bin/env bash
# tools/plot.sh SCRIPT.gp DATAFILE OUTBASE — draw one gnuplot figure as OUTBASE.svg (HTML)
# and OUTBASE.pdf (PDF). The script sees the data file as the variable `datafile` (DATAFILE "-"
# means none) and sets no terminal of its own.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: tools/plot.sh SCRIPT.gp DATAFILE OUTBASE" >&2; exit 2; }
script=$1 data=$2 out=$3
[ "$data" != "-" ] || data=""
font="Noto Sans CJK SC"
gnuplot -e "datafile='$data'; set terminal svg size 720,450 dynamic enhanced font '$font,14' background rgb 'white'; set output '$out.svg'" "$script"
gnuplot -e "datafile='$data'; set terminal pdfcairo size 12cm,7.5cm enhanced font '$font,9'; set output '$out.pdf'" "$script"
