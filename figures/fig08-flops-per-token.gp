# 图：GPT-2 small 每个词的计算量随上下文长度（数据：tangled/figures/fig08-flops-per-token.c；
# 第 0 块 “N 注意力 矩阵 矩阵加反嵌入”，第 1 块两个分界）
set logscale xy 2
set xrange [128:65536]
set yrange [1e7:2e9]
set logscale y 10
set format y "10^{%L}"
set xtics ("128" 128, "512" 512, "2048" 2048, "8192" 8192, "32768" 32768)
set xlabel "上下文长度 N（词）"
set ylabel "每个词的 FLOP"
set grid lc rgb "#e2e8f0"
set key top left box opaque
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set key font ',20' }
plot datafile index 0 using 1:2 with lines lw 3 lc rgb "#c0392b" title "注意力 4NdL", \
     datafile index 0 using 1:3 with lines lw 2 lc rgb "#2471a3" title "权重矩阵 24d^2L", \
     datafile index 0 using 1:4 with lines lw 2 dt 2 lc rgb "#2471a3" title "再加反嵌入", \
     datafile index 1 using 1:(1e7):(0):(2e9 - 1e7) with vectors nohead dt 3 lc rgb "#718096" notitle, \
     datafile index 1 using 1:(1.5e7):(sprintf("%.0f", $1)) every ::0::0 with labels right offset -0.4,0 font (GPVAL_TERM eq 'svg' ? ',18' : ',10') notitle, \
     datafile index 1 using 1:(1.5e7):(sprintf("%.0f", $1)) every ::1::1 with labels left offset 0.4,0 font (GPVAL_TERM eq 'svg' ? ',18' : ',10') notitle
