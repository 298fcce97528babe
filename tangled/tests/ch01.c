#line 32 "book/01-mlp.nw"
#include "attn.h"
#include "check.h"
int main(void)
{
    float x[3] = {-1, 0, 2};
    CHECK_OK(attn_relu(x, 3));
    CHECK_NEAR(x[0], 0, 0);
    return check_summary("ch01");
}
