#line 6843 "book/13-poems.nw"
/* attn-poet：第 13 章的程序——整理全唐诗（prepare）、训练（train）、检验（eval）、写诗（write） */
#define _POSIX_C_SOURCE 200809L
#include "attn.h"
#include "poet/poet.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef POET_DEFAULT_CORPUS
#define POET_DEFAULT_CORPUS "corpus/node_modules/chinese-poetry/dist/quantangshi"
#endif
#ifndef POET_DEFAULT_DATA
#define POET_DEFAULT_DATA "build/poems"
#endif
#ifndef POET_DEFAULT_CHECKPOINT
#define POET_DEFAULT_CHECKPOINT "models/poems.safetensors"
#endif
#define POET_DEFAULT_STEPS 2200     /* 缺省的训练（4 层）：双核的机器上约 9 分钟 */
#define POET_STR2(x) #x
#define POET_STR(x) POET_STR2(x)

#line 6905 "book/13-poems.nw"
static const char usage_main[] =
    "用法：attn-poet <子命令> [选项]      （每个子命令的选项：attn-poet <子命令> --help）\n"
    "  prepare   整理全唐诗：训练集、检验集、词表\n"
    "  train     训练模型，存成 safetensors 检查点\n"
    "  eval      一段文字在模型下的平均损失（nats/字）\n"
    "  write     写诗\n";

static const char usage_prepare[] =
    "用法：attn-poet prepare [--corpus DIR] [--out DIR] [--min-count N] [--json]\n"
    "  --corpus DIR     chinese-poetry 的 dist/quantangshi（缺省：" POET_DEFAULT_CORPUS "）\n"
    "  --out DIR        写出 train.txt、valid.txt、vocab.json、prepare.json（缺省：" POET_DEFAULT_DATA "）\n"
    "  --min-count N    词表收训练集里出现至少 N 次的字（缺省 5）\n"
    "  --json           计数印成一行 JSON\n";
#line 7049 "book/13-poems.nw"
static const char usage_train[] =
    "用法：attn-poet train [选项]\n"
    "  --data DIR          整理好的数据（缺省：" POET_DEFAULT_DATA "）\n"
    "  --out FILE          检查点（缺省：DIR/poems.safetensors；训练状态在 FILE.state）\n"
    "  --steps N           步数（缺省 " POET_STR(POET_DEFAULT_STEPS) "）\n"
    "  --batch B           一步几个窗口（缺省 16）\n"
    "  --lr X --lr-min X   学习率的最大值和最后的值（缺省 6e-3、3e-4）\n"
    "  --warmup N          预热的步数（缺省：步数的十分之一，最多 200）\n"
    "  --weight-decay X    矩阵的权重衰减（缺省 0.1）\n"
    "  --clip X            梯度长度的上限，0 不裁剪（缺省 1）\n"
    "  --seed S            种子（缺省 1）\n"
    "  --layers N --width D --heads H --ctx N   模型的形状（缺省 4、128、4、128）\n"
    "  --threads T         线程数（缺省：处理器个数，最多 16）\n"
    "  --eval-every N      每 N 步检验一次、存一次盘（缺省 250）\n"
    "  --eval-chars N      只在检验集的前 N 个字上检验（缺省：平时 32768，最后一次用整个检验集）\n"
    "  --resume FILE       从 FILE 和 FILE.state 接着训练：形状和训练的设置都来自那里，\n"
    "                      不能再给 --steps、--batch、--lr 等（给了就报错，不会悄悄不用）\n"
    "  --json              每一步、每次检验印一行 JSON（训练的日志）\n"
    "  --save-initial FILE 训练之前的模型也存一份（和 PyTorch 对照用）\n"
    "  --trace             JSON 的每一步另有训练用的秒数和各窗口的起点（同上）\n";
