# 图：异或网络沿 s = x1 + x2（数据：tangled/figures/fig01-xor.c；第一块 “s h1 -2·h2 y”，第二块 “s y 名字”）
lf = GPVAL_TERM eq 'svg' ? ',18' : ',10'
set xlabel "s = x_1 + x_2"
set ylabel "对输出的贡献"
set xrange [-0.5:2.5]
set yrange [-3.3:2.8]
set xtics 0,1,2
set grid lc rgb "#e2e8f0"
set key bottom left box opaque
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set key font ',20' }
plot datafile index 0 using 1:2 with lines lw 2 dt 2 lc rgb "#2a7fb8" title "h_1", \
     datafile index 0 using 1:3 with lines lw 2 dt 2 lc rgb "#e07b00" title "−2h_2", \
     datafile index 0 using 1:4 with lines lw 3 lc rgb "#222222" title "y = h_1 − 2h_2", \
     datafile index 1 using 1:2 with points pt 7 ps 1.3 lc rgb "#c0392b" notitle, \
     datafile index 1 using 1:2:3 every ::0::0 with labels offset 0,1.1 font lf notitle, \
     datafile index 1 using 1:2:(sprintf("%s、%s", "(1,0)", "(0,1)")) every ::1::1 with labels offset 0,1.1 font lf notitle, \
     datafile index 1 using 1:2:3 every ::3::3 with labels offset 0,1.1 font lf notitle
