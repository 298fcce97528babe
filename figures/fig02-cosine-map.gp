# 图：十四个字两两的余弦相似度（数据：tangled/figures/fig02-cosine-map.c，每行 “列 行 余弦 列的字 行的字”）
# 字的次序就是词地图的次序（按类别）；刻度的字取自数据，地图改了图跟着改。
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set cblabel font ',20' }
set size ratio -1
set xrange [-0.5:13.5]
set yrange [13.5:-0.5]
set tics scale 0
set cbrange [-1:1]
set cbtics 0.5
set palette defined (-1 "#c0392b", 0 "white", 1 "#2471a3")
set cblabel "余弦"
unset key
plot datafile using 1:2:3 with image, \
     datafile using 1:(1/0):xtic(4) notitle, \
     datafile using (1/0):2:ytic(5) notitle
