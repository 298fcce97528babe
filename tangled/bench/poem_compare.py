#!/usr/bin/python3
"""bench/poem_compare.py — attn-poet train 与 PyTorch 从同一个初始模型、用同样的批训练第 13 章的模型，
逐步比较损失，并比较速度。
    /usr/bin/python3 tangled/bench/poem_compare.py --poet build/attn-poet --data build/poems --steps 200
最后一行是 JSON：{"agreement": 最大相对差, "c_tokens_per_s": …, "torch_tokens_per_s": …}；
最大相对差超过 --max-diff（缺省 1e-3）时退出码为 1。"""
import argparse, json, math, os, subprocess, sys, tempfile, time

threads = "1"
for i, a in enumerate(sys.argv):                      # 线程数要在载入 torch 之前定下来
    if a == "--threads" and i + 1 < len(sys.argv):
        threads = sys.argv[i + 1]
    elif a.startswith("--threads="):
        threads = a.split("=", 1)[1]
c_env = dict(os.environ)                              # attn-poet 用原来的环境，线程数由 --threads 给
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers                                          # noqa: E402  第 9 章：正文“训练也对一对”说了为什么
peers.prepare(int(threads) if threads.isdigit() else 1, "--untuned" in sys.argv)
import torch                                          # noqa: E402
import torch.nn.functional as F                       # noqa: E402

from poem_open import load, gpt2, encode                # noqa: E402


def lr_at(step, o):
    """和 poet_lr 相同：预热，再按余弦降到 lr_min"""
    if step <= o["warmup"]:
        return o["lr"] * step / o["warmup"]
    t = min(1.0, (step - o["warmup"]) / (o["steps"] - o["warmup"]))
    return o["lr_min"] + 0.5 * (o["lr"] - o["lr_min"]) * (1 + math.cos(math.pi * t))


def torch_train(P0, meta, ids, steps, o, dtype):
    """PyTorch 从同一个初始模型、用同样的窗口训练；返回每一步的损失和训练用的秒数"""
    n_ctx, V = int(meta["n_ctx"]), len(json.loads(meta["vocab"]))
    P = {k: torch.nn.Parameter(v.clone().to(dtype)) for k, v in P0.items()}
    groups = [{"params": [p for p in P.values() if p.dim() == 2], "weight_decay": o["weight_decay"]},
              {"params": [p for p in P.values() if p.dim() == 1], "weight_decay": 0.0}]
    opt = torch.optim.AdamW(groups, lr=o["lr"], betas=(0.9, 0.95), eps=1e-8)
    losses, busy = [], 0.0
    for s in steps:
        starts = torch.tensor(s["starts"])
        x = torch.stack([ids[a:a + n_ctx] for a in starts])
        y = torch.stack([ids[a + 1:a + n_ctx + 1] for a in starts])
        t0 = time.perf_counter()
        for g in opt.param_groups:
            g["lr"] = lr_at(s["step"], o)
        loss = F.cross_entropy(gpt2(P, meta, x).reshape(-1, V), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(P.values()), o["clip"])
        opt.step()
        busy += time.perf_counter() - t0
        losses.append(loss.item())
    return losses, busy


def worst(a, b):
    """两串损失逐步的最大相对差"""
    return max(abs(x - y) / abs(y) for x, y in zip(a, b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poet", required=True, help="attn-poet 程序")
    ap.add_argument("--data", required=True, help="整理好的数据（train.txt）")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--batch", type=int, default=16, help="一批几个窗口（attn-poet train 也是 16）")
    ap.add_argument("--lr", type=float, default=1e-3, help="学习率的最大值；最后的值是它的十分之一")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-diff", type=float, default=1e-3)
    ap.add_argument("--float64", action="store_true", help="PyTorch 再用 float64 训练一遍，当作尺子")
    ap.add_argument("--untuned", action="store_true",
                    help="PyTorch 照这台机器的缺省运行：环境里的 OpenBLAS 内核，大张量每一步向系统借还，"
                         "闲着的 OpenMP 线程空转")
    args = ap.parse_args()
    kernel = peers.check(args.threads)                 # 核对一个乘积，设好线程数
    print(f"PyTorch 用 {args.threads} 个线程，OpenBLAS 的内核 {kernel}"
          f"（{'缺省设置' if args.untuned else '照用户那样运行'}）")
    o = {"steps": args.steps, "lr": args.lr, "lr_min": args.lr / 10,
         "warmup": min(200, args.steps // 10), "weight_decay": 0.1, "clip": 1.0}
    with tempfile.TemporaryDirectory() as tmp:
        init = os.path.join(tmp, "init.safetensors")
        run = subprocess.run([args.poet, "train", "--data", args.data, "--out", os.path.join(tmp, "c.safetensors"),
                              "--steps", str(args.steps), "--batch", str(args.batch),
                              "--lr", repr(o["lr"]), "--lr-min", repr(o["lr_min"]),
                              "--warmup", str(o["warmup"]), "--eval-every", str(10 ** 7),
                              "--eval-chars", "2", "--seed", str(args.seed), "--threads", str(args.threads),
                              "--save-initial", init, "--trace"],
                             check=True, capture_output=True, text=True, env=c_env)
        P, meta = load(init)
    steps = [json.loads(l) for l in run.stdout.splitlines() if '"starts"' in l]
    with open(os.path.join(args.data, "train.txt"), encoding="utf-8") as f:
        ids = torch.tensor(encode(meta, f.read()))
    c = [s["loss"] for s in steps]
    t32, busy = torch_train(P, meta, ids, steps, o, torch.float32)
    agreement = worst(c, t32)
    tokens = len(steps) * args.batch * int(meta["n_ctx"])
    c_speed, t_speed = tokens / steps[-1]["seconds"], tokens / busy
    print(f"C 的损失：第 1 步 {c[0]:.6f}，第 {len(c)} 步 {c[-1]:.6f}（学习率最大 {args.lr:g}）")
    print(f"两边损失的最大相对差 {agreement:.3g}（{len(c)} 步）")
    result = {"agreement": agreement, "c_tokens_per_s": round(c_speed),
              "torch_tokens_per_s": round(t_speed), "steps": len(c), "threads": args.threads,
              "batch": args.batch, "lr": args.lr, "torch_tuned": not args.untuned,
              "blas_kernel": kernel}
    if args.float64:
        t64, _ = torch_train(P, meta, ids, steps, o, torch.float64)
        result["c_vs_float64"], result["torch_vs_float64"] = worst(c, t64), worst(t32, t64)
        print(f"与 float64 的 PyTorch 相比：C {result['c_vs_float64']:.3g}，"
              f"float32 的 PyTorch {result['torch_vs_float64']:.3g}")
    print(f"速度（{args.threads} 个线程）：C 每秒 {c_speed:.0f} 个字，PyTorch 每秒 {t_speed:.0f} 个字，"
          f"C 是 PyTorch 的 {c_speed / t_speed:.2f} 倍")
    print(json.dumps(result))
    return 0 if agreement <= args.max_diff and len(c) == args.steps else 1


if __name__ == "__main__":
    sys.exit(main())
