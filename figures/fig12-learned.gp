# 图 12.2：训练后第 0 层第 0 个头的注意力模式（数据：tangled/figures/fig12-learned.c，
# 两块，每行 "查询 键 权重"；因果掩码挡住的格子不标数）
# HTML（SVG）在手机上会缩到一半左右宽，所以 SVG 的字大一些
numfont = ',9'
if (GPVAL_TERM eq 'svg') { set tics font ',18'; set ylabel font ',18'; set title font ',18'; set cbtics font ',16'; numfont = ',15' }
set multiplot layout 1,2 margins 0.18, 0.84, 0.24, 0.9 spacing 0.14, 0
set size ratio -1
set xrange [-0.5:3.5]
set yrange [3.5:-0.5]
set cbrange [0:1]
set palette defined (0 "white", 1 "#2471a3")
unset colorbox
unset key
set xlabel "键"
set xtics rotate by 30 right
set ylabel "查询" offset 2, 0
set xtics ("BOS" 0, "fluffy" 1, "blue" 2, "creature" 3)
set ytics ("BOS" 0, "fluffy" 1, "blue" 2, "creature" 3)
set title "fluffy blue creature"
plot datafile index 0 using 2:1:3 with image, \
     datafile index 0 using 2:1:($2 <= $1 ? sprintf("%.2f", $3) : "") with labels font numfont
set xtics ("BOS" 0, "blue" 1, "fluffy" 2, "creature" 3)
unset ylabel
set ytics ("BOS" 0, "blue" 1, "fluffy" 2, "creature" 3)
set title "blue fluffy creature"
set colorbox user origin screen 0.865, 0.3 size screen 0.018, 0.5
set cbtics 0.25
set cblabel "权重"
plot datafile index 1 using 2:1:3 with image, \
     datafile index 1 using 2:1:($2 <= $1 ? sprintf("%.2f", $3) : "") with labels font numfont
unset multiplot
