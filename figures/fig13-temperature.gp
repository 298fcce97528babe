# 图：读了“白日依山”以后下一个字的概率，四个温度（数据：tangled/figures/fig13-temperature.c，
# 每行 "名次 字 温度0.5 温度0.8 温度1 温度1.5"）
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
set xlabel "下一个字（按温度 1 时的概率从大到小）"
set ylabel "概率"
set yrange [0:*]
set grid ytics
set key top right title "温度"
set xtics nomirror
plot datafile using 3:xtic(2) title "0.5" lc rgb "#1a5276", \
     '' using 4 title "0.8" lc rgb "#2e86c1", \
     '' using 5 title "1" lc rgb "#85c1e9", \
     '' using 6 title "1.5" lc rgb "#f5b041"
