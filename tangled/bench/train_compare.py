#!/usr/bin/python3
"""bench/train_compare.py — attn-train 与 PyTorch 训练同一个小 GPT，逐步比较损失，并比较速度。
    /usr/bin/python3 tangled/bench/train_compare.py --train build/attn-train --steps 200
差超过 --max-diff 时退出码为 1。"""
import argparse, os, subprocess, sys, tempfile, time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # 单线程比较：在载入 numpy、torch 之前设好
import numpy as np
import torch
import torch.nn.functional as F

VOCAB, N_CTX, D, LAYERS, HEADS, D_HEAD, D_FF, LEN = 29, 8, 32, 2, 2, 16, 64, 5


def split_params(flat):
    """按第 11 章的顺序把参数块切开：wte, wpe, 每层 16 块, lnf_g, lnf_b"""
    hd = HEADS * D_HEAD
    shapes = [("wte", (VOCAB, D)), ("wpe", (N_CTX, D))]
    for l in range(LAYERS):
        for name, shape in [("ln1_g", (D,)), ("ln1_b", (D,)), ("w_q", (D, hd)), ("b_q", (hd,)),
                            ("w_k", (D, hd)), ("b_k", (hd,)), ("w_v", (D, hd)), ("b_v", (hd,)),
                            ("w_o", (hd, D)), ("b_o", (D,)), ("ln2_g", (D,)), ("ln2_b", (D,)),
                            ("w_up", (D, D_FF)), ("b_up", (D_FF,)), ("w_down", (D_FF, D)),
                            ("b_down", (D,))]:
            shapes.append((f"{l}.{name}", shape))
    shapes += [("lnf_g", (D,)), ("lnf_b", (D,))]
    total = sum(int(np.prod(s)) for _, s in shapes)
    if flat.size != total:
        sys.exit(f"train_compare.py: 参数文件有 {flat.size} 个数，应为 {total}")
    out, at = {}, 0
    for name, shape in shapes:
        k = int(np.prod(shape))
        out[name] = torch.nn.Parameter(torch.tensor(flat[at:at + k].reshape(shape)))
        at += k
    return out


def forward(P, tok):
    """tok[B, n] -> logits[B, n, VOCAB]，与 attn_gpt_forward 相同"""
    B, n = tok.shape
    x = P["wte"][tok] + P["wpe"][:n]
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    for l in range(LAYERS):
        p = lambda name: P[f"{l}.{name}"]
        a = F.layer_norm(x, (D,), p("ln1_g"), p("ln1_b"), 1e-5)
        q, k, v = (a @ p(f"w_{c}") + p(f"b_{c}") for c in "qkv")
        q, k, v = (t.view(B, n, HEADS, D_HEAD).transpose(1, 2) for t in (q, k, v))
        s = (q @ k.transpose(-1, -2)) / D_HEAD ** 0.5
        s = s.masked_fill(~causal, float("-inf"))
        o = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, n, HEADS * D_HEAD)
        x = x + o @ p("w_o") + p("b_o")
        a = F.layer_norm(x, (D,), p("ln2_g"), p("ln2_b"), 1e-5)
        x = x + F.gelu(a @ p("w_up") + p("b_up"), approximate="tanh") @ p("w_down") + p("b_down")
    x = F.layer_norm(x, (D,), P["lnf_g"], P["lnf_b"], 1e-5)
    return x @ P["wte"].t()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True, help="attn-train 程序")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-diff", type=float, default=1e-3)
    args = ap.parse_args()
    if args.steps < 1:
        sys.exit("train_compare.py: --steps 至少为 1")
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        init = os.path.join(tmp, "init.bin")
        subprocess.run([args.train, "--steps", "0", "--seed", str(args.seed), "--save", init],
                       check=True, stdout=subprocess.DEVNULL)
        flat = np.fromfile(init, dtype=np.float32)
    out = subprocess.run([args.train, "--steps", str(args.steps), "--seed", str(args.seed),
                          "--threads", "1", "--trace"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    steps = [l.split() for l in out if l.startswith("trace ")]
    c_loss = [float(t[2]) for t in steps]
    batches = [torch.tensor([int(v) for v in t[3:]]).view(-1, LEN) for t in steps]
    c_secs = float(next(l.split()[1] for l in out if l.startswith("train-seconds")))

    P = split_params(flat)
    matrices = [t for t in P.values() if t.dim() == 2]   # 矩阵和两张嵌入表：衰减
    vectors = [t for t in P.values() if t.dim() == 1]    # 偏置、层规范化：不衰减
    opt = torch.optim.AdamW([{"params": matrices, "weight_decay": 0.01},
                             {"params": vectors, "weight_decay": 0.0}],
                            lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
    worst, busy = 0.0, 0.0
    for b, want in zip(batches, c_loss):
        t0 = time.perf_counter()
        logits = forward(P, b[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), b[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        busy += time.perf_counter() - t0
        worst = max(worst, abs(loss.item() - want) / abs(want))
    tokens = sum(b[:, 1:].numel() for b in batches)
    print(f"C 的损失：第 1 步 {c_loss[0]:.6f}，第 {len(c_loss)} 步 {c_loss[-1]:.6f}")
    print(f"loss agreement: max relative difference {worst:.3g} over {len(c_loss)} steps")
    print(f"speed: C {tokens / c_secs:.0f} tokens/s, PyTorch {tokens / busy:.0f} tokens/s")
    return 0 if worst <= args.max_diff and len(c_loss) == args.steps else 1


if __name__ == "__main__":
    sys.exit(main())
