# 图 5.1：6 个位置的因果注意力模式（数据：tangled/figures/fig05-causal.c，每行 "查询 键 权重"）
numfont = ',11'
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set cblabel font ',20'; numfont = ',18' }
set size ratio -1
set xrange [-0.5:5.5]
set yrange [5.5:-0.5]
set xtics 0,1,5
set ytics 0,1,5
set xlabel "键 j"
set ylabel "查询 i"
set cbrange [0:1]
set palette defined (0 "white", 1 "#2471a3")
set cblabel "权重"
unset key
plot datafile using 2:1:3 with image, \
     datafile using 2:1:(sprintf("%.2f", $3)) with labels font numfont
