#line 5015 "book/13-poems.nw"
/* programs/poet/checkpoint.c — 第 13 章：safetensors 文件，GPT-2 的名字 */
#include "poet.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors 的数据是小端序的；这份代码直接复制 float，只适用于小端序的机器"
#endif

#line 5064 "book/13-poems.nw"
/* 出错：关掉 *f，写下说明，返回 POET_EDATA */
__attribute__((format(printf, 3, 4)))
static int st_fail(poet_safetensors *f, poet_err *e, const char *fmt, ...)
{
    if (e != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    poet_safetensors_close(f);
    return POET_EDATA;
}

/* JSON 的数 x 是 0 到 2^53 之间的整数（double 能精确表示的范围） */
static int json_u64(const cJSON *x, uint64_t *out)
{
    if (!cJSON_IsNumber(x))
        return 0;
    double d = x->valuedouble;
    if (!(d >= 0.0 && d <= 9007199254740992.0) || d != floor(d))
        return 0;
    *out = (uint64_t)d;
    return 1;
}

static int by_begin(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* 元数据 key 是 [lo, hi] 里的十进制整数 */
static int meta_size(const poet_safetensors *f, const char *key, size_t lo, size_t hi, size_t *out,
                     poet_err *e)
{
    const char *s = poet_safetensors_meta(f, key);
    char *end;
    if (s == NULL)
        return poet_fail(e, POET_EDATA, "元数据里没有 %s", key);
    unsigned long long v = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (*s < '0' || *s > '9' || *end != '\0' || v < lo || v > hi)
        return poet_fail(e, POET_EDATA, "元数据 %s = \"%s\" 不是 %zu 到 %zu 之间的整数", key, s, lo, hi);
    *out = (size_t)v;
    return ATTN_OK;
}

#line 5113 "book/13-poems.nw"
int poet_safetensors_open(const unsigned char *buf, size_t n, poet_safetensors *f, poet_err *e)
{
    memset(f, 0, sizeof *f);
    if (buf == NULL || n < 8)
        return st_fail(f, e, "文件只有 %zu 个字节，放不下头部的长度（8 个字节）", n);
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | buf[i];
    if (hlen > n - 8)
        return st_fail(f, e, "头部说它有 %llu 个字节，文件在它后面只剩 %zu 个字节",
                       (unsigned long long)hlen, n - 8);
    cJSON *root = cJSON_ParseWithLength((const char *)buf + 8, (size_t)hlen);
    if (root == NULL || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return st_fail(f, e, "头部不是一个 JSON 对象");
    }
    f->header = root;
    f->data = buf + 8 + hlen;
    f->data_len = n - 8 - (size_t)hlen;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "__metadata__");
    if (meta != NULL) {
        const cJSON *kv;
        if (!cJSON_IsObject(meta))
            return st_fail(f, e, "__metadata__ 不是一个 JSON 对象");
        cJSON_ArrayForEach(kv, meta)
            if (!cJSON_IsString(kv))
                return st_fail(f, e, "元数据 %s 的值不是字符串", kv->string);
    }
    f->spans = malloc(((size_t)cJSON_GetArraySize(root) + 1) * sizeof *f->spans);
    if (f->spans == NULL)
        return st_fail(f, e, "内存不足");
#line 4974 "book/13-poems.nw"
    /* 头部里的每个张量：类型、形状、偏移；记下偏移，稍后查它们是否正好铺满数据段 */
    size_t count = 0;
    cJSON *item;
    cJSON_ArrayForEach(item, root) {
        if (strcmp(item->string, "__metadata__") == 0)
            continue;
        const char *name = item->string;
        const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(item, "dtype");
        const cJSON *shape = cJSON_GetObjectItemCaseSensitive(item, "shape");
        const cJSON *offs = cJSON_GetObjectItemCaseSensitive(item, "data_offsets");
        if (!cJSON_IsString(dtype) || strcmp(dtype->valuestring, "F32") != 0)
            return st_fail(f, e, "张量 %s 的类型不是 F32", name);
        uint64_t numel = 1, b, end;
        if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) > 8)
            return st_fail(f, e, "张量 %s 的形状不是一个不超过 8 维的数组", name);
        const cJSON *dim;
        cJSON_ArrayForEach(dim, shape) {
            uint64_t k;
            if (!json_u64(dim, &k) || __builtin_mul_overflow(numel, k, &numel))
                return st_fail(f, e, "张量 %s 的形状不是合理的非负整数", name);
        }
        if (!cJSON_IsArray(offs) || cJSON_GetArraySize(offs) != 2 ||
            !json_u64(cJSON_GetArrayItem(offs, 0), &b) || !json_u64(cJSON_GetArrayItem(offs, 1), &end) ||
            b > end || end > f->data_len)
            return st_fail(f, e, "张量 %s 的偏移不在数据段（%zu 字节）之内", name, f->data_len);
        if (numel > UINT64_MAX / 4 || end - b != 4 * numel)
            return st_fail(f, e, "张量 %s 的形状要 %llu 个数，偏移却给了 %llu 个字节", name,
                           (unsigned long long)numel, (unsigned long long)(end - b));
        f->spans[count][0] = b;
        f->spans[count][1] = end;
        count++;
    }
