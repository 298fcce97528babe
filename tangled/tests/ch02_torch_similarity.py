#!/usr/bin/env python3
"""第 2 章：点积、余弦、距离与 PyTorch 对照：a @ b.T、F.cosine_similarity、torch.cdist。

    ch02_torch_similarity.py LIBATTN      LIBATTN 是 libattn.so 的路径
"""
import ctypes

import torch
import torch.nn.functional as F

from torch_ctypes import P, load, ptr


def main():
    lib = load()
    for name in ("attn_dot", "attn_cosine", "attn_sqdist"):
        getattr(lib, name).argtypes = [P, P, ctypes.c_size_t, P]
    lib.attn_dot_all.argtypes = [P, P] + [ctypes.c_size_t] * 3 + [P]
    torch.manual_seed(2)
    a, b = torch.randn(4, 32), torch.randn(6, 32)
    out = torch.empty(4, 6)
    assert lib.attn_dot_all(ptr(a), ptr(b), 4, 6, 32, ptr(out)) == 0
    assert torch.allclose(out, a @ b.T, atol=1e-5), "attn_dot_all 应当等于 a @ b.T"
    cos = F.cosine_similarity(a[:, None], b[None], dim=-1)      # [4, 6]
    dist = torch.cdist(a, b)                                     # [4, 6]，欧氏距离
    worst_cos = worst_dist = 0.0
    for i in range(4):
        for j in range(6):
            r = torch.empty(1)
            assert lib.attn_cosine(ptr(a[i].contiguous()), ptr(b[j].contiguous()), 32, ptr(r)) == 0
            worst_cos = max(worst_cos, abs(float(r) - float(cos[i, j])))
            assert lib.attn_sqdist(ptr(a[i].contiguous()), ptr(b[j].contiguous()), 32, ptr(r)) == 0
            worst_dist = max(worst_dist, abs(float(r) ** 0.5 - float(dist[i, j])))
            assert lib.attn_dot(ptr(a[i].contiguous()), ptr(b[j].contiguous()), 32, ptr(r)) == 0
            assert abs(float(r) - float(torch.dot(a[i], b[j]))) < 1e-4
    print("余弦最大差", worst_cos, " 距离最大差", worst_dist)
    assert worst_cos < 1e-6 and worst_dist < 1e-4
    print("ok")


if __name__ == "__main__":
    main()
