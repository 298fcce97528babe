# 图：分数 (1, 0.5, 0) 乘上倍数 c 之后的 softmax（数据：tangled/figures/fig04-scale-sweep.c，每行 “c w0 w1 w2”）
set xlabel "倍数 c"
set ylabel "权重"
set xrange [0:10.5]
set yrange [0:1.02]
set xtics 0,1,10
set ytics 0,0.2,1
set grid lc rgb "#e2e8f0"
set key center right box opaque
set arrow from 1,0 to 1,1.02 nohead dt 3 lc rgb "#718096"
set arrow from 10,0 to 10,1.02 nohead dt 3 lc rgb "#718096"
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set key font ',20' }
plot datafile using 1:2 with lines lw 3 lc rgb "#2471a3" title "分数 1 的键", \
     datafile using 1:3 with lines lw 3 dt 2 lc rgb "#e07b00" title "分数 0.5 的键", \
     datafile using 1:4 with lines lw 3 dt 4 lc rgb "#3a9a3a" title "分数 0 的键"
