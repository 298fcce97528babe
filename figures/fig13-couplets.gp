# 图：两个头在对照的字对上的权重和基线（数据：tangled/figures/fig13-couplets.c，每行 "名字 权重 基线"）
set style data histograms
set style histogram clustered gap 1.2
set style fill solid 0.9 border -1
set boxwidth 0.9
set ylabel "平均权重"
set yrange [0:0.24]
set grid ytics
set key at graph 0.02, graph 0.88 left top
set xtics nomirror
set arrow from 4.5, graph 0 to 4.5, graph 1 nohead dt 2 lc rgb "#777777"
set label "头 (4, 0)" at 2, graph 0.96 center font ",9"
set label "头 (4, 1)" at 5.5, graph 0.96 center font ",9"
plot datafile using 2:xtic(1) title "权重" lc rgb "#1f4e79", \
     '' using 3 title "同距离的基线" lc rgb "#9dc3e6"
