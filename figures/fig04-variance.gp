# 图 4.1：点积的方差随 d_k 的变化（数据：tangled/figures/fig04-variance.c）
set logscale xy 2
set xlabel "d_k"
set ylabel "样本方差"
set format x "%g"
set format y "%g"
set key top left
set grid
plot x with lines dt 2 lc rgb "gray40" title "理论值 d_k", \
     1 with lines dt 2 lc rgb "gray60" title "理论值 1", \
     datafile using 1:2 with linespoints pt 7 lc rgb "#c0392b" title "未缩放：q·k", \
     datafile using 1:3 with linespoints pt 5 lc rgb "#2471a3" title "缩放后：q·k/√d_k"
