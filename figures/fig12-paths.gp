# 图：L = (x² + 25y²)/2 的等高线和三条路（数据：tangled/figures/fig12-paths.c，三块 "x y"：
# 梯度下降、动量、Adam）
set xrange [-0.4:1.1]
set yrange [-0.8:1.1]
set xlabel "x"
set ylabel "y"
set key top left opaque box
set xtics 0.2
set parametric
set trange [0:2 * pi]
set samples 200
a = 25.0
# 等高线：x²/(2L) + y²/(2L/a) = 1
levels = "0.005 0.02 0.08 0.3 1 3 13"
plot for [k=1:words(levels)] sqrt(2 * word(levels, k)) * cos(t), sqrt(2 * word(levels, k) / a) * sin(t) \
       with lines lw 0.7 lc rgb "#999999" notitle, \
     datafile index 0 using 1:2 with linespoints pt 7 ps 0.35 lw 1.2 lc rgb "#c0392b" title "梯度下降", \
     datafile index 1 using 1:2 with linespoints pt 7 ps 0.35 lw 1.2 lc rgb "#2471a3" title "动量 β = 0.5", \
     datafile index 2 using 1:2 with linespoints pt 7 ps 0.35 lw 1.2 lc rgb "#27ae60" title "Adam"
