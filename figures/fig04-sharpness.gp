# 图 4.2：注意力模式一行的最大权重和熵（数据：tangled/figures/fig04-sharpness.c）
# HTML（SVG）在手机上会缩到一半左右宽，所以 SVG 的字大一些。
if (GPVAL_TERM eq 'svg') { set tics font ',19'; set key font ',19'; set xlabel font ',19'; set ylabel font ',19' }
# 两幅小图各只有半页宽，横轴只标 1、32、1024，免得 256 和 1024 挤在一起。图例放在没有数据的地方：
# 左图左上角（那里的权重都小于 0.3），右图在 ln 64 的虚线之上留出的空白里。
set multiplot layout 1,2
set logscale x 2
set xrange [0.8:1300]
set xtics (1, 32, 1024)
set mxtics 5
set format x "%g"
set xlabel "d_k"
set grid
set key top left Left reverse
set yrange [0:1.3]
set ytics 0, 0.2, 1
set ylabel "平均最大权重"
plot datafile using 1:2 with linespoints pt 7 lc rgb "#c0392b" title "不缩放", \
     datafile using 1:4 with linespoints pt 5 lc rgb "#2471a3" title "缩放"
set key top right Left reverse
set yrange [0:7]
set ytics 0, 1, 4
set ylabel "平均熵（nat）"
plot log(64) with lines dt 2 lc rgb "gray50" title "ln 64", \
     datafile using 1:3 with linespoints pt 7 lc rgb "#c0392b" title "不缩放", \
     datafile using 1:5 with linespoints pt 5 lc rgb "#2471a3" title "缩放"
unset multiplot