#line 7390 "book/13-poems.nw"
static const char usage_eval[] =
    "用法：attn-poet eval [--checkpoint FILE] [--text TEXT | --file FILE] [--threads T] [--json]\n"
    "  --checkpoint FILE   检查点（缺省：" POET_DEFAULT_CHECKPOINT "）\n"
    "  --text TEXT         给这段文字打分\n"
    "  --file FILE         给这个文件打分（都不给：" POET_DEFAULT_DATA "/valid.txt）\n"
    "  --threads T         线程数\n"
    "  --json              只印一行 JSON：{\"loss\": 平均 −ln p（奈特）, \"tokens\": 预测的个数}\n";

static const char usage_write[] =
    "用法：attn-poet write [选项]\n"
    "  --checkpoint FILE   检查点（缺省：" POET_DEFAULT_CHECKPOINT "）\n"
    "  --form F            五言绝句（缺省）、七言绝句、五言律诗、七言律诗\n"
    "  --free              不管体裁：从换行写到模型自己写出换行为止\n"
    "  --start TEXT        诗的开头（要合体裁的格式，不能比整首诗长）\n"
    "  --temperature T     温度，0 到 10（缺省 " POET_STR(POET_DEFAULT_TEMPERATURE) "；0 表示每次取分数最大的字）\n"
    "  --top-k K           只在分数最大的 K 个字里取（缺省 " POET_STR(POET_DEFAULT_TOP_K) "；0 不限）\n"
    "  --top-p P           只在概率加起来够 P 的最少几个字里取，0 < P ≤ 1（缺省 " POET_STR(POET_DEFAULT_TOP_P) "；1 不限）\n"
    "  --repetition-penalty R  写过的汉字，正的分数除以 R、负的乘以 R，1 到 10（缺省 "
    POET_STR(POET_DEFAULT_REPETITION_PENALTY) "；1 不罚）\n"
    "  --no-repeat-ngram N 不许重复写出同样的 N 个词元（缺省 " POET_STR(POET_DEFAULT_NO_REPEAT_NGRAM) "；0 不管）\n"
    "  --rhyme FILE        韵表：按体裁写时双数句的末字同辙（缺省 " POET_DEFAULT_DATA "/rhyme.tsv）\n"
    "  --no-rhyme          不管押韵\n"
    "  --n N               写几首（缺省 1）\n"
    "  --seed S            种子：第 i 首（从 0 数）用种子 S+i（缺省 1）\n"
    "  --json              每首一行 JSON\n";

#line 6925 "book/13-poems.nw"
/* 选项出错：说明和用法印到标准错误，返回退出状态 2 */
static int bad_option(const char *cmd, const char *usage, const char *what, const char *arg)
{
    fprintf(stderr, "attn-poet %s：%s%s\n", cmd, what, arg ? arg : "");
    fputs(usage, stderr);
    return 2;
}

/* getopt_long 不认识的选项或缺值的选项 */
static int bad_getopt(const char *cmd, const char *usage, char **argv)
{
    return bad_option(cmd, usage, "不认识的选项，或者选项缺少值：", argv[optind - 1]);
}

/* s 是 [lo, hi] 里的整数 */
static int read_size(const char *s, unsigned long long lo, unsigned long long hi, size_t *out)
{
    char *end;
    if (s == NULL || *s < '0' || *s > '9')
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno != 0 || v < lo || v > hi)
        return 0;
    *out = (size_t)v;
    return 1;
}

/* s 是 [lo, hi] 里的有限浮点数 */
static int read_float(const char *s, double lo, double hi, float *out)
{
    char *end;
    if (s == NULL || *s == '\0')
        return 0;
    errno = 0;
    double v = strtod(s, &end);
    if (*end != '\0' || errno != 0 || !isfinite(v) || v < lo || v > hi)
        return 0;
    *out = (float)v;
    return 1;
}

/* 缺省的线程数：处理器的个数，最多 16 个 */
static size_t default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (size_t)n;
}

/* JSON 的字符串：引号、反斜杠和控制字符转义 */
static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

/* 运行时的错误：印出说明，退出状态 1 */
static int failed(const char *cmd, const poet_err *e)
{
    fprintf(stderr, "attn-poet %s：%s\n", cmd, e->msg);
    return 1;
}

