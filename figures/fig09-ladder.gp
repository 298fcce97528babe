# 第 9 章阶梯的图：阶梯的五级（数据：tangled/figures/fig09-ladder.c，
# 抄在第 9 章 examples/ch09.h 里的一次 compare.py --ladder 测量记录）。
data = datafile
set logscale y 10
set yrange [1:3000]
set ylabel "GFLOP/s（按 4n²d 计）"
set xrange [-0.6:4.6]
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics lc rgb "#dddddd"
set key left top
set bmargin 5
plot data using 1:3:xtic(4) with boxes fill empty lw 1.5 lc rgb "#c0392b" title "这一级的峰值", \
     data using 1:2 with boxes lc rgb "#2a7fb8" title "量出的速度", \
     data using 1:3:(sprintf("%.1f", $2)) with labels offset 0,0.9 notitle
