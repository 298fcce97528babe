#!/usr/bin/env python3
"""第 3 章：PyTorch 的 softmax 和注意力与 libattn 对照。

    ch03_torch_attention.py LIBATTN      LIBATTN 是 libattn.so 的路径
"""
import ctypes
import math

import torch
import torch.nn.functional as F

from torch_ctypes import P, load, ptr


def main():
    lib = load()
    lib.attn_softmax.argtypes = [P, ctypes.c_size_t]
    lib.attn_sdpa.argtypes = [P, P, P] + [ctypes.c_size_t] * 4 + [ctypes.c_float, ctypes.c_void_p,
                                                                   ctypes.c_int, P, P]
    torch.manual_seed(3)
    # softmax：一行 1000 个数，有大有小
    x = (torch.randn(1000) * 20).contiguous()
    got = x.clone()
    assert lib.attn_softmax(ptr(got), got.numel()) == 0
    want = torch.softmax(x, dim=-1)
    print("softmax 最大差", float((got - want).abs().max()))
    assert torch.allclose(got, want, atol=1e-7)
    # 注意力：n_q = 5，n_k = 7，d_k = 16，d_v = 3
    q, k, v = torch.randn(5, 16), torch.randn(7, 16), torch.randn(7, 3)
    out, w = torch.empty(5, 3), torch.empty(5, 7)
    assert lib.attn_sdpa(ptr(q), ptr(k), ptr(v), 5, 7, 16, 3, 0.0, None, 0, ptr(out), ptr(w)) == 0
    want_w = torch.softmax(q @ k.T / math.sqrt(16), dim=-1)
    want_out = want_w @ v
    print("权重最大差", float((w - want_w).abs().max()), " 输出最大差", float((out - want_out).abs().max()))
    assert torch.allclose(w, want_w, atol=1e-6) and torch.allclose(out, want_out, atol=1e-5)
    if hasattr(F, "scaled_dot_product_attention"):
        sdpa = F.scaled_dot_product_attention(q[None], k[None], v[None])[0]
        print("F.scaled_dot_product_attention 最大差", float((out - sdpa).abs().max()))
        assert torch.allclose(out, sdpa, atol=1e-5)
    else:
        print("这个 PyTorch", torch.__version__, "还没有 F.scaled_dot_product_attention（2.0 才有），只比三行写法")
    print("ok")


if __name__ == "__main__":
    main()
