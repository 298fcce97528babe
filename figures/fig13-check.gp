# 图：检查器的两个比例（数据：tangled/figures/fig13-check.c，两块，每行 "体裁 真诗 温度0.8和top-k40 缺省不管押韵"，
# 第一块是“一个字用了三次以上”，第二块是“双数句押韵”，都是百分数）
set multiplot layout 1,2 margins 0.11,0.98,0.12,0.86 spacing 0.08,0
set style data histograms
set style histogram clustered gap 1.3
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid ytics
set xtics nomirror

set yrange [0:100]
set key top left font ",9"
set title "一个字用了三次以上的诗（%）" font ",10"
plot datafile index 0 using 2:xtic(1) title "真诗" lc rgb "#7f8c8d", \
     '' index 0 using 3 title "温度 0.8、top-k 40" lc rgb "#c0392b", \
     '' index 0 using 4 title "缺省，不管押韵" lc rgb "#2471a3"
unset key

set title "双数句押韵的诗（%，模型自己押）" font ",10"
plot datafile index 1 using 2:xtic(1) lc rgb "#7f8c8d", \
     '' index 1 using 3 lc rgb "#c0392b", \
     '' index 1 using 4 lc rgb "#2471a3"
unset multiplot
