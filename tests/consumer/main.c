/* A reader's program: one attention step through the installed header and library. */
#include <attn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    /* the header it was compiled with and the library it runs with are the same version */
    char header[64];
    snprintf(header, sizeof header, "%d.%d.%d", ATTN_VERSION_MAJOR, ATTN_VERSION_MINOR, ATTN_VERSION_PATCH);
    printf("attn_version() = %s (attn.h: %s)\n", attn_version(), header);
    if (strcmp(attn_version(), header) != 0)
        return 1;
    float q[2] = {1, 0}, k[4] = {1, 0, 0, 1}, v[4] = {1, 2, 3, 4}, out[2];
    int status = attn_sdpa(q, k, v, 1, 2, 2, 2, 0.0f, NULL, 0, out, NULL);
    if (status != ATTN_OK) {
        fprintf(stderr, "attn_sdpa: %s\n", attn_strerror(status));
        return 1;
    }
    /* weights softmax(1/√2, 0) */
    double w0 = 1.0 / (1.0 + exp(-1.0 / sqrt(2.0)));
    double want = w0 * 1 + (1 - w0) * 3;
    printf("out[0] = %.6f (want %.6f)\n", out[0], want);
    return fabs(out[0] - want) < 1e-5 ? 0 : 1;
}
