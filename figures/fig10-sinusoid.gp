# 图 10.1：正弦位置编码，d = 64，前 100 个位置（数据：tangled/figures/fig10-sinusoid.c，每行 "维度 位置 值"）
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set cblabel font ',20' }
set xrange [-0.5:63.5]
set yrange [99.5:-0.5]
set xtics 0,8,63
set ytics 0,10,99
set xlabel "维度 i（偶数列 sin，奇数列 cos）"
set ylabel "位置 p"
set cbrange [-1:1]
set palette defined (-1 "#2471a3", 0 "white", 1 "#c0392b")
set cblabel "PE(p)_i"
unset key
plot datafile using 1:2:3 with image
