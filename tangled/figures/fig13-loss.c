#line 7739 "book/13-poems.nw"
/* 图 13.2 的数据：三块，以两个空行分开。
   0：每行 "步数 训练损失"（每 10 步的平均）；1：每行 "步数 检验损失"；2：一行 "一元 二元" */
#include "../programs/poet/poet.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#line 7799 "book/13-poems.nw"
static int read_split(const poet_vocab *v, const char *name, int **ids, size_t *n)
{
    char path[4096], *text;
    size_t len;
    poet_err e;
    snprintf(path, sizeof path, "%s/%s", POET_DEFAULT_DATA, name);
    if (poet_read_file(path, &text, &len, (size_t)1 << 30, &e) != ATTN_OK)
        return POET_EFILE;
    *ids = malloc((len + 1) * sizeof **ids);
    int st = *ids != NULL ? poet_encode(v, text, len, *ids, n, &e) : ATTN_ENOMEM;
    free(text);
    return st;
}

static int read_tokens(int **train, size_t *n_train, int **valid, size_t *n_valid, size_t *V)
{
    char path[4096];
    poet_vocab v;
    poet_err e;
    snprintf(path, sizeof path, "%s/vocab.json", POET_DEFAULT_DATA);
    int st = poet_vocab_load(path, &v, &e);
    if (st == ATTN_OK)
        st = read_split(&v, "train.txt", train, n_train);
    if (st == ATTN_OK)
        st = read_split(&v, "valid.txt", valid, n_valid);
    *V = v.n;
    poet_vocab_free(&v);
    return st;
}

#line 7751 "book/13-poems.nw"
int main(void)
{
    char *log;
    size_t len;
    poet_err e;
    if (poet_read_file(POET_DEFAULT_LOG, &log, &len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "fig13-loss：%s\n", e.msg);
        return 1;
    }
    char valid_block[1 << 16];
    size_t vb = 0, k = 0;
    double sum = 0.0;
    for (char *line = strtok(log, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        cJSON *o = cJSON_Parse(line);
        const cJSON *step = cJSON_GetObjectItemCaseSensitive(o, "step");
        const cJSON *loss = cJSON_GetObjectItemCaseSensitive(o, "loss");
        const cJSON *vl = cJSON_GetObjectItemCaseSensitive(o, "valid_loss");
        if (cJSON_IsNumber(step) && cJSON_IsNumber(loss)) {
            sum += loss->valuedouble;
            if (++k == 10) {
                printf("%.0f %.6f\n", step->valuedouble - 4.5, sum / 10.0);
                sum = 0.0;
                k = 0;
            }
        } else if (cJSON_IsNumber(step) && cJSON_IsNumber(vl) && vb + 64 < sizeof valid_block) {
            vb += (size_t)snprintf(valid_block + vb, sizeof valid_block - vb, "%.0f %.6f\n",
                                   step->valuedouble, vl->valuedouble);
        }
        cJSON_Delete(o);
    }
    printf("\n\n%s\n\n", valid_block);
    int *train, *valid;
    size_t n_train, n_valid, V;
    double uni, bi;
    if (read_tokens(&train, &n_train, &valid, &n_valid, &V) != ATTN_OK ||
        poet_ngram_losses(train, n_train, valid, n_valid, V, &uni, &bi) != ATTN_OK) {
        fprintf(stderr, "fig13-loss：读不了整理好的语料（%s）\n", POET_DEFAULT_DATA);
        return 1;
    }
    printf("%.6f %.6f\n", uni, bi);
    free(log); free(train); free(valid);
    return 0;
}
