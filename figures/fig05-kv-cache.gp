# 图 5.2：KV 缓存逐词增长（数据和坐标：tangled/figures/fig05-kv-cache.c，用 attn_kv_cache_* 算出）
# 块 0 格子（x y 半宽 半高 值），1 新追加的行，2 空位，3 权重条，4 居中文字，5 左对齐文字
# 数字用小一号的字（SVG 的基准字号是 14，PDF 是 10）
small = GPVAL_TERM eq "svg" ? ",16" : ",9"
big = GPVAL_TERM eq "svg" ? ",18" : ",10"
set xrange [-0.8:50.5]
set yrange [-20.8:1.0]
unset border
unset tics
unset key
unset colorbox
set margins 0.5,0.5,0.5,0.5
set cbrange [-2.5:2.5]
set palette defined (-2.5 "#2471a3", 0 "white", 2.5 "#c0392b")
set style fill solid 1.0 noborder
plot datafile index 3 using 1:2:3:4 with boxxyerror fs solid 1.0 noborder lc rgb "#bcd7ec", \
     datafile index 0 using 1:2:3:4:5 with boxxyerror fs solid 1.0 border lc rgb "#888888" lc palette, \
     datafile index 2 using 1:2:3:4 with boxxyerror fs empty border lc rgb "#bbbbbb" dt 3 lw 1 lc rgb "#bbbbbb", \
     datafile index 1 using 1:2:3:4 with boxxyerror fs empty lw 2.5 lc rgb "#e07b00", \
     datafile index 4 using 1:2:3 with labels center font big, \
     datafile index 5 using 1:2:3 with labels left font small
