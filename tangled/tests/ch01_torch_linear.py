#!/usr/bin/env python3
"""第 1 章：PyTorch 的 nn.Linear 存 weight[out][in]，算 y = x·weightᵀ + b；本书的 W[in][out] 是 weight 的转置。

    ch01_torch_linear.py ATTN_CH01     ATTN_CH01 是练习程序 attn-ch01
"""
import subprocess
import sys

import torch


def book_linear(program, x, w, b):
    """attn-ch01 linear：按行给出 W[d_in][d_out]，返回它印出的 y"""
    def flat(t):
        return ",".join(repr(float(v)) for v in t.reshape(-1))
    out = subprocess.run([program, "linear", "--x", flat(x), "--w", flat(w), "--b", flat(b)],
                         capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("y ="))
    return torch.tensor([float(v) for v in line[3:].split()])


def main():
    program = sys.argv[1]
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 2)
    assert tuple(layer.weight.shape) == (2, 3), layer.weight.shape      # (输出, 输入)
    x = torch.tensor([[1.0, -2.0, 0.5]])
    with torch.no_grad():
        want = layer(x)[0]
        assert torch.allclose(want, x[0] @ layer.weight.T + layer.bias)
        got = book_linear(program, x, layer.weight.T.contiguous(), layer.bias)
        wrong = book_linear(program, x, layer.weight.contiguous().view(3, 2), layer.bias)
    print("PyTorch:", want.tolist(), " attn-ch01 (W = weightᵀ):", got.tolist(),
          " 不转置:", wrong.tolist())
    assert torch.allclose(got, want, atol=1e-6), "W = weightᵀ 应当算出同样的 y"
    assert not torch.allclose(wrong, want, atol=1e-3), "不转置应当算出别的数"
    print("ok")


if __name__ == "__main__":
    main()
