# 图 3.1：毛茸茸的蓝色生物的注意力权重。datafile：键 j，查询 i，权重（每行一个格子）。
# 格子里是舍入到两位的权重（正文没有另列一张表），右边的色条给出颜色和权重的对应。
# HTML（SVG）在手机上会缩到一半左右宽，所以 SVG 的字大一些。
numfont = ',8'
if (GPVAL_TERM eq 'svg') { set tics font ',20'; set xlabel font ',20'; set ylabel font ',20'; set cblabel font ',20'; numfont = ',15' }
set size ratio -1
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set xtics ('a' 0, 'fluffy' 1, 'blue' 2, 'creature' 3, 'roamed' 4, 'the' 5, 'verdant' 6, 'forest' 7) rotate by 45 right
set ytics ('a' 0, 'fluffy' 1, 'blue' 2, 'creature' 3, 'roamed' 4, 'the' 5, 'verdant' 6, 'forest' 7)
set xlabel '键'
set ylabel '查询'
set tics scale 0
set cbrange [0:1]
set cbtics 0.25
set cblabel '权重'
set palette defined (0 '#ffffff', 0.5 '#6baed6', 1 '#08306b')
set key off
plot datafile using 1:2:3 with image, \
     datafile using 1:2:(sprintf("%.2f", $3)):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font numfont
