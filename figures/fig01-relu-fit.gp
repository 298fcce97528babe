# 图 1.1：用 2、4、8 段 ReLU 折线逼近 sin x（数据由 tangled/figures/fig01-relu-fit.c 用 libattn 算出）
set xlabel "x"
set ylabel "y"
set xrange [-0.5:4.5]
set yrange [-1.2:1.3]
set key top right box opaque
set grid lc rgb "#dddddd"
set arrow from 0,-1.2 to 0,1.3 nohead dt 2 lc rgb "#888888"
set arrow from pi,-1.2 to pi,1.3 nohead dt 2 lc rgb "#888888"
set label "拟合区间 [0, π]" at 1.1,-1.05 tc rgb "#555555"
plot datafile using 1:2 with lines lw 3 lc rgb "#222222" title "sin x", \
     datafile using 1:3 with lines lw 2 lc rgb "#e07b00" title "2 段", \
     datafile using 1:4 with lines lw 2 lc rgb "#2a7fb8" title "4 段", \
     datafile using 1:5 with lines lw 2 lc rgb "#3a9a3a" title "8 段"
