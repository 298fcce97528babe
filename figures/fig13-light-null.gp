# 图：“光”按意思分组归对的比例和随机重分的对照（数据：tangled/figures/fig13-light-null.c，
# 每行 "块 归对 随机重分的平均 最大"；块 0 是输入，块 l 是第 l−1 层之后）
set xrange [-0.3:6.3]
set yrange [0.3:0.9]
set xtics ("输入" 0, "0" 1, "1" 2, "2" 3, "3" 4, "4" 5, "5" 6)
set xlabel "第几层之后"
set ylabel "按最近的组中心归对的比例"
set grid
set key bottom right
plot datafile using 1:2 with linespoints lw 2 pt 7 lc rgb "#c0392b" title "按意思分组", \
     datafile using 1:3 with linespoints lw 1.5 dt 2 pt 6 lc rgb "#555555" title "随机重分：平均", \
     datafile using 1:4 with linespoints lw 1.5 dt 3 pt 4 lc rgb "#555555" title "随机重分：最大"
