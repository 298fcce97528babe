#line 3479 "book/13-poems.nw"
/* programs/poet/poet.h — 第 13 章：读全唐诗的模型。attn-poet、第 13 章的测试和图的数据程序共用。
   不属于 libattn：整理语料要用 libcjson 和 OpenCC，模型只通过 attn.h 的公共接口使用。 */
#ifndef POET_H
#define POET_H

#include "attn.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#line 3498 "book/13-poems.nw"
/* 状态：ATTN_OK、ATTN_EINVAL、ATTN_ENOMEM，再加两个程序自己的 */
enum {
    POET_EFILE = 100,   /* 文件打不开、读不完、写不进 */
    POET_EDATA = 101    /* 文件的内容不对：不是 UTF-8、不是 JSON、不是检查点…… */
};
/* 出错时的一句说明；函数的参数 e 可以为 NULL（不要说明） */
typedef struct poet_err {
    char msg[512];
} poet_err;
#line 3510 "book/13-poems.nw"
/* 汉字：CJK 统一表意文字的基本区、扩展 A～G 和兼容区 */
int poet_is_han(uint32_t c);
/* 诗里留下的七个标点：，。？！；：、 */
int poet_is_punct(uint32_t c);

/* 整理一首诗的码位 in[n]：删掉括号里的注、引号、书名号和方括号，写进 out（至少 n 个位置），
   *n_out 是写了几个。返回 POET_KEEP，或者丢掉这首诗的理由。*had_note：删掉过注。 */
enum { POET_KEEP, POET_UNBALANCED, POET_MISSING, POET_ODD, POET_EMPTY,
       POET_DUPLICATE };   /* 最后一个不是 poet_clean 的结果：与前面某首诗的正文相同 */
int poet_clean(const uint32_t *in, size_t n, uint32_t *out, size_t *n_out, int *had_note);
#line 3523 "book/13-poems.nw"
/* 64 位 FNV-1a 散列 */
uint64_t poet_fnv1a(const char *s, size_t n);
/* 正文（简体，UTF-8）为 s[n] 的诗属于检验集：散列的最高 4 位都是 0 */
int poet_is_valid(const char *s, size_t n);
#line 3530 "book/13-poems.nw"
/* attn-poet prepare 的计数 */
typedef struct poet_corpus_stats {
    size_t files, poems;        /* 读了几个文件、几首诗 */
    size_t with_notes;          /* 其中删掉过括号里的注的 */
    size_t dropped[6];          /* 丢掉的诗，按理由：下标是 POET_UNBALANCED……POET_DUPLICATE */
    size_t train, valid;        /* 留下的诗分进两个集合 */
    size_t train_chars, valid_chars;   /* 两个集合的字数（码位，含标点，不含换行） */
    size_t forms[5];            /* 留下的诗按体裁：POET_FORM_OTHER……POET_QILV */
    size_t distinct;            /* 训练集里不同的码位（含换行） */
    size_t vocab;               /* 词表里的词元（含 <unk>） */
    size_t unknown;             /* 训练集里不在词表中的字 */
} poet_corpus_stats;

/* 读 corpus_dir 里的 poet.tang.*.json，整理、转简体、去重、分集，在 out_dir 里写出 train.txt、
   valid.txt、vocab.json（出现至少 min_count 次的字）和 prepare.json（*st 的内容）。 */
int poet_prepare(const char *corpus_dir, const char *out_dir, unsigned min_count,
                 poet_corpus_stats *st, poet_err *e);
#line 3550 "book/13-poems.nw"
/* 体裁：四句或八句、每句五字或七字、每句以标点结尾的诗；别的都是 POET_FORM_OTHER */
enum { POET_FORM_OTHER, POET_WUJUE, POET_QIJUE, POET_WULV, POET_QILV };
int poet_form_of(const uint32_t *c, size_t n);
#line 3556 "book/13-poems.nw"
/* Unicode 的码位一共 0x110000 个 */
enum { POET_CODE_POINTS = 0x110000 };
/* 从 s[*at] 起解一个 UTF-8 码位，*at 移到下一个。不合法（字节不够、续字节不对、过长的编码、
   代理码位、超过 U+10FFFF）或 *at ≥ n：返回 −1，*at 不动。 */
