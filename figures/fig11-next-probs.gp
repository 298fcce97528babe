# 图：随机的小模型对下一个词的概率（数据：tangled/figures/fig11-next-probs.c，每行 “词 概率”）
set xlabel "下一个词"
set ylabel "概率"
set xrange [-0.7:15.7]
set yrange [0:0.12]
set xtics 0,1,15
set ytics 0,0.02,0.12
set grid ytics lc rgb "#e2e8f0"
set style fill solid 0.85 noborder
set boxwidth 0.7
unset key
set arrow from -0.7,0.0625 to 15.7,0.0625 nohead dt 2 lw 2 lc rgb "#c0392b" front
set label "1/16" at -0.6,0.0625 offset 0,0.8 left tc rgb "#c0392b" front font (GPVAL_TERM eq 'svg' ? ',20' : ',10')
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set key font ',20' }
plot datafile using 1:2 with boxes lc rgb "#2471a3"
