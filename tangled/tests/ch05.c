#line 38 "book/05-mask.nw"
#include "attn.h"
#include "check.h"

#include <math.h>

int main(void)
{
    
#line 51 "book/05-mask.nw"
check_section("因果掩码：3×3");
{
    float q[3] = {1, 2, 3}, k[3] = {1, 1, 1}, v[3] = {10, 20, 30}, out[3], w[9];
    CHECK_OK(attn_sdpa(q, k, v, 3, 3, 1, 1, 1.0f, NULL, 1, out, w));
    CHECK_NEAR(out[0], 10, 1e-5);
    CHECK_NEAR(out[1], 15, 1e-5);
    CHECK_NEAR(out[2], 20, 1e-5);
    CHECK_NEAR(w[1], 0, 0);
}
#line 46 "book/05-mask.nw"
    return check_summary("ch05");
}
