#!/usr/bin/env bash
# tools/plot.sh SCRIPT.gp DATAFILE OUTBASE — draw one gnuplot figure as OUTBASE.svg (HTML)
# and OUTBASE.pdf (PDF). The script sees the data file as the variable `datafile` (DATAFILE "-"
# means none) and sets no terminal of its own.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: tools/plot.sh SCRIPT.gp DATAFILE OUTBASE" >&2; exit 2; }
script=$1 data=$2 out=$3
[ "$data" != "-" ] || data=""
font="Noto Sans CJK SC"
formats=${PLOT_FORMATS:-svg pdf}     # PLOT_FORMATS=svg: only the SVG
for format in $formats; do
  case $format in
    # a heat map ("with image") is a tiny raster inside the SVG: drawn with sharp cells, not
    # smoothed by the browser into a blur
    svg) gnuplot -e "datafile='$data'; set terminal svg size 720,450 dynamic enhanced font '$font,14' background rgb 'white'; set output '$out.svg'" "$script"
         sed -i "s/<image /<image style='image-rendering:pixelated' /" "$out.svg"
         # a multiplot repeats its plots' ids (gnuplot_plot_1 in each panel); ids are unique in an
         # XML document (the EPUB's epubcheck insists), so the second one becomes gnuplot_plot_1_2
         awk '{ while (match($0, / id="[^"]*"/)) {
                  id = substr($0, RSTART + 5, RLENGTH - 6); n = ++seen[id]
                  out = out substr($0, 1, RSTART - 1) " id=\"" id (n > 1 ? "_" n : "") "\""
                  $0 = substr($0, RSTART + RLENGTH) }
                print out $0; out = "" }' "$out.svg" > "$out.svg.tmp" && mv "$out.svg.tmp" "$out.svg" ;;
    # the PDF at the text width of the book (16 cm) with labels at 10 pt (pdfcairo would halve
    # the font size without fontscale 1), so the book includes it at its own size
    pdf) gnuplot -e "datafile='$data'; set terminal pdfcairo size 16cm,10cm enhanced font '$font,10' fontscale 1.0; set output '$out.pdf'" "$script" ;;
    *) echo "plot: unknown format $format" >&2; exit 2 ;;
  esac
done
