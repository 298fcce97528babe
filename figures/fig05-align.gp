# 图：n_q = 3、n_k = 4 时两种因果对齐的可见表（数据：tangled/figures/fig05-align.c，每行 “键 查询 可见”）
# 只有 0 和 1 两种值：格子里直接写 1 或 0，不用颜色条
lf = GPVAL_TERM eq 'svg' ? ',20' : ',10'
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20' }
set multiplot layout 1,2 margins 0.13,0.98,0.18,0.85 spacing 0.1,0
set size ratio -1
set xrange [-0.5:3.5]
set yrange [2.5:-0.5]
set xtics 0,1,3
set ytics 0,1,2
set tics scale 0
set xlabel "键 j"
set cbrange [0:1]
set palette defined (0 "#f7fafc", 1 "#2b6cb0")
unset colorbox
unset key
set title "左上角对齐：j ≤ i" font lf
set ylabel "查询 i"
plot datafile index 0 using 1:2:3 with image, \
     datafile index 0 using 1:2:($3 == 1 ? "1" : "") with labels tc rgb "white" font lf, \
     datafile index 0 using 1:2:($3 == 0 ? "0" : "") with labels tc rgb "#4a5568" font lf
set title "右下角对齐：j ≤ i + (n_k − n_q)" font lf
unset ylabel
plot datafile index 1 using 1:2:3 with image, \
     datafile index 1 using 1:2:($3 == 1 ? "1" : "") with labels tc rgb "white" font lf, \
     datafile index 1 using 1:2:($3 == 0 ? "0" : "") with labels tc rgb "#4a5568" font lf
unset multiplot
