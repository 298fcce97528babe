#!/usr/bin/env python3
"""第 11 章：attn_layernorm 与 F.layer_norm，attn_gelu 与 F.gelu(approximate="tanh")。

    ch11_torch_ln_gelu.py LIBATTN_SO
"""
import ctypes

import torch
import torch.nn.functional as F

from torch_ctypes import P, load, ptr


def main():
    lib = load()
    torch.manual_seed(11)
    n, d, eps = 4, 16, 1e-5
    x, g, b = torch.randn(n, d) * 3 + 1, torch.randn(d), torch.randn(d)
    y = torch.zeros(n, d)
    assert lib.attn_layernorm(ptr(x), ptr(g), ptr(b), ptr(y), ctypes.c_size_t(n), ctypes.c_size_t(d),
                              ctypes.c_float(eps)) == 0
    want = F.layer_norm(x, (d,), g, b, eps)
    print("attn_layernorm 与 F.layer_norm 最大差", float((y - want).abs().max()))
    assert torch.allclose(y, want, atol=1e-5)
    z = torch.linspace(-6, 6, 241)
    got = z.clone()
    assert lib.attn_gelu(ptr(got), ctypes.c_size_t(z.numel())) == 0
    tanh_gelu, exact_gelu = F.gelu(z, approximate="tanh"), F.gelu(z)
    print("attn_gelu 与 F.gelu(approximate=\"tanh\") 最大差", float((got - tanh_gelu).abs().max()),
          "；与精确的 F.gelu 最大差", float((got - exact_gelu).abs().max()))
    assert torch.allclose(got, tanh_gelu, atol=1e-6)
    assert 1e-4 < float((got - exact_gelu).abs().max()) < 1e-3
    print("ok")


if __name__ == "__main__":
    main()
