#!/usr/bin/env python3
"""第 7 章：attn_mha 与 PyTorch 的 nn.MultiheadAttention（权重的摆法见正文后记）。

    ch07_torch_mha.py LIBATTN_SO
"""
import ctypes

import torch

from torch_ctypes import P, load, ptr


class Weights(ctypes.Structure):
    _fields_ = [("d_model", ctypes.c_size_t), ("n_heads", ctypes.c_size_t), ("d_head", ctypes.c_size_t),
                ("w_q", P), ("w_k", P), ("w_v", P), ("w_o", P),
                ("b_q", P), ("b_k", P), ("b_v", P), ("b_o", P)]


def main():
    lib = load()
    torch.manual_seed(7)
    E, h, n = 12, 3, 5
    mha = torch.nn.MultiheadAttention(E, h, batch_first=True)
    with torch.no_grad():
        mha.in_proj_bias.normal_()
        mha.out_proj.bias.normal_()
    W = mha.in_proj_weight.detach()
    B = mha.in_proj_bias.detach()
    keep = [W[:E].T.contiguous(), W[E:2 * E].T.contiguous(), W[2 * E:].T.contiguous(),
            mha.out_proj.weight.detach().T.contiguous(),
            B[:E].contiguous(), B[E:2 * E].contiguous(), B[2 * E:].contiguous(),
            mha.out_proj.bias.detach().contiguous()]
    w = Weights(E, h, E // h, *[ptr(t) for t in keep])
    x = torch.randn(n, E)
    for causal in (0, 1):
        out = torch.zeros(n, E)
        st = lib.attn_mha(ctypes.byref(w), ptr(x), ctypes.c_size_t(n), ptr(x), ctypes.c_size_t(n),
                          None, ctypes.c_int(causal), ptr(out))
        assert st == 0, st
        banned = torch.ones(n, n, dtype=torch.bool).triu(1) if causal else None   # True = 不许看
        with torch.no_grad():
            want = mha(x[None], x[None], x[None], attn_mask=banned, need_weights=False)[0][0]
        diff = float((out - want).abs().max())
        print("因果" if causal else "不带掩码", "：attn_mha 与 nn.MultiheadAttention 最大差", diff)
        assert diff < 1e-5
    print("ok")


if __name__ == "__main__":
    main()
