# 图 11.1：GELU（tanh 形式）与 ReLU（数据由 tangled/figures/fig11-gelu.c 用 libattn 算出）
set xlabel "x"
set ylabel "y"
set xrange [-4:3]
set yrange [-0.5:3.1]
set key top left box opaque
set grid lc rgb "#dddddd"
set arrow from -0.75,-0.5 to -0.75,0.5 nohead dt 2 lc rgb "#888888"
set label "x ≈ −0.75，GELU ≈ −0.17" at -3.8,-0.32 tc rgb "#555555"
plot datafile using 1:3 with lines lw 2 dt 2 lc rgb "#888888" title "ReLU", \
     datafile using 1:2 with lines lw 3 lc rgb "#2a7fb8" title "GELU"