long poet_utf8_next(const char *s, size_t n, size_t *at);
/* 把 s[n] 解进 out（至少 n 个位置），*len 是码位数。成功返回 1；不合法返回 0，*bad 是出错的字节位置。 */
int poet_utf8_decode(const char *s, size_t n, uint32_t *out, size_t *len, size_t *bad);
/* 码位 c（≤ 0x10FFFF，不是代理）编成 UTF-8 写进 out（至少 4 个字节），返回字节数 */
size_t poet_utf8_put(uint32_t c, char *out);
#line 3568 "book/13-poems.nw"
/* 词表：词元 id 的码位 cp[id]（id 从 1 起；0 是 <unk>，cp[0] 不用），
   和按码位排好的 (码位, id) 两列，查字用 */
typedef struct poet_vocab {
    size_t n;               /* 词元个数，含 <unk> */
    uint32_t *cp;           /* n 个 */
    uint32_t *sorted_cp;    /* n − 1 个，从小到大 */
    int *sorted_id;
} poet_vocab;
enum { POET_UNK = 0 };

/* counts[POET_CODE_POINTS] 是每个码位出现的次数；收次数 ≥ min_count 的码位，按上面的顺序编号 */
int poet_vocab_from_counts(const uint32_t *counts, unsigned min_count, poet_vocab *v, poet_err *e);
/* 码位 c 的 id；不在词表里：POET_UNK */
int poet_vocab_id(const poet_vocab *v, uint32_t c);
void poet_vocab_free(poet_vocab *v);
#line 3586 "book/13-poems.nw"
/* s[n]（UTF-8）的每个码位换成它的 id（不在词表里的是 POET_UNK），写进 ids（至少 n 个），*len 是个数。
   不是合法的 UTF-8：POET_EDATA，说明里有出错的字节位置。 */
int poet_encode(const poet_vocab *v, const char *s, size_t n, int *ids, size_t *len, poet_err *e);
#line 171 "book/13-poems.nw"
/* 第 13 章的模型：词表 vocab，宽 128，4 个头，6 层，上下文 128 个字 */
static inline attn_gpt_config poet_config(size_t vocab)
{
    attn_gpt_config c = {0};
    c.vocab = vocab;
    c.d_model = 128;
    c.n_heads = 4;
    c.d_head = 32;
    c.n_layers = 6;
    c.d_ff = 4 * c.d_model;
    c.n_ctx = 128;
    c.biases = 1;
    c.layer_norms = 1;
    c.learned_positions = 1;
    c.tied = 1;
    return c;
}
#line 3596 "book/13-poems.nw"
/* safetensors 里的一个张量：名字、形状（cols 为 0 表示一维的 rows 个数）、数据 */
typedef struct poet_named {
    char name[48];
    size_t rows, cols;
    float *src;
} poet_named;

/* 读进内存的 safetensors 文件：头部（cJSON 的树）和数据段；open 时已核实过头部里的每一项 */
typedef struct poet_safetensors {
    void *header;
    const unsigned char *data;
    size_t data_len;
    uint64_t (*spans)[2];       /* 各张量数据的 [起, 止) */
    size_t n_tensors;
} poet_safetensors;

/* 核实 buf[n] 是一个只含 F32 张量的 safetensors 文件（*f 指进 buf，buf 要活得比 *f 久） */
int poet_safetensors_open(const unsigned char *buf, size_t n, poet_safetensors *f, poet_err *e);
/* 元数据里 key 的值；没有：NULL */
const char *poet_safetensors_meta(const poet_safetensors *f, const char *key);
/* 把张量 name（形状必须是 [rows] 或 [rows, cols]，cols 为 0 表示前者）复制进 dst；每个数都必须有限 */
int poet_safetensors_get(const poet_safetensors *f, const char *name, size_t rows, size_t cols,
                         float *dst, poet_err *e);
