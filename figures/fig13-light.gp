# 图 13.4：“光”在输入和每一层的向量，投到各层自己的前两个主成分上（数据：tangled/figures/fig13-light.c，
# 每层一块 "第一主成分 第二主成分 组"，最后一块 "层 归对的比例"）
stats datafile using 1 nooutput
layers = STATS_blocks - 1
set multiplot layout 2,4 margins 0.02,0.98,0.04,0.92 spacing 0.02,0.08
unset xtics
unset ytics
unset key
set size ratio 1
set style fill solid
do for [l=0:layers-1] {
  stats datafile index layers using ($1 == l ? $2 : NaN) nooutput
  acc = STATS_max
  set title (l == 0 ? "输入" : sprintf("第 %d 层之后", l)) . sprintf("（%.0f%%）", 100 * acc) font ",10"
  plot datafile index l using 1:($3 == 0 ? $2 : NaN) with points pt 7 ps 0.4 lc rgb "#e67e22", \
       datafile index l using 1:($3 == 1 ? $2 : NaN) with points pt 7 ps 0.4 lc rgb "#27ae60", \
       datafile index l using 1:($3 == 2 ? $2 : NaN) with points pt 7 ps 0.4 lc rgb "#8e44ad"
}
# 第八格：图例
set key center center font ",10"
unset border
set title ""
set xrange [0:1]
set yrange [0:1]
plot NaN with points pt 7 ps 1 lc rgb "#e67e22" title "光亮：月光、日光、灯光……", \
     NaN with points pt 7 ps 1 lc rgb "#27ae60" title "景色：春光、风光、山光……", \
     NaN with points pt 7 ps 1 lc rgb "#8e44ad" title "恩宠：恩光、荣光"
unset multiplot
