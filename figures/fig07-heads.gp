# figures/fig07-heads.gp — 三个手工头在同一句话上的注意力模式（行 = 查询，列 = 键）
# 数据：tangled/figures/fig07-heads.c 的输出，三块，每行 “键 查询 权重”。
# 句子写在图注里，不作总标题（总标题会压住三个小标题）；最右边一张带颜色条
tf = GPVAL_TERM eq 'svg' ? ',15' : ',7'
ttf = GPVAL_TERM eq 'svg' ? ',20' : ',10'
cf = GPVAL_TERM eq 'svg' ? ',18' : ',8'
set multiplot layout 1,3 margins 0.1,0.88,0.2,0.88 spacing 0.03,0
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set cbrange [0:1]
set palette defined (0 "white", 1 "#2b6cb0")
unset colorbox
set tics scale 0 font tf
set xtics rotate by 60 right
set xtics ("a" 0, "fluffy" 1, "blue" 2, "creature" 3, "roamed" 4, "the" 5, "verdant" 6, "forest" 7)
set ytics ("a" 0, "fluffy" 1, "blue" 2, "creature" 3, "roamed" 4, "the" 5, "verdant" 6, "forest" 7)
set title "头 0：看前一个词" font ttf
plot datafile index 0 using 1:2:3 with image notitle
set title "头 1：名词找形容词" font ttf
unset ytics
plot datafile index 1 using 1:2:3 with image notitle
set title "头 2：看句首" font ttf
set colorbox user origin 0.905,0.2 size 0.018,0.68
set cbtics 0,0.5,1 font cf
set cblabel "权重" font cf
plot datafile index 2 using 1:2:3 with image notitle
unset multiplot
