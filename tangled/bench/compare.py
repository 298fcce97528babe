#!/usr/bin/env python3
"""bench/compare.py — 第 9 章的全部测量，一次运行：峰值、attn-bench（C）、NumPy、PyTorch（CPU）。

    /usr/bin/python3 tangled/bench/compare.py --bench build/attn-bench --n 2048 --d 64 --heads 8

NumPy 和 PyTorch 的写法是教科书式的：先算出整个 n×n 的分数矩阵，再 softmax，再乘 v。
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers                                          # noqa: E402  第 9 章：NumPy、PyTorch 怎样运行


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default="build/attn-bench", help="attn-bench 的路径")
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2, help="多线程的那几行用几个线程")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ladder", action="store_true", help="只测第 9 章的阶梯：参考实现、逐行块、分块、最宽的向量、多个线程")
    ap.add_argument("--untuned", action="store_true",
                    help="NumPy、PyTorch 照这台机器的缺省运行（环境里的 OpenBLAS 内核，大块内存每次向系统借还）")
    return ap.parse_args()


def c(a, *extra, threads=1, repeat=None):
    """运行 attn-bench，返回它打印的每一行 JSON"""
    cmd = [a.bench, "--n", str(a.n), "--d", str(a.d), "--heads", str(a.heads),
           "--threads", str(threads), "--repeat", str(repeat or a.repeat), *extra]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.strip().splitlines()]
def ladder(a):
    peaks = {(r["peak"], r["threads"]): r["gflops"]
             for r in c(a, "--peak", threads=1) + c(a, "--peak", threads=a.threads)}
    steps = [("参考实现（标量，一条加法链）", "chain", c(a, "--impl", "reference", repeat=1)[0]),
             ("逐行块：整行分数，向量化的循环", "portable", c(a, "--impl", "rows")[0]),
             ("加上分块和在线 softmax", "portable", c(a, "--isa", "portable")[0])]
    wide = [isa for isa in ("avx512", "avx2") if (isa, 1) in peaks]
    if wide:
        steps.append(("加上更宽的向量和多项式的指数", wide[0], c(a, "--isa", wide[0])[0]))
    widest = steps[-1][1]
    if (widest, a.threads) in peaks and a.threads > 1:
        steps.append((f"{a.threads} 个线程", widest, c(a, "--isa", widest, threads=a.threads)[0]))
    print(f"{'第 9 章的阶梯':<34}{'秒':>9}{'GFLOP/s':>9}{'峰值%':>7}{'比上一行快':>10}")
    out, before = [], None
    for name, isa, r in steps:
        share = 100 * r["gflops"] / peaks[(isa, r["threads"])]
        gain = before / r["seconds"] if before else None
        print(f"{name:<34}{r['seconds']:>9.4f}{r['gflops']:>9.1f}{share:>7.0f}"
              f"{'' if gain is None else f'{gain:.2f}':>10}")
        out.append({"step": name, "isa": isa, "threads": r["threads"], "seconds": r["seconds"],
                    "gflops": r["gflops"], "peak_gflops": peaks[(isa, r["threads"])]})
        before = r["seconds"]
    print(json.dumps({"ladder": out}, ensure_ascii=False))
def result(a, impl, best, extra, flops_per_head):
    return {"impl": impl, "isa": "-", "n": a.n, "d": a.d, "heads": a.heads, "threads": 1,
            "causal": 0, "seconds": best, "extra_bytes": extra,
            "gflops": flops_per_head * a.heads / best * 1e-9, "blas_kernel": a.blas_kernel}


def numpy_inputs(a):
    import numpy as np
    rng = np.random.default_rng(0)
    return [rng.uniform(-1, 1, (a.heads, a.n, a.d)).astype(np.float32) for _ in range(3)]


def numpy_softmax_v(s, v):
    """就地把分数 s 变成权重，返回乘上 v 的结果"""
    import numpy as np
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s @ v


def run_numpy(a):
    import numpy as np
    q, k, v = numpy_inputs(a)
    best = None
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        s = (q * np.float32(1 / np.sqrt(a.d))) @ k.transpose(0, 2, 1)   # s[heads][n][n]
        o = numpy_softmax_v(s, v)
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
    del o
    return result(a, "numpy", best, a.heads * a.n * a.n * 4, 4.0 * a.n * a.n * a.d)


def run_numpy_blocked(a, rows=128):
    import numpy as np
    q, k, v = numpy_inputs(a)
    kt, o, best = k.transpose(0, 2, 1), np.empty_like(q), None
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        qs = q * np.float32(1 / np.sqrt(a.d))
        for i in range(0, a.n, rows):                                  # s[heads][rows][n]
            o[:, i:i + rows] = numpy_softmax_v(qs[:, i:i + rows] @ kt, v)
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
    return result(a, f"numpy-{rows}rows", best, a.heads * rows * a.n * 4, 4.0 * a.n * a.n * a.d)
def torch_inputs(a, grad=False):
    import torch
    g = torch.Generator().manual_seed(0)
    return [(torch.rand(a.heads, a.n, a.d, generator=g) * 2 - 1).requires_grad_(grad) for _ in range(3)]


def run_torch(a):
    import torch
    torch.set_num_threads(1)
    q, k, v = torch_inputs(a)
    best = None
    with torch.no_grad():
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            s = (q * a.d ** -0.5) @ k.transpose(1, 2)                       # s[heads][n][n]
            o = torch.softmax(s, dim=-1) @ v
            t = time.perf_counter() - t0
            best = t if best is None else min(best, t)
    del o
    return result(a, "torch", best, 2 * a.heads * a.n * a.n * 4, 4.0 * a.n * a.n * a.d)


def run_torch_backward(a):
    import torch
    torch.set_num_threads(1)
    q, k, v = torch_inputs(a, grad=True)
    dout = torch.rand(a.heads, a.n, a.d) * 2 - 1
    best_bwd = best_all = None
    for _ in range(a.repeat):
        q.grad = k.grad = v.grad = None
        t0 = time.perf_counter()
        o = torch.softmax((q * a.d ** -0.5) @ k.transpose(1, 2), dim=-1) @ v
        t1 = time.perf_counter()
        o.backward(dout)
        t2 = time.perf_counter()
        best_bwd = t2 - t1 if best_bwd is None else min(best_bwd, t2 - t1)
        best_all = t2 - t0 if best_all is None else min(best_all, t2 - t0)
    r = result(a, "torch-backward", best_bwd, 3 * a.heads * a.n * a.n * 4, 10.0 * a.n * a.n * a.d)
    r["fwd_bwd_seconds"] = best_all
    return r
def peak_of(r, peaks):
    isa = r["isa"] if r["isa"] in ("avx512", "avx2", "portable") else max(
        (p for p, t in peaks if t == 1), key=lambda p: peaks[(p, 1)])
    return peaks.get((isa, r["threads"]))


def print_table(rows, peaks):
    print(f"{'测量':<16}{'指令集':>9}{'线程':>5}{'因果':>5}{'秒':>10}{'GFLOP/s':>9}{'峰值%':>7}{'额外 MiB':>10}")
    for r in rows:
        if "peak" in r:
            print(f"{'peak':<16}{r['peak']:>9}{r['threads']:>5}{'':>5}{'':>10}{r['gflops']:>9.1f}")
            continue
        p = peak_of(r, peaks)
        pct = f"{100 * r['gflops'] / p:.0f}" if p else "-"
        extra = r.get("extra_bytes")
        extra = f"{extra / 2**20:.2f}" if extra is not None else "-"
        print(f"{r['impl']:<16}{r['isa']:>9}{r['threads']:>5}{r['causal']:>5}{r['seconds']:>10.4f}"
              f"{r['gflops']:>9.1f}{pct:>7}{extra:>10}")


def print_ratios(rows, peaks, a):
    def pick(impl, threads=1, causal=0, isa=None):
        return next(r for r in rows if r.get("impl") == impl and r["threads"] == threads
                    and r["causal"] == causal and (isa is None or r["isa"] == isa))
    fast, fast_c = pick("fast"), pick("fast", causal=1)
    fast_t = pick("fast", threads=a.threads)
    bwd, bwd_t, tb = pick("fast-backward"), pick("fast-backward", threads=a.threads), pick("torch-backward")
    mha, mha_t = pick("mha"), pick("mha", threads=a.threads)
    if ("chain", 1) in peaks:
        ref = pick("reference")
        print(f"参考实现：{ref['gflops']:.2f} GFLOP/s，一条加法链（每次加法算 2 次运算）"
              f"{peaks[('chain', 1)]:.2f} GFLOP/s，参考实现是它的 {100 * ref['gflops'] / peaks[('chain', 1)]:.0f}%")
    print(f"前向 1 线程：{fast['gflops']:.1f} GFLOP/s，{fast['isa']} 峰值的 "
          f"{100 * fast['gflops'] / peaks[(fast['isa'], 1)]:.0f}%")
    avx2 = [r for r in rows if r.get("impl") == "fast" and r["isa"] == "avx2" and r["threads"] == 1]
    if avx2 and ("avx2", 1) in peaks:
        print(f"前向 1 线程，指定 AVX2：AVX2 峰值的 {100 * avx2[0]['gflops'] / peaks[('avx2', 1)]:.0f}%")
    print(f"比 NumPy 快 {pick('numpy')['seconds'] / fast['seconds']:.2f} 倍，"
          f"比分块的 NumPy 快 {pick('numpy-128rows')['seconds'] / fast['seconds']:.2f} 倍，"
          f"比 PyTorch 快 {pick('torch')['seconds'] / fast['seconds']:.2f} 倍（OpenBLAS 内核 {a.blas_kernel}）")
    print(f"因果时间 / 稠密时间：{fast_c['seconds'] / fast['seconds']:.2f}")
    print(f"{a.threads} 线程 / 1 线程：{fast['seconds'] / fast_t['seconds']:.2f}")
    print(f"反向 1 线程：{bwd['gflops']:.1f} GFLOP/s（按 10n²d），峰值的 "
          f"{100 * bwd['gflops'] / peaks[(bwd['isa'], 1)]:.0f}%；"
          f"前向留下 O、m、l 时 {bwd['saved_gflops']:.1f} GFLOP/s，"
          f"比 PyTorch 的反向（前向留下 P）快 {tb['seconds'] / bwd['saved_seconds']:.2f} 倍；"
          f"自己重跑前向时比 PyTorch 的前向加反向快 {tb['fwd_bwd_seconds'] / bwd['seconds']:.2f} 倍；"
          f"{a.threads} 线程 / 1 线程：{bwd['seconds'] / bwd_t['seconds']:.2f}")
    print(f"attn_mha（d_model = {a.heads * a.d}）{a.threads} 线程 / 1 线程：{mha['seconds'] / mha_t['seconds']:.2f}")


def main():
    a = parse_args()
    if a.ladder:
        return ladder(a)
    peers.prepare(1, a.untuned)                       # Python 一侧只用一个线程
    import numpy as np
    import torch
    a.blas_kernel = peers.check(1)
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    with open("/proc/self/maps") as f:
        blas = sorted({os.path.basename(l.split()[-1]) for l in f if "blas" in l.lower()})
    print(f"CPU：{model}，{os.cpu_count()} 个逻辑核；NumPy {np.__version__}，PyTorch {torch.__version__}")
    print(f"加载的 BLAS：{', '.join(blas) or '没有找到'}；OpenBLAS 的内核 {a.blas_kernel}"
          f"（{'缺省设置' if a.untuned else '照用户那样运行'}）")
    peak_rows = c(a, "--peak", threads=1) + c(a, "--peak", threads=a.threads)
    peaks = {(r["peak"], r["threads"]): r["gflops"] for r in peak_rows}
    rows = peak_rows + [c(a, "--impl", "reference", threads=1, repeat=1)[0]]
    for t in (1, a.threads):
        rows.append(c(a, threads=t)[0])
        rows.append(c(a, "--causal", threads=t)[0])
    if ("avx2", 1) in peaks:
        rows.append(c(a, "--isa", "avx2", threads=1)[0])
    rows.append(run_numpy(a))
    rows.append(run_numpy_blocked(a))
    rows.append(run_torch(a))
    for t in (1, a.threads):
        rows.append(c(a, "--backward", threads=t)[0])
    rows.append(run_torch_backward(a))
    for t in (1, a.threads):
        rows.append(c(a, "--mha", threads=t)[0])
    print_table(rows, peaks)
    print_ratios(rows, peaks, a)
    print(json.dumps({"blas_kernel": a.blas_kernel, "peers_tuned": not a.untuned, "rows": rows}))


if __name__ == "__main__":
    main()
