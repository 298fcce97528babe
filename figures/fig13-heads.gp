# 图 13.3：三个头读《登鹳雀楼》（数据：tangled/figures/fig13-heads.c，三块 "查询 键 权重"，
# 第四块一行：三个头的 "层 头 层 头 层 头"，都从 0 数起）
# 三个头的编号（在设置坐标范围之前读：stats 只看范围里的点）
heads = ""
do for [c=1:6] {
  stats datafile index 3 using c nooutput
  heads = heads . sprintf(" %d", STATS_min)
}
set multiplot layout 1,3 margins 0.04,0.87,0.12,0.92 spacing 0.04,0
set size ratio -1
set xrange [-0.5:24.5]
set yrange [24.5:-0.5]
set cbrange [0:1]
set palette defined (0 "white", 0.5 "#6baed6", 1 "#08306b")
unset colorbox
unset key
# 只标换行和每句的末字（韵脚是“流”“楼”）；细线分开四句
# HTML（SVG）在手机上会缩到一半左右宽，所以 SVG 的字大一些
ticfont = GPVAL_TERM eq "svg" ? ",15" : ",8"
titlefont = GPVAL_TERM eq "svg" ? ",15" : ",9"
cbfont = GPVAL_TERM eq "svg" ? ",14" : ",8"
set tics scale 0 font ticfont
set xtics ("↵" 0, "尽" 5, "流" 11, "目" 17, "楼" 23)
set ytics ("↵" 0, "尽" 5, "流" 11, "目" 17, "楼" 23)
do for [b in "6.5 12.5 18.5"] {
  set arrow from first b, graph 0 to first b, graph 1 nohead lw 0.5 lc rgb "#999999" front
  set arrow from graph 0, first b to graph 1, first b nohead lw 0.5 lc rgb "#999999" front
}
names = "前一个字 同一联里上一句的同一位置 上一个韵脚"
do for [k=0:2] {
  layer = word(heads, 2 * k + 1)
  head = word(heads, 2 * k + 2)
  set title "头 (" . layer . ", " . head . ")\n" . word(names, k + 1) font titlefont
  if (k == 2) {
    set colorbox user origin screen 0.885, 0.3 size screen 0.015, 0.45
    set cbtics 0.25 font cbfont
  }
  plot datafile index k using 2:1:3 with image
}
unset multiplot