#line 6999 "book/13-poems.nw"
static int cmd_prepare(int argc, char **argv)
{
    const char *corpus = POET_DEFAULT_CORPUS, *out = POET_DEFAULT_DATA;
    size_t min_count = 5;
    int json = 0, c;
    static const struct option opts[] = {
        {"corpus", required_argument, NULL, 'c'}, {"out", required_argument, NULL, 'o'},
        {"min-count", required_argument, NULL, 'm'}, {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': corpus = optarg; break;
        case 'o': out = optarg; break;
        case 'm':
            if (!read_size(optarg, 1, 1000000, &min_count))
                return bad_option("prepare", usage_prepare, "--min-count 要是 1 到 1000000 的整数：", optarg);
            break;
        case 'j': json = 1; break;
        case 'h': fputs(usage_prepare, stdout); return 0;
        default: return bad_getopt("prepare", usage_prepare, argv);
        }
    }
    if (optind < argc)
        return bad_option("prepare", usage_prepare, "多余的参数：", argv[optind]);
    poet_corpus_stats st;
    poet_err e;
    if (poet_prepare(corpus, out, (unsigned)min_count, &st, &e) != ATTN_OK)
        return failed("prepare", &e);
    if (json) {
        poet_print_stats(stdout, &st, (unsigned)min_count);
    } else {
        printf("读了 %zu 个文件、%zu 首诗；留下 %zu 首（训练 %zu，检验 %zu），词表 %zu 个词元\n",
               st.files, st.poems, st.train + st.valid, st.train, st.valid, st.vocab);
        printf("写进了 %s/train.txt、valid.txt、vocab.json、prepare.json\n", out);
    }
    return 0;
}

#line 7128 "book/13-poems.nw"
/* 读一个文本文件，换成词元 */
static int read_ids(const char *dir, const char *name, const poet_vocab *v, int **ids, size_t *n,
                    poet_err *e)
{
    char path[4096], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int st = poet_read_file(path, &text, &len, (size_t)1 << 30, e);
    if (st != ATTN_OK)
        return st;
    *ids = malloc((len ? len : 1) * sizeof **ids);
    if (*ids == NULL)
        st = poet_fail(e, ATTN_ENOMEM, "内存不足");
    else if ((st = poet_encode(v, text, len, *ids, n, e)) != ATTN_OK)
        poet_fail(e, st, "%s：%s", path, e->msg);
    free(text);
    return st;
}

static int read_data(const char *dir, poet_vocab *v, int **train, size_t *n_train, int **valid,
                     size_t *n_valid, poet_err *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/vocab.json", dir);
    int st = poet_vocab_load(path, v, e);
    if (st == ATTN_OK)
        st = read_ids(dir, "train.txt", v, train, n_train, e);
    if (st == ATTN_OK)
        st = read_ids(dir, "valid.txt", v, valid, n_valid, e);
    if (st != ATTN_OK) {
        free(*train); free(*valid);
        *train = *valid = NULL;
        poet_vocab_free(v);
    }
    return st;
}

#line 7074 "book/13-poems.nw"
static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

