"""各章与 PyTorch 对照的脚本共用：用 ctypes 载入 libattn.so，把张量交给 C。"""
import ctypes
import sys

import torch

P = ctypes.POINTER(ctypes.c_float)


def ptr(t):
    """连续存放的 float32 张量的数据指针"""
    assert t.dtype == torch.float32 and t.is_contiguous()
    return ctypes.cast(t.data_ptr(), P)


def load():
    """命令行的第一个参数是 libattn.so 的路径"""
    return ctypes.CDLL(sys.argv[1])
