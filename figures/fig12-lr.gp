# 图：L(w) = (w − 3)² 上的梯度下降，五个学习率（数据：tangled/figures/fig12-lr.c，
# 每行 "步数 w(0.1) w(0.5) w(0.9) w(1) w(1.1)"）
set xlabel "步数"
set ylabel "w"
set xrange [0:10]
set yrange [-4:10]
set xtics 1
set key outside right center vertical
set grid ytics
plot 3 with lines dt 2 lw 1 lc rgb "#555555" title "最小值 w = 3", \
     datafile using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb "#2471a3" title "η = 0.1", \
     datafile using 1:3 with linespoints pt 5 ps 0.5 lw 1.5 lc rgb "#27ae60" title "η = 0.5", \
     datafile using 1:4 with linespoints pt 9 ps 0.6 lw 1.5 lc rgb "#e67e22" title "η = 0.9", \
     datafile using 1:5 with linespoints pt 11 ps 0.6 lw 1.5 lc rgb "#8e44ad" title "η = 1", \
     datafile using 1:6 with linespoints pt 13 ps 0.6 lw 1.5 lc rgb "#c0392b" title "η = 1.1"