static int cmd_train(int argc, char **argv)
{
#line 7167 "book/13-poems.nw"
    const char *data = POET_DEFAULT_DATA, *out = NULL, *resume = NULL, *initial = NULL;
    poet_train_options o = {POET_DEFAULT_STEPS, 16, 6e-3f, 3e-4f, 200, 0.1f, 1.0f, 1};
    size_t layers = 4, width = 128, heads = 4, ctx = 128, threads = default_threads();
    size_t eval_every = 250, eval_chars = 32768, seed = 1, warmup = SIZE_MAX;
    int json = 0, c, li = 0, trace = 0, eval_given = 0;
    const char *fixed = NULL;     /* --resume 时不许再给的选项（形状和训练的设置）里给了哪一个 */
    static const struct option opts[] = {
        {"data", required_argument, NULL, 'd'}, {"out", required_argument, NULL, 'o'},
        {"steps", required_argument, NULL, 's'}, {"batch", required_argument, NULL, 'b'},
        {"lr", required_argument, NULL, 'l'}, {"lr-min", required_argument, NULL, 'L'},
        {"warmup", required_argument, NULL, 'w'}, {"weight-decay", required_argument, NULL, 'W'},
        {"clip", required_argument, NULL, 'c'}, {"seed", required_argument, NULL, 'S'},
        {"layers", required_argument, NULL, 'n'}, {"width", required_argument, NULL, 'D'},
        {"heads", required_argument, NULL, 'H'}, {"ctx", required_argument, NULL, 'C'},
        {"threads", required_argument, NULL, 't'}, {"eval-every", required_argument, NULL, 'e'},
        {"eval-chars", required_argument, NULL, 'E'}, {"resume", required_argument, NULL, 'r'},
        {"save-initial", required_argument, NULL, 'I'}, {"trace", no_argument, NULL, 'T'},
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, &li)) != -1) {
        int ok = 1;
        if (fixed == NULL && strchr("sblLwWcSnDHC", c) != NULL)
            fixed = opts[li].name;                  /* 说明里只提第一个 */
        switch (c) {
        case 'd': data = optarg; break;
        case 'o': out = optarg; break;
        case 's': ok = read_size(optarg, 1, 10000000, &o.steps); break;
        case 'b': ok = read_size(optarg, 1, 4096, &o.batch); break;
        case 'l': ok = read_float(optarg, 1e-8, 1.0, &o.lr); break;
        case 'L': ok = read_float(optarg, 0.0, 1.0, &o.lr_min); break;
        case 'w': ok = read_size(optarg, 0, 10000000, &warmup); break;
        case 'W': ok = read_float(optarg, 0.0, 10.0, &o.weight_decay); break;
        case 'c': ok = read_float(optarg, 0.0, 1e6, &o.clip); break;
        case 'S': ok = read_size(optarg, 0, 1000000000, &seed); break;
        case 'n': ok = read_size(optarg, 1, 64, &layers); break;
        case 'D': ok = read_size(optarg, 2, 2048, &width); break;
        case 'H': ok = read_size(optarg, 1, 64, &heads); break;
        case 'C': ok = read_size(optarg, 2, 4096, &ctx); break;
        case 't': ok = read_size(optarg, 1, 64, &threads); break;
        case 'e': ok = read_size(optarg, 1, 10000000, &eval_every); break;
        case 'E': ok = read_size(optarg, 2, 100000000, &eval_chars); eval_given = 1; break;
        case 'r': resume = optarg; break;
        case 'I': initial = optarg; break;
        case 'T': trace = json = 1; break;
        case 'j': json = 1; break;
        case 'h': fputs(usage_train, stdout); return 0;
        default: return bad_getopt("train", usage_train, argv);
        }
        if (!ok)
            return bad_option("train", usage_train, "选项的值不合法：", argv[optind - 1]);
    }
    if (optind < argc)
        return bad_option("train", usage_train, "多余的参数：", argv[optind]);
    if (width % heads != 0)
        return bad_option("train", usage_train, "--width 要能被 --heads 整除", NULL);
    if (resume != NULL && fixed != NULL)
        return bad_option("train", usage_train, "--resume 时模型的形状和训练的设置都来自检查点，不能再给 --", fixed);
    o.seed = seed;
    o.warmup = warmup != SIZE_MAX ? warmup : (o.steps / 10 < 200 ? o.steps / 10 : 200);
    if (o.warmup >= o.steps || o.lr_min > o.lr)
        return bad_option("train", usage_train, "预热要短于步数，--lr-min 不能大于 --lr", NULL);
    char out_default[4096];
    if (out == NULL) {
        snprintf(out_default, sizeof out_default, "%s/poems.safetensors", data);
        out = resume != NULL ? resume : out_default;
    }