#line 5166 "book/13-poems.nw"
    qsort(f->spans, count, sizeof *f->spans, by_begin);
    uint64_t at = 0;
    for (size_t i = 0; i < count; i++) {
        if (f->spans[i][0] != at)
            return st_fail(f, e, f->spans[i][0] > at ? "数据段从第 %llu 个字节起有一段不属于任何张量"
                                                     : "两个张量的数据在第 %llu 个字节处重叠",
                           (unsigned long long)at);
        at = f->spans[i][1];
    }
    if (at != f->data_len)
        return st_fail(f, e, "数据段从第 %llu 个字节起有一段不属于任何张量", (unsigned long long)at);
#line 5145 "book/13-poems.nw"
    f->n_tensors = count;
    return ATTN_OK;
}

const char *poet_safetensors_meta(const poet_safetensors *f, const char *key)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(f->header, "__metadata__");
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(meta, key));
}

void poet_safetensors_close(poet_safetensors *f)
{
    cJSON_Delete(f->header);
    free(f->spans);
    memset(f, 0, sizeof *f);
}

#line 5180 "book/13-poems.nw"
int poet_safetensors_get(const poet_safetensors *f, const char *name, size_t rows, size_t cols,
                         float *dst, poet_err *e)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(f->header, name);
    if (item == NULL || strcmp(name, "__metadata__") == 0)
        return poet_fail(e, POET_EDATA, "没有张量 %s", name);
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(item, "shape");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(item, "data_offsets");
    uint64_t r = 0, c = 0, b = 0;
    int dims = cJSON_GetArraySize(shape);
    if (dims != (cols ? 2 : 1) || !json_u64(cJSON_GetArrayItem(shape, 0), &r) || r != rows ||
        (cols && (!json_u64(cJSON_GetArrayItem(shape, 1), &c) || c != cols)))
        return cols ? poet_fail(e, POET_EDATA, "张量 %s 的形状应当是 [%zu, %zu]", name, rows, cols)
                    : poet_fail(e, POET_EDATA, "张量 %s 的形状应当是 [%zu]", name, rows);
    json_u64(cJSON_GetArrayItem(offs, 0), &b);          /* open 已经核实过 */
    size_t count = rows * (cols ? cols : 1);
    memcpy(dst, f->data + b, count * sizeof *dst);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(dst[i]))
            return poet_fail(e, POET_EDATA, "张量 %s 的第 %zu 个数不是有限数", name, i + 1);
    return ATTN_OK;
}