void poet_safetensors_close(poet_safetensors *f);
/* 写一个 safetensors 文件：t[n] 依次放进数据段；meta 是 "键", "值", …, NULL（可以为 NULL） */
int poet_safetensors_write(const char *path, const poet_named *t, size_t n,
                           const char *const *meta, poet_err *e);

/* 模型存成 GPT-2 的名字和布局，词表进元数据；extra 是另加的元数据 "键", "值", …, NULL */
int poet_save(const char *path, const attn_gpt *m, const poet_vocab *v, const char *const *extra,
              poet_err *e);
/* 从内存里的文件 buf[n] 读出模型（*m 由 attn_gpt_init 分配）和词表；不是这样的检查点：POET_EDATA */
int poet_load_buffer(const unsigned char *buf, size_t n, attn_gpt *m, poet_vocab *v, poet_err *e);
int poet_load(const char *path, attn_gpt *m, poet_vocab *v, poet_err *e);
#line 3633 "book/13-poems.nw"
/* 训练的设置 */
typedef struct poet_train_options {
    size_t steps;                 /* 一共几步（学习率按它排） */
    size_t batch;                 /* 一步几个窗口 */
    float lr, lr_min;             /* 学习率：预热之后的最大值，最后一步的值 */
    size_t warmup;                /* 预热的步数 */
    float weight_decay;           /* 矩阵的权重衰减 */
    float clip;                   /* 梯度长度的上限；0 表示不裁剪 */
    unsigned long long seed;      /* 模型的初值和取批的随机数 */
} poet_train_options;

#line 5417 "book/13-poems.nw"
typedef struct poet_trainer {
    attn_gpt m;                   /* 模型 */
    attn_gpt g;                   /* 套在 grad 上 */
    float *grad;                  /* n_params 个 */
    float *adam_m, *adam_v;       /* AdamW 的一阶矩、二阶矩 */
    poet_train_options o;
    unsigned long step;           /* 已经走了几步 */
    attn_rng rng;                 /* 取窗口的起点 */
    size_t *starts;               /* 这一批各窗口的起点 */
    int *tokens, *targets;        /* 这一批：batch 个窗口，各 n_ctx 个词元 */
    void *work;                   /* attn_gpt_loss_grad_batch 的工作区 */
    size_t work_bytes;
} poet_trainer;

#line 3646 "book/13-poems.nw"
/* 按 cfg 建模型（attn_gpt_init，种子 o->seed），准备梯度、AdamW 的矩和随机数 */
int poet_trainer_init(poet_trainer *T, const attn_gpt_config *cfg, const poet_train_options *o,
                      poet_err *e);
/* 在词元串 ids[n] 上走一步；*loss 是这一批 B×n_ctx 个位置的平均损失，*lr 是这一步的学习率 */
int poet_train_step(poet_trainer *T, const int *ids, size_t n, int threads, float *loss, float *lr,
                    poet_err *e);
void poet_trainer_free(poet_trainer *T);
/* 第 step 步（从 1 数起）的学习率 */
float poet_lr(const poet_train_options *o, unsigned long step);
#line 3658 "book/13-poems.nw"
/* 按 attn-poet eval 的规矩：ids[n] 切成 n_ctx 一段，*loss_sum 是全部预测的 −ln p 之和，
   *count 是预测的个数；结果与线程数无关 */
int poet_eval(const attn_gpt *m, const int *ids, size_t n, int threads, double *loss_sum,
              size_t *count);
#line 3665 "book/13-poems.nw"
/* 一元模型和二元模型（与一元按 0.8 : 0.2 混合）在检验集上的平均损失（奈特/字） */
int poet_ngram_losses(const int *train, size_t n_train, const int *valid, size_t n_valid, size_t V,
                      double *unigram, double *bigram);
