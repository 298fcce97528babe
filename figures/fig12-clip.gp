# 图：小语言上的训练（种子 1，学习率 1e-2），裁剪与不裁剪（数据：tangled/figures/fig12-clip.c，
# 块 0 "步数 不裁剪的梯度长度 裁剪的梯度长度"，块 1 "步数 不裁剪的检验损失 裁剪的检验损失"）
set multiplot layout 2, 1
set logscale y
set xrange [0:2000]
set yrange [0.01:200]
set grid ytics
set key bottom left horizontal
set ylabel "梯度长度"
unset xlabel
set format x ""
plot datafile index 0 using 1:2 with lines lw 0.8 lc rgb "#2471a3" title "不裁剪", \
     datafile index 0 using 1:3 with lines lw 0.8 lc rgb "#c0392b" title "裁剪到 1", \
     1 with lines dt 2 lw 1.5 lc rgb "#222222" notitle
set format x "%g"
set xlabel "步数"
set yrange [*:*]
set ytics ("1" 1, "0.01" 0.01, "0.0001" 0.0001)
set ylabel "检验损失"
plot datafile index 1 using 1:2 with lines lw 2 lc rgb "#2471a3" title "不裁剪", \
     datafile index 1 using 1:3 with lines lw 2 lc rgb "#c0392b" title "裁剪到 1"
unset multiplot
