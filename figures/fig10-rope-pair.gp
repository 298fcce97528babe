# 图：RoPE 转动的一对分量（数据：tangled/figures/fig10-rope-pair.c，每行 “x y 名字 线型”）
set size ratio -1
set xrange [-1.45:1.45]
set yrange [-1.25:1.25]
set xtics -1,1,1
set ytics -1,1,1
set grid lc rgb "#e2e8f0"
unset key
set object 1 circle at 0,0 size 1 fs empty border lc rgb "#cbd5e0"
plot datafile using (0):(0):1:2:4 with vectors head filled lw 2 lc variable dt 1, \
     datafile using ($1 * 1.18):($2 * 1.13):3 with labels font ",9"