#line 3671 "book/13-poems.nw"
/* 韵表：每个词元的十三辙和声调（由 pinyin-pro 定，见 programs/poet/rhyme.js） */
typedef struct poet_rhyme {
    size_t n;                   /* 词元个数 */
    unsigned char *zhe;         /* 第 id 个词元的辙，1–13；0：不是汉字，或者定不出 */
    unsigned char *tone;        /* 声调 1–4；0：不知道 */
} poet_rhyme;
/* 读 rhyme.js 写的表（每行：字、韵母、辙、声调，用制表符隔开），只留词表里有的字 */
int poet_rhyme_load(const char *path, const poet_vocab *v, poet_rhyme *r, poet_err *e);
void poet_rhyme_free(poet_rhyme *r);

/* 检查器的计数：几首诗，几首合格式，几首有一个字用了三次以上，几首双数句的末字同辙 */
typedef struct poet_check {
    size_t poems, in_form, repeats, rhymes;
} poet_check;
/* 把 c[n] 当作体裁 form 的一首诗检查一遍，计进 *acc */
void poet_check_poem(const poet_rhyme *r, const poet_vocab *v, int form, const uint32_t *c, size_t n,
                     poet_check *acc);
/* text[len] 里一行一首诗：体裁是 form 的那些，逐首检查，计进 *acc */
int poet_check_text(const poet_rhyme *r, const poet_vocab *v, int form, const char *text, size_t len,
                    poet_check *acc);
#line 3694 "book/13-poems.nw"
/* 写诗的设置 */
typedef struct poet_write_options {
    int form;                   /* POET_WUJUE……POET_QILV；POET_FORM_OTHER：自由地写，到换行为止 */
    float temperature;          /* ≥ 0；0 表示每次取分数最大的字 */
    size_t top_k;               /* 只在分数最大的 top_k 个字里取；0 表示不限 */
    float top_p;                /* 核：概率加起来够 top_p 的最少几个字，0 < top_p ≤ 1；1 表示不限 */
    float repetition_penalty;   /* 写过的汉字：正的分数除以它，负的乘以它；1 表示不罚 */
    size_t no_repeat_ngram;     /* 不许重复的 n 元组的 n；0 表示不管 */
    const poet_rhyme *rhyme;    /* 按体裁写时，双数句的末字和第 2 句的末字同辙；NULL 表示不管 */
} poet_write_options;
/* attn-poet write 的缺省取法 */
#define POET_DEFAULT_TEMPERATURE 0.8
#define POET_DEFAULT_TOP_K 40
#define POET_DEFAULT_TOP_P 0.9
#define POET_DEFAULT_REPETITION_PENALTY 2
#define POET_DEFAULT_NO_REPEAT_NGRAM 0
/* 体裁 form 和缺省的取法 */
poet_write_options poet_write_defaults(int form);

/* 取字的工作区：V 个 */
typedef struct poet_cand {
    float score;
    int id;
    double w;
} poet_cand;
/* 在 allowed[i] 非零的词元里按 *o 的温度、top_k、top_p 取一个（不管 o 的其余设置）；c 是 V 个的工作区。
   返回词元的 id；没有可取的：−1 */
int poet_sample(const float *scores, const unsigned char *allowed, size_t V,
                const poet_write_options *o, attn_rng *rng, poet_cand *c);
/* 重复的惩罚：ids[n]（互不相同）的分数，正的除以 penalty，负的乘以 penalty */
void poet_penalize(float *scores, const int *ids, size_t n, float penalty);
/* 不许重复的 N 元组：ids[k] 的最后 N−1 个在前面出现过的话，把那时紧跟的词元在 ok 里清零；返回清了几个 */
size_t poet_ban_ngrams(unsigned char *ok, const int *ids, size_t k, size_t N);

/* 体裁的字数（含标点）：五绝 24、七绝 32、五律 48、七律 64；POET_FORM_OTHER：0 */
size_t poet_form_length(int form);
/* 体裁的名字（"五言绝句"……）和反过来；不认识的名字：−1 */
const char *poet_form_name(int form);
int poet_form_from_name(const char *name);

/* 从 start[n_start] 开始写一首诗（不含开头的换行），码位写进 out[cap]，*len 是个数。
   随机数只取自 *rng。开头的字不在词表里或不合格式：ATTN_EINVAL。 */
int poet_write(const attn_gpt *m, const poet_vocab *v, const poet_write_options *o,
               const uint32_t *start, size_t n_start, attn_rng *rng, uint32_t *out, size_t cap,
               size_t *len, poet_err *e);
