#line 152 "book/03-attention.nw"
#include "attn.h"
#include "check.h"

#include <math.h>

int main(void)
{
    
#line 165 "book/03-attention.nw"
check_section("Thinking Machines：112 与 96");
{
    float s[2] = {112.0f / 8.0f, 96.0f / 8.0f};
    CHECK_OK(attn_softmax(s, 2));
    CHECK_NEAR(s[0], 0.8808, 1e-4);
    CHECK_NEAR(s[1], 0.1192, 1e-4);
}
#line 160 "book/03-attention.nw"
    return check_summary("ch03");
}
