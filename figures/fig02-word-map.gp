# 图 2.1：手画的二维词地图。datafile 第 0 块：x y 类别 字；第 1 块：0 0 x y 字（箭头）。
set size ratio -1
set xrange [-3:4]
set yrange [-3:3]
set xtics 1
set ytics 1
set grid lc rgb '#dddddd'
set xzeroaxis lt 1 lc rgb '#999999'
set yzeroaxis lt 1 lc rgb '#999999'
set key off
set palette defined (0 '#d62728', 1 '#1f77b4', 2 '#8c564b', 3 '#2ca02c')
set cbrange [0:3]
unset colorbox
plot datafile index 1 using 1:2:3:4 with vectors head filled size screen 0.012,20 lw 1.5 lc rgb '#aaaaaa', \
     datafile index 0 using 1:2:3 with points pt 7 ps 1.1 lc palette, \
     datafile index 0 using ($1+0.12):($2+0.18):4:3 with labels left tc palette font ',13'