#line 7084 "book/13-poems.nw"
    poet_err e;
    poet_vocab v;
    int *train = NULL, *valid = NULL;
    size_t n_train = 0, n_valid = 0;
    if (read_data(data, &v, &train, &n_train, &valid, &n_valid, &e) != ATTN_OK)
        return failed("train", &e);
    if (n_valid < 2) {                 /* 0 个预测的平均是 NaN：不检验就不训练 */
        free(train); free(valid); poet_vocab_free(&v);
        poet_fail(&e, POET_EDATA, "%s/valid.txt 只有 %zu 个字，检验至少要两个（一个用来猜另一个）", data, n_valid);
        return failed("train", &e);
    }
    poet_trainer T;
    int st;
    if (resume != NULL) {
        attn_gpt m;
        poet_vocab mv;
        char state[4096];
        if ((size_t)snprintf(state, sizeof state, "%s.state", resume) >= sizeof state)
            return bad_option("train", usage_train, "路径太长：", resume);
        st = poet_load(resume, &m, &mv, &e);
        if (st == ATTN_OK && (mv.n != v.n || memcmp(mv.cp, v.cp, v.n * sizeof *v.cp) != 0))
            st = poet_fail(&e, POET_EDATA, "%s 的词表和 %s/vocab.json 不同", resume, data);
        if (st == ATTN_OK)
            st = poet_trainer_resume(&T, &m, state, &e);
        attn_gpt_free(&m);
        poet_vocab_free(&mv);
    } else {
        attn_gpt_config cfg = poet_config(v.n);
        cfg.n_layers = layers; cfg.d_model = width; cfg.n_heads = heads;
        cfg.d_head = width / heads; cfg.d_ff = 4 * width; cfg.n_ctx = ctx;
        st = poet_trainer_init(&T, &cfg, &o, &e);
    }
    if (st != ATTN_OK) {
        free(train); free(valid); poet_vocab_free(&v);
        return failed("train", &e);
    }
#line 7238 "book/13-poems.nw"
    int tty = isatty(2);
    size_t B = T.o.batch, n_ctx = (size_t)T.m.cfg.n_ctx;
    size_t n_quick = n_valid < eval_chars ? n_valid : eval_chars;
    double busy = 0.0;
    unsigned long first = T.step;
    struct timespec t0;
    if (!json)
        printf("模型 %zu 个参数；训练集 %zu 个字，检验集 %zu 个字；%zu 步，每步 %zu×%zu 个字，%zu 个线程\n",
               T.m.n_params, n_train, n_valid, T.o.steps, B, n_ctx, threads);
    if (json)                             /* 日志的第一行：重做这次训练要用的一切 */
        printf("{\"steps\": %zu, \"batch\": %zu, \"lr\": %.9g, \"lr_min\": %.9g, \"warmup\": %zu, "
               "\"weight_decay\": %.9g, \"clip\": %.9g, \"seed\": %llu, \"layers\": %llu, "
               "\"width\": %llu, \"heads\": %llu, \"ctx\": %llu, \"threads\": %zu, \"resumed_at\": %lu}\n",
               T.o.steps, B, T.o.lr, T.o.lr_min, T.o.warmup, T.o.weight_decay, T.o.clip, T.o.seed,
               (unsigned long long)T.m.cfg.n_layers, (unsigned long long)T.m.cfg.d_model,
               (unsigned long long)T.m.cfg.n_heads, (unsigned long long)T.m.cfg.n_ctx, threads, T.step);
    if (initial != NULL && (st = poet_save(initial, &T.m, &v, NULL, &e)) != ATTN_OK)
        T.step = T.o.steps;                /* 存不了训练前的模型：一步也不走 */
    while (st == ATTN_OK && T.step < T.o.steps) {
        float loss, lr;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        st = poet_train_step(&T, train, n_train, (int)threads, &loss, &lr, &e);
        busy += seconds_since(&t0);
        if (st != ATTN_OK)
            break;
        double speed = (double)((T.step - first) * B * n_ctx) / busy;
        double left = busy / (double)(T.step - first) * (double)(T.o.steps - T.step);
        if (json) {
            printf("{\"step\": %lu, \"loss\": %.9g, \"lr\": %.9g, \"tokens_per_s\": %.0f", T.step,
                   loss, lr, speed);
            if (trace) {                   /* 和 PyTorch 对照用：这一批各窗口的起点 */
                printf(", \"seconds\": %.6f, \"starts\": [", busy);
                for (size_t b = 0; b < B; b++)
                    printf("%s%zu", b ? ", " : "", T.starts[b]);
                printf("]");
            }
            printf("}\n");
            fflush(stdout);
        }
        if (tty || T.step % 50 == 0 || T.step == T.o.steps)
            fprintf(stderr, "%s步 %lu/%zu  损失 %.4f  每秒 %.0f 字  还要 %.0f 分 %02.0f 秒%s", tty ? "\r" : "",
                    T.step, T.o.steps, loss, speed, floor(left / 60), fmod(left, 60.0), tty ? "  " : "\n");
        if (T.step % eval_every == 0 || T.step == T.o.steps) {
            int last = T.step == T.o.steps;
            double sum;
            size_t count;
            char state[4096], vl[32], sp[32], sd[32];
            st = poet_eval(&T.m, valid, last && !eval_given ? n_valid : n_quick, (int)threads, &sum, &count);
            if (st != ATTN_OK) {
                poet_fail(&e, st, "检验失败");
                break;
            }
            if (tty)
                fputc('\n', stderr);
            if (json)
                printf("{\"step\": %lu, \"valid_loss\": %.9g, \"valid_tokens\": %zu}\n", T.step,
                       sum / (double)count, count);
            else
                printf("第 %lu 步：%s检验损失 %.4f（%zu 个字）\n", T.step,
                       last && !eval_given ? "整个检验集上的" : "", sum / (double)count, count);
            fflush(stdout);
            snprintf(vl, sizeof vl, "%.6f", sum / (double)count);
            snprintf(sp, sizeof sp, "%lu", T.step);
            snprintf(sd, sizeof sd, "%llu", T.o.seed);
            const char *extra[] = {"step", sp, "seed", sd, "valid_loss", vl, NULL};
            if ((size_t)snprintf(state, sizeof state, "%s.state", out) >= sizeof state)
                st = poet_fail(&e, POET_EFILE, "%s：路径太长", out);
            else if ((st = poet_save(out, &T.m, &v, extra, &e)) == ATTN_OK)
                st = poet_trainer_save(&T, state, &e);
        }
    }
