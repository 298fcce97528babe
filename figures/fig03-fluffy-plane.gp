# 图：第一个短语的查询和键（数据：tangled/figures/fig03-fluffy-plane.c，每行“种类 词 x y”）
lf = ',10'
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set key font ',20'; lf = ',20' }
set size ratio -1
set xrange [-0.6:4.6]
set yrange [-0.3:3.2]
set xzeroaxis lt -1
set yzeroaxis lt -1
set xtics 0, 1, 4
set ytics 0, 1, 3
set grid
set xlabel '第 1 个分量：“找形容词”（查询）／“我是形容词”（键）'
set ylabel '第 2 个分量：第一个短语'
set key bottom right
set label 1 'creature 的查询' at 3.1, 2.45 left font lf tc rgb '#c0392b'
set label 2 'fluffy、blue 的键' at 3.1, 1.7 left font lf tc rgb '#2471a3'
set label 3 'a、fluffy、blue 的查询' at 0.15, 2.9 left font lf tc rgb '#c0392b'
set label 4 'a、creature 的键' at 0.15, 1.7 left font lf tc rgb '#2471a3'
plot datafile using (0):(0):(strcol(1) eq 'query' ? $3 : NaN):4 with vectors head filled lw 3 lc rgb '#c0392b' title '查询', \
     datafile using (strcol(1) eq 'key' ? $3 : NaN):4 with points pt 7 ps 2.5 lc rgb '#2471a3' title '键'
