# 图 13.4：“光”在输入和每一层的向量，投到各层自己的前两个主成分上（数据：tangled/figures/fig13-light.c，
# 每块 "第一主成分 第二主成分 组"，最后一块 "块 归对的比例 随机重分的平均 随机重分的最大"；块 0 是输入，块 l 是第 l−1 层之后）
stats datafile using 1 nooutput
blocks = STATS_blocks - 1
set multiplot layout 2,4 margins 0.01,0.99,0.02,0.80 spacing 0.02,0.17
unset xtics
unset ytics
unset key
set size ratio 1
set offsets graph 0.08, graph 0.08, graph 0.08, graph 0.08
set style fill solid
do for [l=0:blocks-1] {
  stats datafile index blocks using ($1 == l ? $2 : NaN) nooutput
  acc = STATS_max
  stats datafile index blocks using ($1 == l ? $3 : NaN) nooutput
  null = STATS_max
  set title (l == 0 ? "输入" : sprintf("第 %d 层之后", l - 1)) . sprintf("\n%.0f%%（随机 %.0f%%）", 100 * acc, 100 * null) font ",8"
  last = l == blocks - 1
  # 图例：画在最后一格的右边（第八格的位置）
  if (last) { set key at screen 0.77, screen 0.25 left center reverse Left font ",9" samplen 1 } else { unset key }
  plot datafile index l using 1:($3 == 0 ? $2 : NaN) with points pt 7 ps 0.4 lc rgb "#e67e22" title (last ? "光亮" : ""), \
       datafile index l using 1:($3 == 1 ? $2 : NaN) with points pt 7 ps 0.4 lc rgb "#27ae60" title (last ? "景色" : ""), \
       datafile index l using 1:($3 == 2 ? $2 : NaN) with points pt 7 ps 0.4 lc rgb "#8e44ad" title (last ? "恩宠" : "")
}
unset multiplot
