# 第 9 章读内存的图：一个核顺序读一块缓冲区能多快，随缓冲区的大小变化（数据：tangled/figures/fig09-memory.c，
# 抄在第 9 章 examples/ch09.h 里的一次 attn-membw 测量记录）。竖线是这台机器每一级缓存的大小。
data = datafile
set logscale x 2
set xlabel "缓冲区的大小"
set ylabel "读的速度（GB/s）"
set xrange [6*1024:400*1024*1024]
set yrange [0:220]
set xtics ("16 KiB" 16*1024, "128 KiB" 128*1024, "1 MiB" 1024*1024, "8 MiB" 8*1024*1024, "64 MiB" 64*1024*1024, "256 MiB" 256*1024*1024)
set grid ytics lc rgb "#dddddd"
set key right top
set arrow from 48*1024, graph 0 to 48*1024, graph 1 nohead dt 2 lc rgb "#888888"
set arrow from 1024*1024, graph 0 to 1024*1024, graph 1 nohead dt 2 lc rgb "#888888"
set arrow from 32*1024*1024, graph 0 to 32*1024*1024, graph 1 nohead dt 2 lc rgb "#888888"
set label "一级 48 KiB" at 48*1024, graph 0.06 right offset -0.5,0
set label "二级 1 MiB" at 1024*1024, graph 0.06 right offset -0.5,0
set label "三级 32 MiB" at 32*1024*1024, graph 0.06 right offset -0.5,0
plot data using 1:2 with linespoints lw 2 pt 7 lc rgb "#2a7fb8" title "一个核顺序读（64 字节的向量）"
