# figures/fig06-alignment.gp — 玩具翻译的交叉注意力模式（行 = 英文查询，列 = 中文键）
# 数据：tangled/figures/fig06-alignment.c 的输出，每行 “键 查询 权重”。
numfont = ',10'
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set cblabel font ',20'; set x2label font ',20'; numfont = ',18' }
set size ratio -1
set xrange [-0.5:4.5]
set yrange [3.5:-0.5]
set cbrange [0:1]
set palette defined (0 "white", 1 "#2b6cb0")
set cblabel "权重"
set tics scale 0
set x2tics ("我" 0, "昨天" 1, "看见" 2, "了" 3, "她" 4)
unset xtics
set ytics ("I" 0, "saw" 1, "her" 2, "yesterday" 3)
set x2label "键（中文源句）"
set ylabel "查询（英文译文）"
plot datafile using 1:2:3 with image notitle, \
     datafile using 1:2:(sprintf("%.2f", $3)):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font numfont notitle
