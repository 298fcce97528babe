# 图 13.1：训练集里各个汉字出现的次数（数据：tangled/figures/fig13-zipf.c，每行 "名次 次数"）
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "名次（按出现的次数从多到少）"
set ylabel "出现的次数"
set xrange [1:10000]
set yrange [1:100000]
set grid
set key top right
# 齐普夫定律的参考线：过第 10 名的点，斜率 −1
stats datafile every ::9::9 using 2 nooutput
c10 = STATS_max * 10
plot datafile using 1:2 with lines lw 2 lc rgb "#2471a3" title "汉字", \
     c10 / x with lines lw 1 dt 1 lc rgb "#999999" title "∝ 1/名次", \
     5 with lines lw 1.5 dt 2 lc rgb "#c0392b" title "词表的门槛：5 次"