#line 3742 "book/13-poems.nw"
/* 模型读 ids[n] 时每层每个头的注意力模式：patterns 为 NULL 或 [L][H][n][n]（因果，第 i 行是第 i 个位置
   看各位置的权重）；states 为 NULL 或 [L+1][n][d]：输入的残差流和每一层之后的残差流 */
int poet_attention(const attn_gpt *m, const int *ids, size_t n, float *patterns, float *states);
#line 3748 "book/13-poems.nw"
/* 一个头的累计：各距离上的权重和字对数，三种字对上的权重（按距离） */
enum { POET_MAX_DISTANCE = 4096 };
typedef struct poet_head_acc {
    double by_distance[POET_MAX_DISTANCE], pairs_at[POET_MAX_DISTANCE];
    double same[POET_MAX_DISTANCE], n_same[POET_MAX_DISTANCE];
    double rhyme[POET_MAX_DISTANCE], n_rhyme[POET_MAX_DISTANCE];
    double prev, prev_uniform, n_prev;
    /* 对照（[2]：五言、七言分开，基线的距离不同）：第 c 联之内，一联的第二句看第一句同一位置；
       跨联，一联的第一句看上一联第二句的同一位置；第 3、5、7 句（不押韵）的末字看两句之前的末字 */
    double couplet[4][2], n_couplet[4][2], across[2], n_across[2], other_end[2], n_other_end[2];
} poet_head_acc;

/* 一个头的结果：三种字对上的平均权重和各自的基线，字对的个数 */
typedef struct poet_head_stats {
    double prev, prev_uniform;
    double same, same_base;
    double rhyme, rhyme_base;
    size_t n_prev, n_same, n_rhyme;
    /* 对照：首联、颔联、颈联、尾联之内的“上一句同一位置”，跨联的同一位置，不押韵的句末（各有同距离的基线） */
    double couplet[4], couplet_base[4], across, across_base, other_end, other_end_base;
    size_t n_couplet[4], n_across, n_other_end;
} poet_head_stats;

/* text[len] 里的诗（一行一首），最多 max_poems 首四种体裁的诗：每层每个头的 stats[L·H]；
   *poems 是用了几首。诗分给 threads 个线程，各线程的累计按线程的顺序相加 */
int poet_head_survey(const attn_gpt *m, const poet_vocab *v, const char *text, size_t len,
                     size_t max_poems, int threads, poet_head_stats *stats, size_t *poems, poet_err *e);
#line 3778 "book/13-poems.nw"
/* text 里一行一首的诗中，每处“before[b] target”（before[b] 属于第 group_of_before[b] 组），
   每组最多取 per_group 处（rng 为 NULL：按文件里的先后取最前面的；否则用 rng 随机地取，再按先后排好）：
   把诗从头读到 target 为止，记下 target 的位置上输入和每一层之后的残差流。
   vectors[found][L+1][d]，group[found] 是各处的组，word[found]（可以为 NULL）是各处的 b；
   occurs[n_before]（可以为 NULL）是每个 before[b] 在 text 里一共出现了几处。 */
int poet_context_vectors(const attn_gpt *m, const poet_vocab *v, const char *text, size_t len,
                         uint32_t target, const uint32_t *before, const size_t *group_of_before,
                         size_t n_before, size_t groups, size_t per_group, attn_rng *rng, float *vectors,
                         size_t *group, size_t *word, size_t *occurs, size_t *found);
/* x[n][d] 里每个向量归到最近的组中心（不算它自己），归对的比例 */
double poet_centroid_accuracy(const float *x, const size_t *group, size_t n, size_t d, size_t groups);
/* 对照：把 n_before 个“前一个字”随机地重新分成同样大小的组（group_of_before 打乱），按新的组再归类；
   trials 次的平均和最大。word[n] 是每个向量的“前一个字”；group 是 n 个位置的工作区 */
double poet_split_null(const float *x, const size_t *word, size_t n, size_t d, const size_t *group_of_before,
                       size_t n_before, size_t groups, size_t trials, attn_rng *rng, size_t *group,
                       double *max);
