// attn.h must compile as C++ (extern "C") and link from a C++ program.
#include <attn.h>
#include <cstdio>

int main()
{
    float x[3] = {-1.0f, 0.0f, 2.0f};
    if (attn_relu(x, 3) != ATTN_OK || x[0] != 0.0f || x[2] != 2.0f)
        return 1;
    std::puts(attn_strerror(ATTN_EINVAL));
    return 0;
}
