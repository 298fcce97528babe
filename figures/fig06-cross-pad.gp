# 图：补了两个 pad 的玩具翻译，上不用掩码、下用填充掩码（数据：tangled/figures/fig06-cross-pad.c，
# 第 0、1 块，每行 “键 查询 权重”）。两幅画在同一个坐标系里，下幅的行往下挪 5 行，共用一个色条。
# 格子里的数只标 pad 两列（其余的格子看颜色）；HTML（SVG）在手机上缩到一半宽，字大一些。
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set cblabel font ',20'; lf = ',20'; numfont = ',18' } else { lf = ',10'; numfont = ',8' }
set size ratio -1
set xrange [-0.5:6.5]
set yrange [8.5:-1.2]
set cbrange [0:1]
set cbtics 0.5
set palette defined (0 "white", 1 "#2b6cb0")
set cblabel "权重"
set tics scale 0
set xtics ("我" 0, "昨天" 1, "看见" 2, "了" 3, "她" 4, "pad" 5, "pad" 6) rotate by 45 right
set ytics ("I" 0, "saw" 1, "her" 2, "yesterday" 3, "I" 5, "saw" 6, "her" 7, "yesterday" 8)
set label 1 "不用掩码" at 3,-0.85 center font lf
set label 2 "用填充掩码" at 3,4.15 center font lf
unset key
num(j, w) = j >= 5 ? sprintf("%.2f", w) : ""
plot datafile index 0 using 1:2:3 with image, \
     datafile index 1 using 1:($2 + 5):3 with image, \
     datafile index 0 using 1:2:(num($1, $3)):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font numfont, \
     datafile index 1 using 1:($2 + 5):(num($1, $3)):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font numfont
