# 图 12.1：默认训练的损失（数据：tangled/figures/fig12-loss.c，每行 "步数 训练损失 检验损失"）
set logscale y
set xlabel "步数"
set ylabel "损失"
set key top right
set grid ytics
plot datafile using 1:2 with lines lw 2 lc rgb "#2471a3" title "训练（全部位置）", \
     datafile using 1:3 with lines lw 2 lc rgb "#c0392b" title "检验（名词位置，留出的句子）"
