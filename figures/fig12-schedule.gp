# 图：第 13 章的学习率，预热 200 步，再按余弦降到 3e-4（数据：tangled/figures/fig12-schedule.c，
# 每行 "步数 学习率"）
set multiplot
set xlabel "步数"
set ylabel "学习率（×10^{-3}）"
set xrange [0:10000]
set yrange [0:3.3]
set xtics 2000
set key top right
plot datafile every 10 using 1:($2 * 1000) with lines lw 2 lc rgb "#2471a3" title "预热，然后余弦", \
     0.3 with lines dt 2 lw 1 lc rgb "#555555" title "最小值 3×10^{-4}"
# 小图：前 400 步
set origin 0.14, 0.27
set size 0.4, 0.44
set xrange [0:400]
set yrange [0:3.3]
set xtics 200 font ",8"
set ytics 1 font ",8"
unset xlabel
set title "前 400 步" font ",8" offset 0, -0.8
unset ylabel
unset key
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fillcolor rgb "white" fillstyle solid noborder
plot datafile every ::0::400 using 1:($2 * 1000) with lines lw 2 lc rgb "#2471a3"
unset multiplot
