# 图 4.2：注意力模式一行的最大权重和熵（数据：tangled/figures/fig04-sharpness.c）
set multiplot layout 1,2
set logscale x 2
set format x "%g"
set xlabel "d_k"
set grid
set key top left
set yrange [0:1.05]
set ylabel "平均最大权重"
plot datafile using 1:2 with linespoints pt 7 lc rgb "#c0392b" title "不缩放", \
     datafile using 1:4 with linespoints pt 5 lc rgb "#2471a3" title "缩放"
set key bottom left
set yrange [0:4.4]
set ylabel "平均熵（nat）"
plot log(64) with lines dt 2 lc rgb "gray50" title "ln 64", \
     datafile using 1:3 with linespoints pt 7 lc rgb "#c0392b" title "不缩放", \
     datafile using 1:5 with linespoints pt 5 lc rgb "#2471a3" title "缩放"
unset multiplot
