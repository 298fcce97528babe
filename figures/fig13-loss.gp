# 图 13.2：本书的检查点的训练（数据：tangled/figures/fig13-loss.c，三块：
# "步数 训练损失"、"步数 检验损失"、"一元 二元"）
stats datafile index 2 using 1:2 nooutput
unigram = STATS_min_x
bigram = STATS_min_y
set xlabel "步数"
set ylabel "损失（奈特/字）"
set yrange [4:9]
set key top right opaque
set grid ytics
plot datafile index 0 using 1:2 with lines lw 2 lc rgb "#2471a3" title "训练（每 10 步的平均）", \
     datafile index 1 using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc rgb "#c0392b" title "检验", \
     unigram with lines lw 1.5 dt 2 lc rgb "#777777" title "一元模型", \
     bigram with lines lw 1.5 dt 4 lc rgb "#000000" title "二元模型"
