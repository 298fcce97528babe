"""bench/peers.py — 让 NumPy 和 PyTorch 照它们的用户那样运行；bench/compare.py 和 bench/poem_compare.py 共用。

    import peers
    peers.prepare(threads, untuned)      # 在导入 numpy、torch 之前
    import numpy, torch
    kernel = peers.check(threads)        # 导入之后：核对一个乘积，返回 OpenBLAS 内核的名字
"""
import ctypes
import os
import subprocess
import sys

CORETYPES = (("SkylakeX", ("avx512f", "avx512bw", "avx512vl", "avx512dq")),
             ("Haswell", ("avx2", "fma")))

# 子进程里试算：200×300 乘 300×100，和 float64 比；错了退出码为 1
TRIAL = """
import numpy as np
rng = np.random.default_rng(1)
a, b = rng.uniform(-1, 1, (200, 300)), rng.uniform(-1, 1, (300, 100))
c = a.astype(np.float32) @ b.astype(np.float32)
exact = a.astype(np.float32).astype(np.float64) @ b.astype(np.float32).astype(np.float64)
raise SystemExit(0 if np.abs(c - exact).max() <= 1e-5 * (np.abs(a) @ np.abs(b)).max() else 1)
"""


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def widest_coretype():
    """这台 CPU 上试算正确的最宽的内核；一个都不行时 None（由 OpenBLAS 自己挑）"""
    flags = cpu_flags()
    for name, need in CORETYPES:
        if all(f in flags for f in need):
            env = dict(os.environ, OPENBLAS_CORETYPE=name, OPENBLAS_NUM_THREADS="1")
            if subprocess.run([sys.executable, "-c", TRIAL], env=env).returncode == 0:
                return name
            print(f"peers: OpenBLAS 的 {name} 内核在这台机器上算错了，换一个", file=sys.stderr)
    return None
def prepare(threads, untuned=False):
    """在导入 NumPy、PyTorch 之前调用"""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    if untuned:
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"          # 闲着的 OpenMP 线程睡觉
    libc = ctypes.CDLL("libc.so.6")
    libc.mallopt(-4, 0)                                # M_MMAP_MAX：大块内存也从堆里分
    libc.mallopt(-1, 1 << 30)                          # M_TRIM_THRESHOLD：堆顶空出 1 GiB 以内不还
    core = widest_coretype()
    if core is None:
        os.environ.pop("OPENBLAS_CORETYPE", None)
    else:
        os.environ["OPENBLAS_CORETYPE"] = core
def openblas():
    """这个进程载入的 OpenBLAS；没有载入时 None"""
    with open("/proc/self/maps") as f:
        paths = sorted({l.split()[-1] for l in f if "libopenblas" in l})
    return ctypes.CDLL(paths[0]) if paths else None


def check(threads):
    """核对 NumPy 和 PyTorch 的一个乘积，设好线程数，返回 OpenBLAS 内核的名字"""
    import numpy as np
    rng = np.random.default_rng(2)
    a, b = rng.uniform(-1, 1, (256, 320)), rng.uniform(-1, 1, (320, 192))
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    exact = a32.astype(np.float64) @ b32.astype(np.float64)
    tol = 1e-5 * (np.abs(a) @ np.abs(b)).max()
    products = {"NumPy": a32 @ b32}
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        torch.set_num_threads(threads)
        products["PyTorch"] = (torch.from_numpy(a32) @ torch.from_numpy(b32)).numpy()
    for name, c in products.items():
        if np.abs(c - exact).max() > tol:
            sys.exit(f"peers: {name} 的矩阵乘积和 float64 的相差 {np.abs(c - exact).max():.3g}，不能用来比较")
    lib = openblas()
    if lib is None:
        return "none"
    lib.openblas_set_num_threads(threads)
    lib.openblas_get_corename.restype = ctypes.c_char_p
    return lib.openblas_get_corename().decode()