#line 7121 "book/13-poems.nw"
    poet_trainer_free(&T);
    free(train); free(valid); poet_vocab_free(&v);
    return st == ATTN_OK ? 0 : failed("train", &e);
}

#line 7318 "book/13-poems.nw"
static int cmd_eval(int argc, char **argv)
{
    const char *checkpoint = POET_DEFAULT_CHECKPOINT, *text = NULL, *file = NULL;
    size_t threads = default_threads();
    int json = 0, c;
    static const struct option opts[] = {
        {"checkpoint", required_argument, NULL, 'k'}, {"text", required_argument, NULL, 'x'},
        {"file", required_argument, NULL, 'f'}, {"threads", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'k': checkpoint = optarg; break;
        case 'x': text = optarg; break;
        case 'f': file = optarg; break;
        case 't':
            if (!read_size(optarg, 1, 64, &threads))
                return bad_option("eval", usage_eval, "选项的值不合法：", argv[optind - 1]);
            break;
        case 'j': json = 1; break;
        case 'h': fputs(usage_eval, stdout); return 0;
        default: return bad_getopt("eval", usage_eval, argv);
        }
    }
    if (optind < argc)
        return bad_option("eval", usage_eval, "多余的参数：", argv[optind]);
    if (text != NULL && file != NULL)
        return bad_option("eval", usage_eval, "--text 和 --file 只能给一个", NULL);
    poet_err e;
    attn_gpt m;
    poet_vocab v;
    if (poet_load(checkpoint, &m, &v, &e) != ATTN_OK)
        return failed("eval", &e);
    char *buf = NULL, path[4096];
    size_t len = 0;
    int st = ATTN_OK;
    if (text == NULL) {
        if (file == NULL) {
            snprintf(path, sizeof path, "%s/valid.txt", POET_DEFAULT_DATA);
            file = path;
        }
        st = poet_read_file(file, &buf, &len, (size_t)1 << 30, &e);
        text = buf;
    } else {
        len = strlen(text);
    }
    int *ids = st == ATTN_OK ? malloc((len ? len : 1) * sizeof *ids) : NULL;
    size_t n = 0, count = 0;
    double sum = 0.0;
    if (st == ATTN_OK && ids == NULL)
        st = poet_fail(&e, ATTN_ENOMEM, "内存不足");
    if (st == ATTN_OK)
        st = poet_encode(&v, text, len, ids, &n, &e);
    if (st == ATTN_OK && n < 2)
        st = poet_fail(&e, ATTN_EINVAL, "文字至少要有两个字（一个用来猜另一个）");
    if (st == ATTN_OK && (st = poet_eval(&m, ids, n, (int)threads, &sum, &count)) != ATTN_OK)
        poet_fail(&e, st, "检验失败：%s", attn_strerror(st));
    free(ids);
    free(buf);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    if (st != ATTN_OK)
        return failed("eval", &e);
    if (!json)
        printf("%zu 个字，%zu 个预测，平均每个预测 %.4f 奈特（困惑度 %.1f）\n", n, count,
               sum / (double)count, exp(sum / (double)count));
    printf("{\"loss\": %.6f, \"tokens\": %zu}\n", sum / (double)count, count);
    return 0;
}