#line 3797 "book/13-poems.nw"
/* 统计用检验集里的前这么多首四种体裁的诗 */
enum { POET_SURVEY_POEMS = 1000 };
/* 三种头：pick[0] 在前一个字上平均权重最大，pick[1]、pick[2] 在上一句同一位置、上一联的韵脚上
   与基线之比最大（只比平均权重至少 1% 的头；头的编号是 层·n_heads + 头） */
void poet_pick_heads(const poet_head_stats *s, size_t heads, size_t pick[3]);
#line 3806 "book/13-poems.nw"
/* 语料里所有的句子（标点之间的字）：各句码位的 FNV-1a 散列，排好序 */
typedef struct poet_lines {
    uint64_t *hash;
    size_t n;
} poet_lines;
/* text（UTF-8，一行一首）的句子加进 *lines（第一次调用前 *lines 清零） */
int poet_lines_add(poet_lines *lines, const char *text, size_t len);
/* 加完以后排序；之后才能查 */
void poet_lines_sort(poet_lines *lines);
/* 码位 c[n] 这一句在语料里原样出现过 */
int poet_lines_has(const poet_lines *lines, const uint32_t *c, size_t n);
void poet_lines_free(poet_lines *lines);

/* 一批写出来的诗：几首、几首不同、各体裁几首，几句、几句在语料里原样出现过，模型自己读它们的平均损失 */
typedef struct poet_write_stats {
    size_t poems, distinct, forms[5], lines, verbatim;
    double own_loss;
} poet_write_stats;
/* 用种子 first_seed、first_seed+1…… 按 *o 写 n 首诗（starts 为 NULL，或第 i 首的开头 starts[i][start_lens[i]]），
   统计进 *out */
int poet_write_survey(const attn_gpt *m, const poet_vocab *v, const poet_write_options *o,
                      unsigned long long first_seed, size_t n, const uint32_t *const *starts,
                      const size_t *start_lens, const poet_lines *corpus, poet_write_stats *out,
                      poet_err *e);
#line 4689 "book/13-poems.nw"
/* 从 cps[n]（cps[i] 是 id i 的码位，cps[0] 不用）建词表；码位重复或不合法：POET_EDATA */
int poet_vocab_from_list(const uint32_t *cps, size_t n, poet_vocab *v, poet_err *e);
/* 词表和 JSON 数组 ["<unk>", "，", …] 互转；*json 用 free 释放 */
int poet_vocab_to_json(const poet_vocab *v, char **json);
int poet_vocab_from_json(const char *json, size_t len, poet_vocab *v, poet_err *e);
int poet_vocab_save(const poet_vocab *v, const char *path, poet_err *e);
int poet_vocab_load(const char *path, poet_vocab *v, poet_err *e);
#line 4868 "book/13-poems.nw"
/* 在 e->msg 里写下说明（e 为 NULL 时不写），返回 status */
int poet_fail(poet_err *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 读整个文件进 *buf（malloc，末尾另加一个 '\0'），*len 是字节数；超过 max 字节：POET_EFILE */
int poet_read_file(const char *path, char **buf, size_t *len, size_t max, poet_err *e);
/* 把 buf[len] 写成文件 path：先写 path.tmp，写完改名 */
int poet_write_file(const char *path, const void *buf, size_t len, poet_err *e);
/* 整理的计数，一行 JSON */
void poet_print_stats(FILE *f, const poet_corpus_stats *st, unsigned min_count);
#line 5649 "book/13-poems.nw"
/* 训练的状态（AdamW 的矩、步数、随机数、设置）存进 path；模型另存（poet_save） */
int poet_trainer_save(const poet_trainer *T, const char *path, poet_err *e);
/* 从模型 m（poet_load 读出的）和状态文件 path 接着训练：*T 与存盘时的训练器每一位相同 */
int poet_trainer_resume(poet_trainer *T, const attn_gpt *m, const char *path, poet_err *e);

#line 3492 "book/13-poems.nw"
#endif
