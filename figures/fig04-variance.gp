# 图 4.1：点积的方差随 d_k 的变化（数据：tangled/figures/fig04-variance.c）
# HTML（SVG）在手机上会缩到一半左右宽，所以 SVG 的字大一些。
if (GPVAL_TERM eq 'svg') { set tics font ',19'; set key font ',19'; set xlabel font ',19'; set ylabel font ',19' }
# 横轴只标 4 的幂，免得 256 和 1024 挤在一起；纵轴上方留出空白放图例，图例不压住数据。
set logscale xy 2
set xrange [0.8:1300]
set yrange [0.25:32768]
set xtics (1, 4, 16, 64, 256, 1024)
set ytics (0.5, 1, 4, 16, 64, 256, 1024)
set xlabel "d_k"
set ylabel "样本方差"
set format x "%g"
set format y "%g"
set key top left Left reverse
set grid
plot x with lines dt 2 lc rgb "gray40" title "理论值 d_k", \
     1 with lines dt 2 lc rgb "gray60" title "理论值 1", \
     datafile using 1:2 with linespoints pt 7 lc rgb "#c0392b" title "未缩放：q·k", \
     datafile using 1:3 with linespoints pt 5 lc rgb "#2471a3" title "缩放后：q·k/√d_k"
