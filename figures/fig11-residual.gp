# 图 11.2：残差流的长度随层数增长（8 层随机小模型，数据：tangled/figures/fig11-residual.c）
set xlabel "经过的层数（0 = 嵌入之后）"
set ylabel "长度"
set xrange [-0.3:8.3]
set yrange [0:0.4]
set xtics 1
# 图例放在图下方，不压住任何一条线；正文引用的两个数（嵌入之后与第 8 层的平均长度）直接标在点旁
set key outside below horizontal maxrows 2 font ",9"
set grid lc rgb "#dddddd"
plot datafile using 1:3 with linespoints lw 2 pt 5 lc rgb "#e07b00" title "‖x‖，16 个位置中最长的", \
     datafile using 1:2 with linespoints lw 3 pt 7 lc rgb "#2a7fb8" title "‖x‖，16 个位置的平均", \
     datafile every ::1 using 1:4 with linespoints lw 2 pt 9 dt 2 lc rgb "#3a9a3a" title "这一层的改变量 ‖Δx‖（平均）", \
     datafile every ::0::0 using 1:2:(sprintf("%.3f", $2)) with labels offset 2.2,-0.9 tc rgb "#2a7fb8" notitle, \
     datafile every ::8::8 using 1:2:(sprintf("%.3f", $2)) with labels offset -0.5,-1.1 tc rgb "#2a7fb8" notitle
