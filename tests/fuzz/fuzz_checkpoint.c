/* tests/fuzz/fuzz_checkpoint.c — libFuzzer target for chapter 13's checkpoint reader.
 *
 * The input bytes are a whole file handed to poet_load_buffer, which must either refuse it
 * with POET_EDATA (or ATTN_ENOMEM) and a message, leaving nothing allocated, or accept it as
 * a GPT-2 checkpoint (safetensors, F32, the names of the contract in
 * ../shared/design/contract.md). An accepted model must then run: its vocabulary matches its
 * configuration, every parameter is finite, and attn_gpt_forward runs on a few tokens (or
 * returns a status). Anything else aborts, which libFuzzer reports with the input that caused it.
 * The seed corpus (tests/fuzz/corpus-checkpoint) holds small valid checkpoints written by
 * poet_save and a few broken ones.
 */
#include "attn.h"
#include "poet.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_checkpoint: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    attn_gpt m;
    poet_vocab v;
    poet_err e;
    memset(&e, 0, sizeof e);
    int st = poet_load_buffer(data, size, &m, &v, &e);
    if (st != ATTN_OK) {
        if (st != POET_EDATA && st != ATTN_ENOMEM)
            fail("a refused file gets POET_EDATA or ATTN_ENOMEM");
        if (e.msg[0] == '\0')
            fail("a refused file gets a message");
        if (m.params != NULL || v.cp != NULL)
            fail("a refused file leaves nothing allocated");
        return 0;
    }
    if (v.n != m.cfg.vocab || m.cfg.n_ctx < 2)
        fail("an accepted model's vocabulary matches its configuration");
    for (size_t i = 0; i < m.n_params; i++)
        if (!isfinite(m.params[i]))
            fail("an accepted model has finite parameters");
    /* a few tokens through the whole model */
    size_t n = m.cfg.n_ctx < 4 ? (size_t)m.cfg.n_ctx : 4;
    int tokens[4];
    for (size_t i = 0; i < n; i++)
        tokens[i] = (int)(i % m.cfg.vocab);
    float *logits = malloc(n * (size_t)m.cfg.vocab * sizeof *logits);
    if (logits != NULL) {
        /* huge (finite) weights may overflow on the way: the library then refuses with a status */
        int fwd = attn_gpt_forward(&m, tokens, n, logits);
        if (fwd != ATTN_OK && fwd != ATTN_EINVAL && fwd != ATTN_ENOMEM)
            fail("an accepted model runs, or the library says why not");
        free(logits);
    }
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return 0;
}
