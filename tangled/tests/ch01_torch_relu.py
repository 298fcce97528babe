#!/usr/bin/env python3
"""第 1 章：attn_relu 与 PyTorch 的 F.relu 对照（NaN 原样留下，两边一样）。

    ch01_torch_relu.py LIBATTN      LIBATTN 是 libattn.so 的路径
"""
import ctypes

import torch
import torch.nn.functional as F

from torch_ctypes import P, load, ptr


def main():
    lib = load()
    lib.attn_relu.argtypes = [P, ctypes.c_size_t]
    torch.manual_seed(1)
    x = torch.cat([torch.randn(1000), torch.tensor([0.0, -0.0, float("nan"), float("inf"), -float("inf")])])
    got = x.clone()
    assert lib.attn_relu(ptr(got), got.numel()) == 0
    want = F.relu(x)
    print("F.relu 与 attn_relu：", "一样" if torch.equal(got.nan_to_num(7.0), want.nan_to_num(7.0)) else "不一样")
    assert torch.equal(got.nan_to_num(7.0), want.nan_to_num(7.0))   # NaN 的位置也相同
    assert torch.isnan(got[-3])
    print("ok")


if __name__ == "__main__":
    main()
