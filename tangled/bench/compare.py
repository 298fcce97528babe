#!/usr/bin/env python3
"""bench/compare.py — 同一个注意力计算：attn-bench（C）、NumPy、PyTorch（CPU），并排比较。

    /usr/bin/python3 tangled/bench/compare.py --bench build/attn-bench --n 2048 --d 64 --heads 8

NumPy 和 PyTorch 的写法是教科书式的：先算出整个 n×n 的分数矩阵，再 softmax，再乘 v。
"""
import argparse
import json
import os
import subprocess
import sys
import time


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default="build/attn-bench", help="attn-bench 的路径")
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--impls", default="reference,fast,numpy,torch")
    return ap.parse_args()


def run_c(a, impl):
    cmd = [a.bench, "--impl", impl, "--n", str(a.n), "--d", str(a.d), "--heads", str(a.heads),
           "--threads", str(a.threads), "--repeat", str(a.repeat)]
    if a.causal:
        cmd.append("--causal")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])
def flops(a):
    return 4.0 * a.n * a.n * a.d * a.heads


def result(a, impl, best, extra):
    return {"impl": impl, "n": a.n, "d": a.d, "heads": a.heads, "threads": a.threads,
            "causal": int(a.causal), "seconds": best, "gflops": flops(a) / best * 1e-9,
            "extra_bytes": extra}


def run_numpy(a):
    import numpy as np
    rng = np.random.default_rng(0)
    q, k, v = (rng.uniform(-1, 1, (a.heads, a.n, a.d)).astype(np.float32) for _ in range(3))
    hide = np.triu(np.ones((a.n, a.n), dtype=bool), 1) if a.causal else None
    best = None
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        s = q @ k.transpose(0, 2, 1) * np.float32(1 / np.sqrt(a.d))   # s[heads][n][n]
        if hide is not None:
            s[:, hide] = -np.inf
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        o = s @ v
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
    del o
    return result(a, "numpy " + np.__version__, best, a.heads * a.n * a.n * 4)
def run_torch(a):
    import torch
    torch.set_num_threads(a.threads)
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.rand(a.heads, a.n, a.d, generator=g) * 2 - 1 for _ in range(3))
    hide = torch.triu(torch.ones(a.n, a.n, dtype=torch.bool), 1) if a.causal else None
    best = None
    with torch.no_grad():
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            s = q @ k.transpose(1, 2) / a.d ** 0.5                          # s[heads][n][n]
            if hide is not None:
                s.masked_fill_(hide, float("-inf"))
            o = torch.softmax(s, dim=-1) @ v
            t = time.perf_counter() - t0
            best = t if best is None else min(best, t)
    del o
    return result(a, "torch " + torch.__version__, best, 2 * a.heads * a.n * a.n * 4)
def print_table(rows):
    torch_s = next((r["seconds"] for r in rows if r["impl"].startswith("torch")), None)
    print(f"{'实现':<18}{'n':>7}{'d':>5}{'头':>4}{'线程':>5}{'因果':>5}"
          f"{'秒':>10}{'GFLOP/s':>9}{'额外内存 MiB':>14}{'相对 torch':>11}")
    for r in rows:
        rel = f"{torch_s / r['seconds']:.2f}×" if torch_s else "-"
        print(f"{r['impl']:<18}{r['n']:>7}{r['d']:>5}{r['heads']:>4}{r['threads']:>5}"
              f"{r['causal']:>5}{r['seconds']:>10.4f}{r['gflops']:>9.1f}"
              f"{r['extra_bytes'] / 2**20:>14.2f}{rel:>11}")


def main():
    a = parse_args()
    # 线程数要在导入 NumPy、PyTorch 之前定下来
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    rows = []
    for impl in a.impls.split(","):
        if impl in ("reference", "fast"):
            rows.append(run_c(a, impl))
        elif impl == "numpy":
            rows.append(run_numpy(a))
        elif impl == "torch":
            rows.append(run_torch(a))
        else:
            sys.exit(f"compare.py: 不认识的实现 {impl}")
    print_table(rows)


if __name__ == "__main__":
    main()
