#line 1401 "book/02-similarity.nw"
/* figures/live_json.h — 活图的数据程序向标准输出打印一个 JSON 对象：
   {"data": {图名: 网页要用的输入}, "checks": [{"figure": 图名, "do": 操作, "expect": {键: 数}}]}。
   “操作”是用分号隔开的 "fill 控件名 值"、"select 控件名 值"、"check 控件名 0|1"、"click 控件名 次数"；
   expect 的键是图上显示那个数的位置（网页里的 data-v 属性）。 */
#ifndef LIVE_JSON_H
#define LIVE_JSON_H

#include <stddef.h>

/* 开始一个对象 '{' 或数组 '['；key 为 NULL 表示数组里的一项 */
void live_open(const char *key, char bracket);
void live_close(char bracket);
void live_number(const char *key, double x);
void live_string(const char *key, const char *s);
void live_floats(const char *key, const float *x, size_t n);
/* 一次检查：对图 figure 做操作 ops，接下来用 live_number 写出期望的数，最后 live_check_end */
void live_check_begin(const char *figure, const char *ops);
void live_check_end(void);

#endif