#line 5208 "book/13-poems.nw"
int poet_safetensors_write(const char *path, const poet_named *t, size_t n,
                           const char *const *meta, poet_err *e)
{
    cJSON *root = cJSON_CreateObject();
    int ok = root != NULL;
    if (ok && meta != NULL) {
        cJSON *m = cJSON_AddObjectToObject(root, "__metadata__");
        ok = m != NULL;
        for (size_t i = 0; ok && meta[i] != NULL && meta[i + 1] != NULL; i += 2)
            ok = cJSON_AddStringToObject(m, meta[i], meta[i + 1]) != NULL;
    }
    uint64_t at = 0;
    for (size_t i = 0; ok && i < n; i++) {
        size_t count = t[i].rows * (t[i].cols ? t[i].cols : 1);
        cJSON *o = cJSON_AddObjectToObject(root, t[i].name), *shape = cJSON_CreateArray(),
              *offs = cJSON_CreateArray();
        ok = o != NULL && shape != NULL && offs != NULL &&
             cJSON_AddStringToObject(o, "dtype", "F32") != NULL &&
             cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)t[i].rows)) &&
             (!t[i].cols || cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)t[i].cols))) &&
             cJSON_AddItemToArray(offs, cJSON_CreateNumber((double)at)) &&
             cJSON_AddItemToArray(offs, cJSON_CreateNumber((double)(at + 4 * count)));
        if (o != NULL && shape != NULL && offs != NULL) {
            cJSON_AddItemToObject(o, "shape", shape);
            cJSON_AddItemToObject(o, "data_offsets", offs);
        } else {
            cJSON_Delete(shape);
            cJSON_Delete(offs);
        }
        at += 4 * count;
    }
    char *head = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (head == NULL)
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    size_t hlen = strlen(head), padded = (hlen + 7) / 8 * 8, total = 8 + padded + (size_t)at;
    unsigned char *buf = malloc(total);
    if (buf == NULL) {
        cJSON_free(head);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    for (int i = 0; i < 8; i++)
        buf[i] = (unsigned char)((uint64_t)padded >> (8 * i));
    memcpy(buf + 8, head, hlen);
    memset(buf + 8 + hlen, ' ', padded - hlen);
    cJSON_free(head);
    unsigned char *p = buf + 8 + padded;
    for (size_t i = 0; i < n; i++) {
        size_t bytes = 4 * t[i].rows * (t[i].cols ? t[i].cols : 1);
        memcpy(p, t[i].src, bytes);
        p += bytes;
    }
    int st = poet_write_file(path, buf, total, e);
    free(buf);
    return st;
}

#line 4903 "book/13-poems.nw"
/* parts 块各 rows × cols 的矩阵（一维的当作 1 × rows）左右拼成 fused[rows][parts·cols]；
   back 非零时反过来，把 fused 拆回各块 */
static void stitch(float *const *part, size_t parts, size_t rows, size_t cols, float *fused, int back)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t p = 0; p < parts; p++) {
            float *one = part[p] + r * cols, *all = fused + (r * parts + p) * cols;
            memcpy(back ? one : all, back ? all : one, cols * sizeof *fused);
        }
}

#line 4916 "book/13-poems.nw"
/* 检查点里的一个张量：名字、形状，和它由参数块里的哪几块拼成 */
typedef struct {
    poet_named t;
    size_t parts, at[3];       /* 几块（c_attn 是 3 块，其余 1 块）；各自在参数块里的起点 */
    size_t rows, cols;         /* 每一块的形状（一维的：1 × 个数） */
} ckpt_tensor;

/* 按参数表的顺序列出检查点里的张量（同名的几块在第 0 份的位置合成一个），返回个数；
   *biggest 是拼起来最大的那个的 float 个数 */
static size_t checkpoint_tensors(const attn_gpt_config *cfg, ckpt_tensor *c, size_t *biggest)
{
    size_t tensors = attn_gpt_tensor_count(cfg), n = 0;
    attn_gpt_tensor x, y;
    *biggest = 0;
    for (size_t k = 0; k < tensors; k++) {
        attn_gpt_tensor_info(cfg, k, &x);
        if (x.part > 0)
            continue;                   /* 已经并进第 0 份 */
        ckpt_tensor *o = &c[n++];
        o->parts = 0;
        for (size_t j = k; j < tensors; j++) {
            attn_gpt_tensor_info(cfg, j, &y);
            if (strcmp(y.name, x.name) == 0 && o->parts < 3)
                o->at[o->parts++] = y.offset;
        }
        o->rows = x.cols ? x.rows : 1;
        o->cols = x.cols ? x.cols : x.rows;
        snprintf(o->t.name, sizeof o->t.name, "%s", x.name);
        o->t.rows = x.cols ? x.rows : x.rows * o->parts;        /* 一维的拼起来还是一维 */
        o->t.cols = x.cols * o->parts;
        if (o->rows * o->cols * o->parts > *biggest)
            *biggest = o->rows * o->cols * o->parts;
    }
    return n;
}

