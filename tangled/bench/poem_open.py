#!/usr/bin/python3
"""bench/poem_open.py — 在 PyTorch 里打开第 13 章的检查点，和 attn-poet eval 对答案。
    /usr/bin/python3 tangled/bench/poem_open.py --poet build/attn-poet --checkpoint models/poems.safetensors \\
        --file build/poems/valid.txt --chars 4096
两边的平均损失相对差超过 --max-diff（缺省 1e-5）时退出码为 1。最后一行是 JSON。"""
import argparse, json, os, struct, subprocess, sys, tempfile

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import torch
import torch.nn.functional as F

def load(path):
    """safetensors 文件 -> (张量的字典, 元数据)：只用 struct、json 和 torch.frombuffer"""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])                  # 头部的长度：小端序的 64 位整数
    head = json.loads(blob[8:8 + n])
    meta = head.pop("__metadata__", {})
    data = bytearray(blob[8 + n:])
    tensors = {}
    for name, t in head.items():
        if t["dtype"] != "F32":
            sys.exit(f"{path}: {name} 的类型是 {t['dtype']}，这里只读 F32")
        b, e = t["data_offsets"]
        tensors[name] = torch.frombuffer(data, dtype=torch.float32, offset=b,
                                         count=(e - b) // 4).view(t["shape"])
    return tensors, meta


def gpt2(P, meta, ids):
    """GPT-2 的前向：ids[B, n] -> logits[B, n, V]"""
    L, H, d = int(meta["n_layer"]), int(meta["n_head"]), int(meta["n_embd"])
    B, n = ids.shape
    x = P["wte.weight"][ids] + P["wpe.weight"][:n]
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    for i in range(L):
        p = lambda name: P[f"h.{i}.{name}"]
        a = F.layer_norm(x, (d,), p("ln_1.weight"), p("ln_1.bias"), 1e-5)
        q, k, v = (a @ p("attn.c_attn.weight") + p("attn.c_attn.bias")).split(d, dim=-1)
        q, k, v = (t.view(B, n, H, d // H).transpose(1, 2) for t in (q, k, v))
        s = (q @ k.transpose(-1, -2)) / (d // H) ** 0.5
        o = s.masked_fill(~causal, float("-inf")).softmax(-1) @ v
        x = x + o.transpose(1, 2).reshape(B, n, d) @ p("attn.c_proj.weight") + p("attn.c_proj.bias")
        a = F.layer_norm(x, (d,), p("ln_2.weight"), p("ln_2.bias"), 1e-5)
        h = F.gelu(a @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"), approximate="tanh")
        x = x + h @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias")
    x = F.layer_norm(x, (d,), P["ln_f.weight"], P["ln_f.bias"], 1e-5)
    return x @ P["wte.weight"].t()


def encode(meta, text):
    """文字 -> 词元：词表在元数据里，不认识的字是 0（<unk>）"""
    vocab = json.loads(meta["vocab"])
    index = {ch: i for i, ch in enumerate(vocab) if i > 0}
    return [index.get(ch, 0) for ch in text]


def score(P, meta, ids):
    """attn-poet eval 的规矩：按 n_ctx 切段，每段第一个以后的位置都要猜；返回平均损失和预测个数"""
    n_ctx, total, count = int(meta["n_ctx"]), 0.0, 0
    with torch.no_grad():
        for at in range(0, len(ids), n_ctx):
            w = torch.tensor(ids[at:at + n_ctx])
            if len(w) < 2:
                continue
            logits = gpt2(P, meta, w[None, :-1])[0]
            total += F.cross_entropy(logits, w[1:], reduction="sum").item()
            count += len(w) - 1
    return total / count, count


def config_of(meta):
    """元数据 -> Hugging Face 的 GPT2Config 的字段（config.json 的内容）"""
    return {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"],
            "n_layer": int(meta["n_layer"]), "n_head": int(meta["n_head"]), "n_embd": int(meta["n_embd"]),
            "n_positions": int(meta["n_ctx"]), "vocab_size": len(json.loads(meta["vocab"])),
            "layer_norm_epsilon": float(meta.get("layer_norm_epsilon", "1e-5")),
            "activation_function": "gelu_new", "tie_word_embeddings": True,
            "resid_pdrop": 0.0, "embd_pdrop": 0.0, "attn_pdrop": 0.0}


def read_config(path, meta):
    """读检查点旁边的 config.json，逐个字段和元数据对一对；对不上就以状态 1 退出"""
    try:
        with open(path, encoding="utf-8") as f:
            cfg = json.load(f)
    except (OSError, ValueError) as err:
        sys.exit(f"poem_open.py: 读不了 {path}：{err}")
    want = config_of(meta)
    bad = [k for k in want if cfg.get(k) != want[k]]
    if bad:
        sys.exit(f"poem_open.py: {path} 和检查点的元数据对不上：{', '.join(bad)}")
    return cfg


def transformers_score(P, cfg, ids):
    """装了 transformers 时：按 config.json 建 GPT2LMHeadModel，载入同样的张量，算同样的损失；没装：None"""
    try:
        from transformers import GPT2Config, GPT2LMHeadModel
    except ImportError:
        return None
    model = GPT2LMHeadModel(GPT2Config(**cfg)).eval()
    missing, unexpected = model.transformer.load_state_dict(P, strict=False)
    if unexpected or any(not k.endswith(("attn.bias", "attn.masked_bias")) for k in missing):
        sys.exit(f"poem_open.py: transformers 不认识 {unexpected}，或缺了 {missing}")
    model.tie_weights()
    n_ctx, total, count = cfg["n_positions"], 0.0, 0
    with torch.no_grad():
        for at in range(0, len(ids), n_ctx):
            w = torch.tensor(ids[at:at + n_ctx])
            if len(w) >= 2:
                out = model(w[None, :-1]).logits[0]
                total += F.cross_entropy(out, w[1:], reduction="sum").item()
                count += len(w) - 1
    return total / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poet", help="attn-poet 程序")
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--config", help="Hugging Face 的 config.json（缺省：检查点旁边的 config.json）")
    ap.add_argument("--write-config", metavar="FILE", help="按检查点的元数据写出 config.json，然后退出")
    ap.add_argument("--file", help="要打分的文字")
    ap.add_argument("--chars", type=int, default=4096, help="只用文件的前这么多个字")
    ap.add_argument("--max-diff", type=float, default=1e-5)
    args = ap.parse_args()
    torch.set_num_threads(1)
    P, meta = load(args.checkpoint)
    if args.write_config:
        with open(args.write_config, "w", encoding="utf-8") as f:
            json.dump(config_of(meta), f, indent=2)
            f.write("\n")
        return 0
    if not args.file or not args.poet:
        ap.error("要给 --poet 和 --file")
    config = args.config or os.path.join(os.path.dirname(args.checkpoint), "config.json")
    cfg = read_config(config, meta)
    print(f"{config}：和检查点的元数据一致（{cfg['n_layer']} 层，{cfg['n_head']} 个头，宽 {cfg['n_embd']}）")
    with open(args.file, encoding="utf-8") as f:
        text = f.read()[:args.chars]
    loss_t, count = score(P, meta, encode(meta, text))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run([args.poet, "eval", "--checkpoint", args.checkpoint, "--file", f.name,
                              "--json"], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    c = json.loads(out.splitlines()[-1])
    diff = abs(c["loss"] - loss_t) / loss_t
    print(f"PyTorch 读出的 GPT-2：{count} 个预测，平均损失 {loss_t:.6f}")
    print(f"attn-poet eval：{c['tokens']} 个预测，平均损失 {c['loss']:.6f}；相对差 {diff:.2g}")
    loss_h = transformers_score(P, cfg, encode(meta, text))
    if loss_h is None:
        print("transformers 没有装（Debian 没有打包它，本机也装不上）：只比了上面两个")
    else:
        diff = max(diff, abs(loss_h - loss_t) / loss_t)
        print(f"transformers 的 GPT2LMHeadModel：平均损失 {loss_h:.6f}")
    print(json.dumps({"loss_torch": loss_t, "loss_c": c["loss"], "tokens": count,
                      "max_rel_diff": diff}))
    return 0 if diff <= args.max_diff and c["tokens"] == count else 1


if __name__ == "__main__":
    sys.exit(main())
