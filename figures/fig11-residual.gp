# 图 11.2：残差流的长度随层数增长（8 层随机小模型，数据：tangled/figures/fig11-residual.c）
set xlabel "经过的层数（0 = 嵌入之后）"
set ylabel "长度"
set xrange [-0.3:8.3]
set yrange [0:0.4]
set xtics 1
set key top left box opaque
set grid lc rgb "#dddddd"
plot datafile using 1:3 with linespoints lw 2 pt 5 lc rgb "#e07b00" title "‖x‖，16 个位置中最长的", \
     datafile using 1:2 with linespoints lw 3 pt 7 lc rgb "#2a7fb8" title "‖x‖，16 个位置的平均", \
     datafile every ::1 using 1:4 with linespoints lw 2 pt 9 dt 2 lc rgb "#3a9a3a" title "这一层的改变量 ‖Δx‖（平均）"
