# 第 9 章速度的图：注意力每一步改进后的速度（GFLOP/s）随序列长度 n 的变化。
# 速度与机器有关，数据不是由库算出的，而是一次测量的记录，抄在第 9 章的 examples/ch09.h 里（速度的图的测量记录）
# （Intel Xeon 虚拟机，2 核，AVX-512，d = 64，4 个头，attn-bench 每点取多次测量中最好的一次）。
data = datafile
set logscale x 2
set logscale y 2
set xlabel "序列长度 n"
set ylabel "GFLOP/s（按 4n²d 计）"
set xrange [200:10000]
set yrange [0.5:1024]
set key at 9000,40 right top samplen 2.5 spacing 1.0
# 峰值（第 9 章的表里 attn-bench --peak 量出的）：AVX-512 一个核 176.3 GFLOP/s，两个核 352.3
peak1 = 176.3
peak2 = 352.3
set grid lc rgb "#dddddd"
set datafile missing "?"
plot data using 1:2 with linespoints lw 2 pt 7 lc rgb "#888888" title "参考实现 attn\\_sdpa", \
     data using 1:3 with linespoints lw 2 pt 5 lc rgb "#2a7fb8" title "分块 + 在线 softmax，1 线程", \
     data using 1:4 with linespoints lw 2 pt 9 lc rgb "#3a9a3a" title "再加因果跳块，1 线程（等效）", \
     data using 1:5 with linespoints lw 2 pt 13 lc rgb "#e07b00" title "不带掩码，2 线程", \
     peak2 with lines dt 3 lw 1.5 lc rgb "#c0392b" title sprintf("两个核的峰值 %.0f", peak2), \
     peak1 with lines dt 2 lw 1.5 lc rgb "#c0392b" title sprintf("一个核的峰值 %.0f", peak1)
