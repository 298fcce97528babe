# 图 13.3：三个头读《登鹳雀楼》（数据：tangled/figures/fig13-heads.c，三块 "查询 键 权重"，
# 第四块是三个头的 "层 头"）
stats datafile index 3 using 1:2 nooutput
set multiplot layout 1,3 margins 0.06,0.99,0.08,0.9 spacing 0.04,0
set size ratio -1
set xrange [-0.5:24.5]
set yrange [24.5:-0.5]
set cbrange [0:1]
set palette defined (0 "white", 0.5 "#6baed6", 1 "#08306b")
unset colorbox
unset key
set tics scale 0 font ",7"
set xtics ("↵" 0, "白" 1, "日" 2, "依" 3, "山" 4, "尽" 5, "，" 6, "黄" 7, "河" 8, "入" 9, "海" 10, "流" 11, \
           "。" 12, "欲" 13, "穷" 14, "千" 15, "里" 16, "目" 17, "，" 18, "更" 19, "上" 20, "一" 21, \
           "层" 22, "楼" 23, "。" 24)
set ytics ("↵" 0, "白" 1, "日" 2, "依" 3, "山" 4, "尽" 5, "，" 6, "黄" 7, "河" 8, "入" 9, "海" 10, "流" 11, \
           "。" 12, "欲" 13, "穷" 14, "千" 15, "里" 16, "目" 17, "，" 18, "更" 19, "上" 20, "一" 21, \
           "层" 22, "楼" 23, "。" 24)
set title "前一个字" font ",10"
plot datafile index 0 using 2:1:3 with image
set title "上一句同一位置（对仗）" font ",10"
plot datafile index 1 using 2:1:3 with image
set title "上一联的韵脚（押韵）" font ",10"
plot datafile index 2 using 2:1:3 with image
unset multiplot
