# 图：creature 这一个查询的三步（数据：tangled/figures/fig03-fluffy-walk.c，三块：分数、权重、五个分量）
# 横着的柱子：左边两幅的每一行是一个键，右边一幅的每一行是词向量的一个分量。边距写死，三幅并排。
lf = ',10'; tf = ',10'
if (GPVAL_TERM eq 'svg') { set tics font ',17'; set key font ',17'; lf = ',16'; tf = ',18' }
set multiplot
set style fill solid 0.9 border rgb 'white'
set grid xtics
set key off
set tics scale 0.5
set yrange [7.6:-0.6]
set bmargin at screen 0.12
set tmargin at screen 0.9
# 左：缩放后的分数
set lmargin at screen 0.14
set rmargin at screen 0.36
set xrange [0:10.5]
set xtics 0, 2, 8
unset label
set label 1 '分数 q·k/√3' at graph 0.5, graph 1.07 center font tf
plot datafile index 0 using ($3/2):1:($3/2):(0.35):ytic(2) with boxxyerror lc rgb '#6baed6', \
     '' index 0 using ($3 + 0.3):1:($3 > 0 ? sprintf('%.2f', $3) : '') with labels left font lf
# 中：权重
set lmargin at screen 0.39
set rmargin at screen 0.62
set xrange [0:0.8]
set xtics 0, 0.25, 0.5
set format y ''
unset label
set label 1 '权重' at graph 0.5, graph 1.07 center font tf
plot datafile index 1 using ($3/2):1:($3/2):(0.35) with boxxyerror lc rgb '#08306b', \
     '' index 1 using ($3 + 0.02):1:($3 >= 0.01 ? sprintf('%.3f', $3) : '') with labels left font lf
# 右：五个分量上的 Δe、e、e + Δe
set lmargin at screen 0.77
set rmargin at screen 0.98
set format y '%g'
set yrange [4.6:-0.6]
set xrange [0:2.2]
set xtics 0, 1, 2
unset label
set label 1 '输出与残差' at graph 0.5, graph 1.07 center font tf
set key inside bottom right Left reverse samplen 1 spacing 0.9
plot datafile index 2 using ($3/2):($1 - 0.27):($3/2):(0.12):ytic(2) with boxxyerror lc rgb '#6baed6' title 'Δe', \
     '' index 2 using ($4/2):1:($4/2):(0.12) with boxxyerror lc rgb '#bdbdbd' title 'e', \
     '' index 2 using ($5/2):($1 + 0.27):($5/2):(0.12) with boxxyerror lc rgb '#08306b' title 'e + Δe'
unset multiplot
