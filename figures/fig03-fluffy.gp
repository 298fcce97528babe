# 图 3.1：毛茸茸的蓝色生物的注意力模式。datafile：键 j，查询 i，权重（每行一个格子）。
set size ratio -1
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set xtics ('a' 0, 'fluffy' 1, 'blue' 2, 'creature' 3, 'roamed' 4, 'the' 5, 'verdant' 6, 'forest' 7) rotate by 30 right
set ytics ('a' 0, 'fluffy' 1, 'blue' 2, 'creature' 3, 'roamed' 4, 'the' 5, 'verdant' 6, 'forest' 7)
set xlabel '键'
set ylabel '查询'
set tics scale 0
set cbrange [0:1]
set cblabel '权重'
set palette defined (0 '#ffffff', 0.5 '#6baed6', 1 '#08306b')
set key off
plot datafile using 1:2:3 with image, \
     datafile using 1:2:($3 <= 0.5 ? sprintf('%.2f', $3) : '') with labels font ',9' tc rgb 'black', \
     datafile using 1:2:($3 > 0.5 ? sprintf('%.2f', $3) : '') with labels font ',9' tc rgb 'white'
