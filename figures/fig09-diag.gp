# 第 9 章对角线的图：对角线上的一个键块（键 96..191）对第一个查询块（查询 0..191），按通用宽度的寄存器块
# （6 个键 × 8 个查询）分类（数据：tangled/figures/fig09-diag.c，条件和第 9 章的代码相同）。
data = datafile
set size ratio -1
set xrange [-0.5:191.5]
set yrange [95.5:-0.5]
set xlabel "查询（0～191）"
set ylabel "键（96～191）"
set xtics ("0" 0, "48" 48, "96" 96, "144" 144, "191" 191)
set ytics ("96" 0, "144" 48, "191" 95)
set palette defined (0 "#ffffff", 1 "#bee3f8", 2 "#2a7fb8")
set cbrange [0:2]
unset colorbox
set for [i=1:23] arrow from i*8-0.5, graph 0 to i*8-0.5, graph 1 nohead lc rgb "#a0aec0" lw 0.5 front
set for [i=1:15] arrow from graph 0, first i*6-0.5 to graph 1, first i*6-0.5 nohead lc rgb "#a0aec0" lw 0.5 front
set key below horizontal samplen 1.5 width 2
set style fill solid 1.0 border rgb "#a0aec0"
plot data matrix with image notitle, \
     keyentry with boxes lc rgb "#2a7fb8" title "看得见", \
     keyentry with boxes lc rgb "#bee3f8" title "看不见，寄存器块照算", \
     keyentry with boxes lc rgb "#ffffff" title "整个寄存器块不算"
