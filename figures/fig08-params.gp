# 图 8：三种数法下参数的去向（堆叠的百分比柱），柱顶标出总数（亿）。
# 数据列：模型 注意力% MLP% 嵌入% 层规范化% 总数（亿）
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb "black"
set boxwidth 0.55
set yrange [0:112]
set ytics 0,20,100
set ylabel "占参数总数的百分比"
set key outside right top vertical
set grid ytics
plot datafile using 2:xtic(1) title "注意力" lc rgb "#4C72B0", \
     '' using 3 title "MLP" lc rgb "#DD8452", \
     '' using 4 title "嵌入" lc rgb "#55A868", \
     '' using 5 title "层规范化" lc rgb "#C44E52", \
     '' using 0:(105):(sprintf("%.2f 亿", $6)) with labels notitle