#line 7424 "book/13-poems.nw"
static int cmd_write(int argc, char **argv)
{
    const char *checkpoint = POET_DEFAULT_CHECKPOINT, *start = "", *rhyme_file = POET_DEFAULT_DATA "/rhyme.tsv";
    poet_write_options o = poet_write_defaults(POET_WUJUE);
    size_t n = 1, seed = 1, top_k = o.top_k, ngram = o.no_repeat_ngram;
    int json = 0, c, free_form = 0, formed = 0;
    static const struct option opts[] = {
        {"checkpoint", required_argument, NULL, 'k'}, {"form", required_argument, NULL, 'f'},
        {"free", no_argument, NULL, 'F'}, {"start", required_argument, NULL, 's'},
        {"temperature", required_argument, NULL, 'T'}, {"top-k", required_argument, NULL, 'K'},
        {"top-p", required_argument, NULL, 'P'}, {"repetition-penalty", required_argument, NULL, 'R'},
        {"no-repeat-ngram", required_argument, NULL, 'N'},
        {"rhyme", required_argument, NULL, 'r'}, {"no-rhyme", no_argument, NULL, 'x'},
        {"n", required_argument, NULL, 'n'}, {"seed", required_argument, NULL, 'S'},
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        int ok = 1;
        switch (c) {
        case 'k': checkpoint = optarg; break;
        case 'f': ok = (o.form = poet_form_from_name(optarg)) > POET_FORM_OTHER; formed = 1; break;
        case 'F': free_form = 1; break;
        case 's': start = optarg; break;
        case 'T': ok = read_float(optarg, 0.0, 10.0, &o.temperature); break;
        case 'K': ok = read_size(optarg, 0, 1000000, &top_k); break;
        case 'P': ok = read_float(optarg, 1e-6, 1.0, &o.top_p); break;
        case 'R': ok = read_float(optarg, 1.0, 10.0, &o.repetition_penalty); break;
        case 'N': ok = read_size(optarg, 0, 64, &ngram); break;
        case 'r': rhyme_file = optarg; break;
        case 'x': rhyme_file = NULL; break;
        case 'n': ok = read_size(optarg, 1, 100000, &n); break;
        case 'S': ok = read_size(optarg, 0, 1000000000, &seed); break;
        case 'j': json = 1; break;
        case 'h': fputs(usage_write, stdout); return 0;
        default: return bad_getopt("write", usage_write, argv);
        }
        if (!ok)
            return bad_option("write", usage_write, "选项的值不合法：", argv[optind - 1]);
    }
    if (optind < argc)
        return bad_option("write", usage_write, "多余的参数：", argv[optind]);
    if (free_form && formed)
        return bad_option("write", usage_write, "--free 和 --form 只能给一个", NULL);
    if (free_form)
        o.form = POET_FORM_OTHER;
    o.top_k = top_k;
    o.no_repeat_ngram = ngram;
    poet_err e;
    attn_gpt m;
    poet_vocab v;
    size_t n_start = 0, bad;
    uint32_t start_cp[256], poem[512];
    if (strlen(start) > sizeof start_cp / sizeof start_cp[0] ||
        !poet_utf8_decode(start, strlen(start), start_cp, &n_start, &bad))
        return bad_option("write", usage_write, "--start 太长，或者不是合法的 UTF-8", NULL);
    char why[160];
    if (o.form != POET_FORM_OTHER && n_start > poet_form_length(o.form)) {
        snprintf(why, sizeof why, "--start 有 %zu 个字，比一整首%s（%zu 个字）还长", n_start,
                 poet_form_name(o.form), poet_form_length(o.form));
        return bad_option("write", usage_write, why, NULL);
    }
    if (poet_load(checkpoint, &m, &v, &e) != ATTN_OK)
        return failed("write", &e);
    if (o.form == POET_FORM_OTHER && n_start + 1 > (size_t)m.cfg.n_ctx) {   /* 开头的换行也占一个位置 */
        snprintf(why, sizeof why, "--start 有 %zu 个字，模型的上下文只有 %llu 个位置（开头的换行占一个）",
                 n_start, (unsigned long long)m.cfg.n_ctx);
        attn_gpt_free(&m);
        poet_vocab_free(&v);
        return bad_option("write", usage_write, why, NULL);
    }
    poet_rhyme rhyme = {0};
    if (rhyme_file != NULL && o.form != POET_FORM_OTHER) {
        if (poet_rhyme_load(rhyme_file, &v, &rhyme, &e) != ATTN_OK) {
            attn_gpt_free(&m);
            poet_vocab_free(&v);
            return failed("write", &e);
        }
        o.rhyme = &rhyme;
    }
    int st = ATTN_OK;
    for (size_t i = 0; i < n && st == ATTN_OK; i++) {
        attn_rng rng;
        size_t len;
        attn_rng_seed(&rng, seed + i);
        st = poet_write(&m, &v, &o, start_cp, n_start, &rng, poem, sizeof poem / sizeof poem[0],
                        &len, &e);
        if (st != ATTN_OK)
            break;
#line 7522 "book/13-poems.nw"
        char text[4 * 512 + 1];
        size_t bytes = 0;
        for (size_t k = 0; k < len; k++)
            bytes += poet_utf8_put(poem[k], text + bytes);
        text[bytes] = '\0';
        if (json) {
            fputs("{\"text\": ", stdout);
            print_json_string(text);
            printf(", \"form\": \"%s\", \"seed\": %zu, \"temperature\": %.9g, \"top_k\": %zu, \"top_p\": %.9g, "
                   "\"repetition_penalty\": %.9g, \"no_repeat_ngram\": %zu}\n",
                   poet_form_name(poet_form_of(poem, len)), seed + i, o.temperature, o.top_k, o.top_p,
                   o.repetition_penalty, o.no_repeat_ngram);
        } else {
            /* 一句一行 */
            for (size_t k = 0, at = 0; k < len; k++) {
                char ch[5];
                ch[poet_utf8_put(poem[k], ch)] = '\0';
                fputs(ch, stdout);
                if (poet_is_punct(poem[k]) && k + 1 < len && (++at % 2 == 0))
                    fputc('\n', stdout);
            }
            fputs(n > 1 ? "\n\n" : "\n", stdout);
        }
#line 7513 "book/13-poems.nw"
    }
    poet_rhyme_free(&rhyme);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return st == ATTN_OK ? 0 : failed("write", &e);
}

#line 6882 "book/13-poems.nw"
int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } cmds[] = {
        {"prepare", cmd_prepare}, {"train", cmd_train}, {"eval", cmd_eval}, {"write", cmd_write},
    };
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage_main, stdout);
        return 0;
    }
    for (size_t i = 0; argc >= 2 && i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0)
            return cmds[i].run(argc - 1, argv + 1);
    if (argc >= 2)
        fprintf(stderr, "attn-poet：没有子命令 '%s'\n", argv[1]);
    fputs(usage_main, stderr);
    return 2;
}
