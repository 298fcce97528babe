#!/usr/bin/env python3
"""第 5 章：attn_sdpa 的因果注意力与 PyTorch 的 F.scaled_dot_product_attention(is_causal=True)。

    ch05_torch_sdpa.py LIBATTN_SO
"""
import ctypes
import math

import torch
import torch.nn.functional as F

from torch_ctypes import load, ptr


def book_sdpa(lib, q, k, v, mask=None, causal=0):
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    n_q, d = q.shape
    n_k, d_v = v.shape
    out = torch.zeros(n_q, d_v)
    m = None
    if mask is not None:
        m = (ctypes.c_ubyte * (n_q * n_k))(*[int(b) for b in mask.reshape(-1).tolist()])
    st = lib.attn_sdpa(ptr(q), ptr(k), ptr(v),
                       ctypes.c_size_t(n_q), ctypes.c_size_t(n_k), ctypes.c_size_t(d), ctypes.c_size_t(d_v),
                       ctypes.c_float(0.0), m, ctypes.c_int(causal),
                       ptr(out), None)
    assert st == 0, st
    return out


def torch_sdpa(q, k, v, mask=None, is_causal=False):
    """PyTorch 2.0 起有 F.scaled_dot_product_attention；没有时用它文档里的等价写法"""
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q[None], k[None], v[None], attn_mask=mask,
                                              is_causal=is_causal)[0]
    n_q, n_k = q.shape[0], k.shape[0]
    if is_causal:
        mask = torch.ones(n_q, n_k, dtype=torch.bool).tril()
    s = q @ k.T / math.sqrt(q.shape[1])
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def main():
    lib = load()
    lib.attn_sdpa.restype = ctypes.c_int
    print("PyTorch", torch.__version__, "：",
          "F.scaled_dot_product_attention" if hasattr(F, "scaled_dot_product_attention")
          else "没有 F.scaled_dot_product_attention，用文档里的等价写法")
    g = torch.Generator().manual_seed(5)
    q, k, v = (torch.randn(6, 8, generator=g) for _ in range(3))
    a, b = book_sdpa(lib, q, k, v, causal=1), torch_sdpa(q, k, v, is_causal=True)
    print("n_q = n_k = 6，最大差", float((a - b).abs().max()))
    assert torch.allclose(a, b, atol=1e-5)
    q3, k4, v4 = torch.randn(3, 8, generator=g), torch.randn(4, 8, generator=g), torch.randn(4, 8, generator=g)
    top_left = torch.ones(3, 4, dtype=torch.bool).tril()
    bottom_right = torch.ones(3, 4, dtype=torch.bool).tril(diagonal=4 - 3)
    t_causal = torch_sdpa(q3, k4, v4, is_causal=True)
    assert torch.allclose(t_causal, torch_sdpa(q3, k4, v4, mask=top_left), atol=1e-6)
    mine = book_sdpa(lib, q3, k4, v4, causal=1)
    print("n_q = 3，n_k = 4：本书与右下角掩码最大差", float((mine - torch_sdpa(q3, k4, v4, mask=bottom_right)).abs().max()),
          "，与 is_causal=True 最大差", float((mine - t_causal).abs().max()))
    assert torch.allclose(mine, torch_sdpa(q3, k4, v4, mask=bottom_right), atol=1e-5)
    assert torch.allclose(book_sdpa(lib, q3, k4, v4, mask=top_left), t_causal, atol=1e-5)
    assert not torch.allclose(mine, t_causal, atol=1e-3), "两种对齐应当不同"
    print("ok")


if __name__ == "__main__":
    main()
