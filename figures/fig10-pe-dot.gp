# 图：正弦位置编码两两的点积，d = 64（数据：tangled/figures/fig10-pe-dot.c，每行 “位置 q 位置 p 点积”）
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set cblabel font ',20' }
set size ratio -1
set xrange [-0.5:63.5]
set yrange [63.5:-0.5]
set xtics 0,16,63
set ytics 0,16,63
set xlabel "位置 q"
set ylabel "位置 p"
set palette defined (0 "white", 1 "#2471a3")
set cbtics 4
set cblabel "PE(p) · PE(q)"
unset key
plot datafile using 1:2:3 with image
