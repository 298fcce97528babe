# 图 8.1：三种数法下参数的去向（堆叠的百分比柱），柱顶标出总数（亿，取到正文用的位数）。
# 数据列：模型 注意力% MLP% 嵌入% 层规范化% 总数（亿）
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb "black"
set boxwidth 0.5
set xrange [-0.6:2.6]
set yrange [0:118]
set ytics 0,20,100 nomirror
set xtics nomirror scale 0
set ylabel "占参数总数的百分比"
set key outside top center horizontal samplen 1.5 width -1
set grid ytics
set tmargin 3.5
set bmargin 3.5
# 名字里的“（”前换行，三个名字就不会挤在一起
name(s) = strstrt(s, "（") > 0 ? s[1:strstrt(s, "（") - 1] . "\n" . s[strstrt(s, "（"):*] : s
total(x) = x < 100 ? sprintf("%.2f 亿", x) : sprintf("%.0f 亿", x)
plot datafile using 2:xtic(name(strcol(1))) title "注意力" lc rgb "#4C72B0", \
     '' using 3 title "MLP" lc rgb "#DD8452", \
     '' using 4 title "嵌入" lc rgb "#55A868", \
     '' using 5 title "层规范化" lc rgb "#C44E52", \
     '' using 0:(109):(total($6)) with labels notitle