#line 5269 "book/13-poems.nw"
int poet_save(const char *path, const attn_gpt *m, const poet_vocab *v, const char *const *extra,
              poet_err *e)
{
    size_t tensors = attn_gpt_tensor_count(&m->cfg), n, biggest;
    if (v->n != m->cfg.vocab)
        return poet_fail(e, ATTN_EINVAL, "词表有 %zu 个词元，模型的词表却是 %llu", v->n,
                         (unsigned long long)m->cfg.vocab);
    ckpt_tensor *c = calloc(tensors, sizeof *c);
    poet_named *t = calloc(tensors, sizeof *t);
    n = c != NULL ? checkpoint_tensors(&m->cfg, c, &biggest) : 0;
    float *fused = c != NULL ? malloc(m->n_params * sizeof *fused) : NULL;   /* 拼好的张量，按顺序放 */
    char *vocab = NULL;
    if (c == NULL || t == NULL || fused == NULL || poet_vocab_to_json(v, &vocab) != ATTN_OK) {
        free(c); free(t); free(fused); free(vocab);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    float *next = fused;
    for (size_t i = 0; i < n; i++) {
        t[i] = c[i].t;
        t[i].src = m->params + c[i].at[0];
        if (c[i].parts > 1) {                    /* c_attn：几块拼进 fused */
            float *part[3];
            for (size_t p = 0; p < c[i].parts; p++)
                part[p] = m->params + c[i].at[p];
            stitch(part, c[i].parts, c[i].rows, c[i].cols, next, 0);
            t[i].src = next;
            next += c[i].rows * c[i].cols * c[i].parts;
        }
    }
    char nl[24], nh[24], ne[24], nc[24];
    snprintf(nl, sizeof nl, "%llu", (unsigned long long)m->cfg.n_layers);
    snprintf(nh, sizeof nh, "%llu", (unsigned long long)m->cfg.n_heads);
    snprintf(ne, sizeof ne, "%llu", (unsigned long long)m->cfg.d_model);
    snprintf(nc, sizeof nc, "%llu", (unsigned long long)m->cfg.n_ctx);
    const char *meta[64] = {"format", "pt", "model_type", "gpt2", "n_layer", nl, "n_head", nh,
                            "n_embd", ne, "n_ctx", nc, "layer_norm_epsilon", "1e-05", "vocab", vocab};
    size_t k = 16;
    for (size_t i = 0; extra != NULL && extra[i] != NULL && extra[i + 1] != NULL && k + 3 < 64; i += 2) {
        meta[k++] = extra[i];
        meta[k++] = extra[i + 1];
    }
    meta[k] = NULL;
    int st = poet_safetensors_write(path, t, n, meta, e);
    free(c);
    free(t);
    free(fused);
    free(vocab);
    return st;
}

#line 5323 "book/13-poems.nw"
int poet_load_buffer(const unsigned char *buf, size_t n, attn_gpt *m, poet_vocab *v, poet_err *e)
{
    memset(m, 0, sizeof *m);
    memset(v, 0, sizeof *v);
    poet_safetensors f;
    int st = poet_safetensors_open(buf, n, &f, e);
    if (st != ATTN_OK)
        return st;
    attn_gpt_config cfg;
    attn_param_breakdown count;
#line 5372 "book/13-poems.nw"
    size_t n_layer, n_head, n_embd, n_ctx;
    const char *vocab = poet_safetensors_meta(&f, "vocab");
    const char *eps = poet_safetensors_meta(&f, "layer_norm_epsilon");
    const char *inner = poet_safetensors_meta(&f, "n_inner");
    if ((st = meta_size(&f, "n_layer", 1, 64, &n_layer, e)) != ATTN_OK ||
        (st = meta_size(&f, "n_embd", 1, 4096, &n_embd, e)) != ATTN_OK ||
        (st = meta_size(&f, "n_head", 1, n_embd, &n_head, e)) != ATTN_OK ||
        (st = meta_size(&f, "n_ctx", 2, 8192, &n_ctx, e)) != ATTN_OK) {
        poet_safetensors_close(&f);
        return st;
    }
    if (n_embd % n_head != 0)
        st = poet_fail(e, POET_EDATA, "n_embd = %zu 不能被 n_head = %zu 整除", n_embd, n_head);
    else if (eps != NULL && (float)strtod(eps, NULL) != 1e-5f)
        st = poet_fail(e, POET_EDATA, "layer_norm_epsilon 是 %s；这个程序的层规范化只用 1e-5", eps);
    else if (inner != NULL && strcmp(inner, "null") != 0 && strtoull(inner, NULL, 10) != 4 * n_embd)
        st = poet_fail(e, POET_EDATA, "n_inner 是 %s；这个程序的前馈网络宽 4·n_embd", inner);
    else if (vocab == NULL)
        st = poet_fail(e, POET_EDATA, "元数据里没有词表（vocab）");
    else
        st = poet_vocab_from_json(vocab, strlen(vocab), v, e);
    if (st == ATTN_OK) {
        cfg = poet_config(v->n);
        cfg.n_layers = n_layer;
        cfg.n_heads = n_head;
        cfg.d_model = n_embd;
        cfg.d_head = n_embd / n_head;
        cfg.d_ff = 4 * n_embd;
        cfg.n_ctx = n_ctx;
        if (attn_count_params(&cfg, &count) != ATTN_OK)
            st = poet_fail(e, POET_EDATA, "这个形状的参数个数超出了范围");
    }
    if (st != ATTN_OK) {
        poet_vocab_free(v);
        poet_safetensors_close(&f);
        return st;
    }
#line 5334 "book/13-poems.nw"
    size_t L = (size_t)cfg.n_layers, tensors = attn_gpt_tensor_count(&cfg), biggest = 0, want = 0;
    ckpt_tensor *c = calloc(tensors ? tensors : 1, sizeof *c);
    if (c == NULL)
        st = poet_fail(e, ATTN_ENOMEM, "内存不足");
    else if ((want = checkpoint_tensors(&cfg, c, &biggest)) != f.n_tensors)
        st = poet_fail(e, POET_EDATA, "文件里有 %zu 个张量，%zu 层的 GPT-2 应当正好有 %zu 个",
                       f.n_tensors, L, want);
    else if ((uint64_t)f.data_len != 4 * count.total)
        st = poet_fail(e, POET_EDATA, "数据段有 %zu 个字节，%llu 个参数应当是 %llu 个字节", f.data_len,
                       (unsigned long long)count.total, (unsigned long long)(4 * count.total));
    else if (attn_gpt_init(m, &cfg, 0) != ATTN_OK)
        st = poet_fail(e, ATTN_ENOMEM, "内存不足");
    float *fused = st == ATTN_OK ? malloc(biggest * sizeof *fused) : NULL;
    if (st == ATTN_OK && fused == NULL)
        st = poet_fail(e, ATTN_ENOMEM, "内存不足");
    for (size_t i = 0; i < want && st == ATTN_OK; i++) {
        float *part[3];
        for (size_t p = 0; p < c[i].parts; p++)
            part[p] = m->params + c[i].at[p];
        st = poet_safetensors_get(&f, c[i].t.name, c[i].t.rows, c[i].t.cols,
                                  c[i].parts > 1 ? fused : part[0], e);
        if (st == ATTN_OK && c[i].parts > 1)          /* c_attn：拆成 W_Q、W_K、W_V */
            stitch(part, c[i].parts, c[i].rows, c[i].cols, fused, 1);
    }
    free(c);
    free(fused);
    poet_safetensors_close(&f);
    if (st != ATTN_OK) {
        attn_gpt_free(m);
        poet_vocab_free(v);
    }
    return st;
}

#line 5046 "book/13-poems.nw"
int poet_load(const char *path, attn_gpt *m, poet_vocab *v, poet_err *e)
{
    char *buf;
    size_t n;
    memset(m, 0, sizeof *m);
    memset(v, 0, sizeof *v);
    int st = poet_read_file(path, &buf, &n, (size_t)1 << 31, e);
    if (st != ATTN_OK)
        return st;
    st = poet_load_buffer((const unsigned char *)buf, n, m, v, e);
    free(buf);
    if (st != ATTN_OK && e != NULL)
        poet_fail(e, st, "%s：%s", path, e->msg);
    return st;
}
