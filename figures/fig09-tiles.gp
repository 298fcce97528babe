# 第 9 章分块的图：n = 768 的因果注意力在快速路径里的分块（数据：tangled/figures/fig09-tiles.c，
# 块的大小和每个查询块处理到哪个键块都来自库的代码）。块 0：键中心 查询中心 半宽 半高 类别
# （0 跳过，1 整块可见，2 对角块）；块 1：对角块里被掩码的三角；块 2：在线 softmax 的扫描箭头。
set size ratio -1
set xrange [0:768]
set yrange [768:0]
set xtics 0,192,768
set mxtics 2
set ytics 0,192,768
set tics out nomirror
set xlabel "键 j（每个键块 96 个键）" offset 0,0.3
set ylabel "查询 i（每个查询块 192 行）" offset 1,0
set lmargin at screen 0.17
set rmargin at screen 0.6
set tmargin at screen 0.97
set bmargin at screen 0.2
set key at screen 0.62, screen 0.8 left top vertical Left reverse samplen 1.2 spacing 1.3
set style fill solid 1.0 border lc rgb "#4a5568"
kind_color(k) = k == 1 ? 0x2a7fb8 : k == 2 ? 0xa9cce3 : 0xffffff
plot datafile index 0 using 1:2:3:4:(kind_color($5)) with boxxyerror lc rgb variable notitle, \
     datafile index 1 using 1:2 with filledcurves closed fs solid 1.0 noborder lc rgb "#d5d8dc" notitle, \
     datafile index 0 using 1:2:3:4 with boxxyerror fs empty border lc rgb "#7f8c8d" lw 0.8 lc rgb "#7f8c8d" notitle, \
     datafile index 2 using 1:2:3:4 with vectors head filled size 12,25 lw 1.5 lc rgb "#e07b00" notitle, \
     NaN with boxes fs solid 1.0 lc rgb "#2a7fb8" title "整块可见：算", \
     NaN with boxes fs solid 1.0 lc rgb "#a9cce3" title "对角块：算", \
     NaN with boxes fs solid 1.0 lc rgb "#d5d8dc" title "其中被掩码的分数", \
     NaN with boxes fs solid 1.0 lc rgb "#ffffff" title "整块跳过", \
     NaN with vectors lw 1.5 lc rgb "#e07b00" title "在线 softmax 的扫描"
