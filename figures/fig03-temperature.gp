# 图：分数 (2, 1, 0, -1) 在四个温度下的 softmax（数据：tangled/figures/fig03-temperature.c）
# datafile 每行一个键：分数，T = 0.5、1、2、5 时的权重。
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set key font ',20'; set xlabel font ',20'; set ylabel font ',20' }
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border rgb 'white'
set boxwidth 0.9
set yrange [0:1]
set ytics 0, 0.2, 1
set grid ytics
set xlabel '键（括号里是它的分数）'
set ylabel '权重'
set key top right Left reverse
plot datafile using 2:xtic(sprintf('键 %d（%g）', $0 + 1, $1)) title 'T = 0.5' lc rgb '#08306b', \
     '' using 3 title 'T = 1' lc rgb '#2171b5', \
     '' using 4 title 'T = 2' lc rgb '#6baed6', \
     '' using 5 title 'T = 5' lc rgb '#c6dbef'
