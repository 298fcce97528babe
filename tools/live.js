// tools/live.js — the live figures of the HTML book.
//
// An element <div class="live" data-live="NAME"> in a chapter holds a static figure; this script
// adds, under it, controls (ordinary form elements) and tables of numbers computed by libattn
// itself, compiled to WebAssembly (attn-wasm.js, built by tools/live.cmake). No arithmetic of
// attention happens in JavaScript: the script builds inputs, calls attn_* and shows the results.
// The inputs of each figure come from the chapter's figures/live-chNN.c (live-data.js).
// Every number shown is in an element with data-v="KEY"; tests/browser/live.mjs compares them
// with what the native library computes. Without JavaScript or without the library the static
// figure stays alone.
(function () {
  "use strict";
  const figures = Array.from(document.querySelectorAll("[data-live]"));
  if (figures.length === 0) return;
  const started = performance.now();

  // (the scripts are beside live.js: the source companion's pages are one folder down)
  const base = document.currentScript ? document.currentScript.src.replace(/[^/]*$/, "") : "";
  function load(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = base + src;
      s.onload = resolve;
      s.onerror = () => reject(new Error("cannot load " + src));
      document.head.appendChild(s);
    });
  }

  // ------------------------------------------------------------ the library in the page
  class Lib {
    constructor(exports) {
      this.x = exports;
      this.decoder = new TextDecoder();
    }
    get heap() { return this.x.memory.buffer; }
    // a scope of allocations, freed together
    scope() { return new Scope(this); }
    message(status) {
      const p = this.x.attn_strerror(status);
      const b = new Uint8Array(this.heap, p);
      let n = 0;
      while (b[n] !== 0) n++;
      return this.decoder.decode(b.slice(0, n));
    }
    // call attn_NAME; a status other than ATTN_OK (0) becomes an exception with the library's message
    call(name, ...args) {
      const status = this.x["attn_" + name](...args);
      if (status !== 0) throw new LiveError(`attn_${name}: ${this.message(status)}`);
    }
  }
  class LiveError extends Error {}
  class Scope {
    constructor(lib) { this.lib = lib; this.ptrs = []; }
    alloc(bytes) {
      const p = this.lib.x.malloc(Math.max(bytes, 1));
      if (p === 0) throw new LiveError("malloc: out of memory");
      this.ptrs.push(p);
      new Uint8Array(this.lib.heap, p, bytes).fill(0);
      return p;
    }
    // n floats (zeros), or a copy of an array of numbers
    floats(a) {
      const n = typeof a === "number" ? a : a.length;
      const p = this.alloc(4 * n);
      if (typeof a !== "number") new Float32Array(this.lib.heap, p, n).set(a);
      return p;
    }
    bytes(a) {
      const p = this.alloc(a.length);
      new Uint8Array(this.lib.heap, p, a.length).set(a);
      return p;
    }
    words(a) {             // 32-bit words: size_t and pointers of wasm32
      const p = this.alloc(4 * a.length);
      new Uint32Array(this.lib.heap, p, a.length).set(a);
      return p;
    }
    read(p, n) { return Array.from(new Float32Array(this.lib.heap, p, n)); }
    word(p, i) { return new Uint32Array(this.lib.heap, p, i + 1)[i]; }
    free() { this.ptrs.forEach((p) => this.lib.x.free(p)); this.ptrs = []; }
  }
  // run f(scope) with a fresh scope, free it afterwards
  function using(lib, f) {
    const s = lib.scope();
    try { return f(s); } finally { s.free(); }
  }

  // ------------------------------------------------------------ building the panels
  const fmt = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === undefined || v === null) continue;
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    children.flat().forEach((c) => e.append(c));
    return e;
  }
  let uid = 0;
  // one labelled control; spec: {name, label, type, value, min, max, step, options, checked}
  function control(spec) {
    const id = `live-${++uid}`;
    let input;
    if (spec.type === "select") {
      input = el("select", { id, name: spec.name },
        spec.options.map((o) => el("option", { value: o, text: o, selected: o === spec.value })));
    } else if (spec.type === "button") {
      return el("button", { type: "button", name: spec.name, text: spec.label });
    } else if (spec.type === "checkbox") {
      input = el("input", { id, name: spec.name, type: "checkbox", checked: !!spec.checked });
    } else {
      input = el("input", { id, name: spec.name, type: spec.type || "number", value: spec.value,
                            min: spec.min, max: spec.max, step: spec.step });
    }
    const out = spec.type === "range" ? el("output", { for: id, text: spec.show ? spec.show(spec.value) : spec.value }) : null;
    if (out) input.addEventListener("input", () => { out.textContent = spec.show ? spec.show(input.value) : input.value; });
    return el("label", { class: "live-control", for: id }, el("span", { text: spec.label }), input, out || []);
  }
  // a table of numbers: rows × cols, cell (i, j) shown by cell(i, j) -> {key, value, heat}
  function table(caption, colHeads, rowHeads, cell, corner) {
    const t = el("table", { class: "live-table" });
    if (caption) t.append(el("caption", { text: caption }));
    t.append(el("thead", {}, el("tr", {}, el("th", { text: corner || "" }), colHeads.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    rowHeads.forEach((r, i) => {
      body.append(el("tr", {}, el("th", { scope: "row", text: r }),
        colHeads.map((_, j) => { const c = cell(i, j); return el("td", { "data-v": c.key }); })));
    });
    t.append(body);
    return el("div", { class: "live-scroll" }, t);
  }
  // write a number into the element data-v=key of root; heat in [0, 1] shades the cell
  function put(root, key, value, heat, digits) {
    const e = root.querySelector(`[data-v="${CSS.escape(key)}"]`);
    if (!e) return;
    e.textContent = fmt(value, digits);
    if (heat !== undefined) {
      const h = Math.max(0, Math.min(1, heat));
      e.style.setProperty("--heat", h.toFixed(3));
      e.classList.toggle("live-dark", h > 0.55);
    }
  }
  function num(panel, name) { return Number(panel.querySelector(`[name="${name}"]`).value); }
  function panelFor(fig, title) {
    const panel = el("div", { class: "live-panel", role: "group", "aria-label": title },
      el("p", { class: "live-title", text: title }));
    const status = el("p", { class: "live-status", role: "status", "aria-live": "polite" });
    panel.status = status;
    fig.append(panel);
    return panel;
  }
  // recompute on every change; a library error is shown in the panel, not thrown
  function wire(panel, update) {
    const run = () => {
      try {
        panel.classList.remove("live-error");
        panel.status.textContent = "";
        update();
      } catch (e) {
        if (!(e instanceof LiveError)) throw e;
        panel.classList.add("live-error");
        panel.status.textContent = e.message;
        panel.querySelectorAll("[data-v]").forEach((c) => { c.textContent = "—"; });
      }
    };
    panel.addEventListener("input", run);
    panel.addEventListener("change", run);
    run();
    return run;
  }

  // ------------------------------------------------------------ the figures
  const FIGURES = {};

  // chapter 2: a query on the word map; its dot product and cosine with every word
  FIGURES["ch02-similarity"] = (fig, lib, data) => {
    const words = data.words;
    const panel = panelFor(fig, "动手试试：把查询放到词地图上的任意一点（拖动图中的点，或者输入坐标）");
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", "-3.6 -3.6 7.2 7.2");
    svg.setAttribute("class", "live-map");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "词地图和查询向量");
    const sv = (tag, attrs) => { const e = document.createElementNS(svgNS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
    svg.append(sv("line", { x1: -3.5, y1: 0, x2: 3.5, y2: 0, class: "axis" }), sv("line", { x1: 0, y1: -3.5, x2: 0, y2: 3.5, class: "axis" }));
    words.forEach((w) => {
      svg.append(sv("circle", { cx: w.x, cy: -w.y, r: 0.09, class: `g${w.g}` }));
      const t = sv("text", { x: w.x + 0.13, y: -w.y + 0.1, class: "word" });
      t.textContent = w.w;
      svg.append(t);
    });
    const arrow = sv("line", { x1: 0, y1: 0, x2: 0, y2: 0, class: "query" });
    const dot = sv("circle", { cx: 0, cy: 0, r: 0.16, class: "query" });
    svg.append(arrow, dot);
    const controls = el("div", { class: "live-controls" },
      control({ name: "qx", label: "查询 x", value: data.qx, min: -3.5, max: 3.5, step: 0.1 }),
      control({ name: "qy", label: "查询 y", value: data.qy, min: -3.5, max: 3.5, step: 0.1 }),
      control({ type: "select", name: "word", label: "或者放到字上", value: "", options: [""].concat(words.map((w) => w.w)) }));
    const tbl = table(null, ["点积", "余弦"], words.map((w) => w.w), (i, j) => ({ key: `${j ? "cos" : "dot"}-${words[i].w}` }), "字");
    panel.append(controls, el("div", { class: "live-row" }, svg, tbl), panel.status);
    const qx = panel.querySelector("[name=qx]"), qy = panel.querySelector("[name=qy]"), pick = panel.querySelector("[name=word]");
    pick.addEventListener("change", () => {
      const w = words.find((w) => w.w === pick.value);
      if (w) { qx.value = w.x; qy.value = w.y; }
    });
    [qx, qy].forEach((i) => i.addEventListener("input", () => { pick.value = ""; }));
    const update = () => using(lib, (s) => {
      const q = [Number(qx.value), Number(qy.value)];
      arrow.setAttribute("x2", q[0]); arrow.setAttribute("y2", -q[1]);
      dot.setAttribute("cx", q[0]); dot.setAttribute("cy", -q[1]);
      const pq = s.floats(q), pw = s.floats(2), out = s.floats(1);
      const dots = [], coss = [];
      for (const w of words) {
        new Float32Array(lib.heap, pw, 2).set([w.x, w.y]);
        lib.call("dot", pq, pw, 2, out); dots.push(s.read(out, 1)[0]);
        lib.call("cosine", pq, pw, 2, out); coss.push(s.read(out, 1)[0]);
      }
      const best = Math.max(...coss);
      words.forEach((w, i) => {
        put(panel, `dot-${w.w}`, dots[i]);
        put(panel, `cos-${w.w}`, coss[i], (coss[i] + 1) / 2);
        panel.querySelector(`[data-v="cos-${w.w}"]`).parentElement.classList.toggle("live-best", coss[i] === best);
      });
    });
    const run = wire(panel, update);
    // dragging on the map moves the query (to a tenth)
    let dragging = false;
    const move = (ev) => {
      const r = svg.getBoundingClientRect();
      const x = -3.6 + 7.2 * (ev.clientX - r.left) / r.width, y = 3.6 - 7.2 * (ev.clientY - r.top) / r.height;
      qx.value = Math.max(-3.5, Math.min(3.5, Math.round(x * 10) / 10));
      qy.value = Math.max(-3.5, Math.min(3.5, Math.round(y * 10) / 10));
      pick.value = "";
      run();
    };
    svg.addEventListener("pointerdown", (ev) => { dragging = true; svg.setPointerCapture(ev.pointerId); move(ev); });
    svg.addEventListener("pointermove", (ev) => { if (dragging) move(ev); });
    svg.addEventListener("pointerup", () => { dragging = false; });
  };

  // chapter 3: the fluffy creature; W_Q editable, W_K from s and c; the pattern by attn_sdpa
  FIGURES["ch03-fluffy"] = (fig, lib, data) => {
    const { words, x, d, dk } = data;
    const n = words.length;
    const panel = panelFor(fig, "动手试试：改 s、c 或 W_Q 的任意一个元素，注意力权重由 attn_sdpa 重新算出");
    const wqGrid = el("table", { class: "live-table live-matrix" },
      el("caption", { text: "W_Q（5×3）" }),
      el("tbody", {}, data.parts.map((part, r) => el("tr", {}, el("th", { scope: "row", text: part }),
        Array.from({ length: dk }, (_, c) => el("td", {}, el("input", { type: "number", step: 0.5, name: `wq-${r}-${c}`, "aria-label": `W_Q 第 ${r + 1} 行第 ${c + 1} 列` })))))));
    const controls = el("div", { class: "live-controls" },
      control({ name: "s", label: "s（名词找形容词）", value: data.s, step: 0.5 }),
      control({ name: "c", label: "c（同一短语）", value: data.c, step: 0.5 }),
      control({ type: "select", name: "word", label: "看哪个词的输出", value: "creature", options: words }));
    const weights = table("注意力权重（行：查询，列：键）", words, words, (i, j) => ({ key: `w-${i}-${j}` }), "查询＼键");
    const outTbl = table("这个词的输出向量（W_V 是单位矩阵）", data.parts, ["输出"], (_, j) => ({ key: `out-${j}` }));
    panel.append(controls, el("div", { class: "live-row" }, el("div", { class: "live-scroll" }, wqGrid), outTbl), weights, panel.status);
    const fill = () => {   // W_Q as in fluffy_attention: s at (名词, 0), c at (短语 1, 1) and (短语 2, 2)
      const s = num(panel, "s"), c = num(panel, "c");
      for (let r = 0; r < d; r++) for (let k = 0; k < dk; k++)
        panel.querySelector(`[name="wq-${r}-${k}"]`).value = 0;
      panel.querySelector('[name="wq-0-0"]').value = s;
      panel.querySelector('[name="wq-2-1"]').value = c;
      panel.querySelector('[name="wq-3-2"]').value = c;
    };
    fill();
    ["s", "c"].forEach((nm) => panel.querySelector(`[name=${nm}]`).addEventListener("input", fill));
    wire(panel, () => using(lib, (sc) => {
      const s = num(panel, "s"), c = num(panel, "c");
      const wq = [], wk = new Array(d * dk).fill(0);
      for (let r = 0; r < d; r++) for (let k = 0; k < dk; k++) wq.push(num(panel, `wq-${r}-${k}`));
      wk[1 * dk + 0] = s; wk[2 * dk + 1] = c; wk[3 * dk + 2] = c;
      const px = sc.floats(x), pq = sc.floats(n * dk), pk = sc.floats(n * dk);
      const pout = sc.floats(n * d), pw = sc.floats(n * n);
      lib.call("linear", px, sc.floats(wq), 0, pq, n, d, dk);
      lib.call("linear", px, sc.floats(wk), 0, pk, n, d, dk);
      lib.call("sdpa", pq, pk, px, n, n, dk, d, 0, 0, 0, pout, pw);
      const w = sc.read(pw, n * n), out = sc.read(pout, n * d);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) put(panel, `w-${i}-${j}`, w[i * n + j], w[i * n + j]);
      const who = words.indexOf(panel.querySelector("[name=word]").value);
      for (let j = 0; j < d; j++) put(panel, `out-${j}`, out[who * d + j], out[who * d + j]);
    }));
  };

  // random vectors from the library's generator: attn_rng_seed, attn_rng_normal
  function normals(lib, s, seed, n) {
    const rng = s.alloc(8), p = s.floats(n);
    lib.call("rng_seed", rng, BigInt(seed));
    lib.call("rng_normal", rng, p, n);
    return { rng, p };
  }

  // chapter 4: d_k and the scale 1/sqrt(d_k)
  FIGURES["ch04-scaling"] = (fig, lib, data) => {
    const nk = data.n_k;
    const panel = panelFor(fig, "动手试试：改变 d_k，比较不缩放和除以 √d_k 的注意力权重（一个查询，8 个随机键）");
    const controls = el("div", { class: "live-controls" },
      control({ type: "range", name: "logd", label: "d_k", value: data.logd, min: 0, max: 10, step: 1, show: (v) => `${2 ** v}` }),
      control({ name: "seed", label: "随机数种子", value: data.seed, min: 0, max: 1000000, step: 1 }));
    const keys = Array.from({ length: nk }, (_, j) => `键 ${j + 1}`);
    const tbl = table(null, ["点积 q·k", "不缩放的权重", "缩放后的权重"], keys.concat(["最大权重"]),
      (i, j) => ({ key: i < nk ? `${["score", "raw", "scaled"][j]}-${i}` : `max-${["score", "raw", "scaled"][j]}` }), "");
    panel.append(controls, tbl, panel.status);
    wire(panel, () => using(lib, (s) => {
      const dk = 2 ** num(panel, "logd"), seed = num(panel, "seed");
      if (!Number.isInteger(seed) || seed < 0) throw new LiveError("种子应当是非负整数");
      const { rng, p: q } = normals(lib, s, seed, dk);
      const k = s.floats(nk * dk);
      lib.call("rng_normal", rng, k, nk * dk);
      const v = s.floats(nk), out = s.floats(1), scores = s.floats(nk), wr = s.floats(nk), ws = s.floats(nk);
      lib.call("dot_all", q, k, 1, nk, dk, scores);
      lib.call("sdpa", q, k, v, 1, nk, dk, 1, 1, 0, 0, out, wr);
      lib.call("sdpa", q, k, v, 1, nk, dk, 1, 0, 0, 0, out, ws);
      const cols = { score: s.read(scores, nk), raw: s.read(wr, nk), scaled: s.read(ws, nk) };
      for (const [name, vals] of Object.entries(cols)) {
        vals.forEach((x, j) => put(panel, `${name}-${j}`, x, name === "score" ? undefined : x));
        put(panel, `max-${name}`, Math.max(...vals));
      }
    }));
  };

  // chapter 5: causal and padding masks; the KV cache one token at a time
  FIGURES["ch05-mask"] = (fig, lib, data) => {
    const { n, d, seed } = data;
    const pos = Array.from({ length: n }, (_, i) => `${i}`);
    const panel = panelFor(fig, "动手试试：开关因果掩码、改变有效长度（之后的位置是填充），再一步一步地填 KV 缓存");
    const controls = el("div", { class: "live-controls" },
      control({ type: "checkbox", name: "causal", label: "因果掩码", checked: true }),
      control({ name: "valid", label: "有效的键（其余是填充）", value: n, min: 1, max: n, step: 1 }));
    const weights = table("attn_sdpa 的注意力权重（行：查询，列：键）", pos, pos, (i, j) => ({ key: `w-${i}-${j}` }), "查询＼键");
    const kvControls = el("div", { class: "live-controls" },
      control({ type: "button", name: "step", label: "读入下一个词" }),
      control({ type: "button", name: "reset", label: "清空缓存" }),
      el("span", { class: "live-note" }, "缓存里的位置数：", el("b", { "data-v": "kv-len", text: "0" })));
    const kv = table("attn_kv_cache_attend：每读入一个词，它的查询对缓存里全部的键", pos, pos, (i, j) => ({ key: `kv-${i}-${j}` }), "新词＼键");
    panel.append(controls, weights, kvControls, kv, panel.status);
    // q, k, v as in figure 5.1: attn_rng with the figure's seed
    const cache = lib.x.malloc(24);
    new Uint8Array(lib.heap, cache, 24).fill(0);
    let step = 0;
    const reset = () => {
      lib.x.attn_kv_cache_free(cache);
      lib.call("kv_cache_init", cache, n, d, 1);
      step = 0;
      panel.querySelectorAll('[data-v^="kv-"]').forEach((c) => { c.textContent = ""; c.style.removeProperty("--heat"); c.classList.remove("live-dark"); });
      put(panel, "kv-len", 0);
      panel.querySelector('[data-v="kv-len"]').textContent = "0";
      panel.querySelector("[name=step]").disabled = false;
    };
    const qkv = (s) => {
      const { rng, p: q } = normals(lib, s, seed, n * d);
      const k = s.floats(n * d), v = s.floats(n);
      lib.call("rng_normal", rng, k, n * d);
      lib.call("rng_normal", rng, v, n);
      return { q, k, v };
    };
    wire(panel, () => using(lib, (s) => {
      const causal = panel.querySelector("[name=causal]").checked ? 1 : 0, valid = num(panel, "valid");
      if (!Number.isInteger(valid) || valid < 1 || valid > n) throw new LiveError(`有效的键应当是 1 到 ${n} 之间的整数`);
      const { q, k, v } = qkv(s);
      const mask = [];
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) mask.push(j < valid ? 1 : 0);
      const out = s.floats(n), w = s.floats(n * n);
      lib.call("sdpa", q, k, v, n, n, d, 1, 0, s.bytes(mask), causal, out, w);
      s.read(w, n * n).forEach((x, idx) => put(panel, `w-${Math.floor(idx / n)}-${idx % n}`, x, x));
    }));
    panel.querySelector("[name=step]").addEventListener("click", () => using(lib, (s) => {
      if (step >= n) return;
      const { q, k, v } = qkv(s);
      lib.call("kv_cache_append", cache, k + 4 * d * step, v + 4 * step, 1);
      const len = s.word(cache, 1), w = s.floats(len), out = s.floats(1);
      lib.call("kv_cache_attend", cache, q + 4 * d * step, 1, 0, out, w);
      s.read(w, len).forEach((x, j) => put(panel, `kv-${step}-${j}`, x, x));
      put(panel, "kv-len", len);
      panel.querySelector('[data-v="kv-len"]').textContent = String(len);
      step++;
      panel.querySelector("[name=step]").disabled = step >= n;
    }));
    panel.querySelector("[name=reset]").addEventListener("click", reset);
    reset();
  };

  // chapter 7: three hand-made heads side by side, attn_mha_pattern
  FIGURES["ch07-heads"] = (fig, lib, data) => {
    const { words, x, d_model, n_heads, d_head } = data;
    const n = words.length, short = words.map((w) => w.slice(0, 3));
    const panel = panelFor(fig, "动手试试：改变对得上的一对的分数 s，开关因果掩码，三个头的模式由 attn_mha_pattern 算出");
    const controls = el("div", { class: "live-controls" },
      control({ type: "range", name: "s", label: "s", value: data.s, min: 0, max: 10, step: 0.5 }),
      control({ type: "checkbox", name: "causal", label: "因果掩码", checked: true }));
    const heads = el("div", { class: "live-row live-heads" },
      data.head_names.map((name, h) => table(`头 ${h}：${name}`, short, short, (i, j) => ({ key: `p-${h}-${i}-${j}` }), "")));
    panel.append(controls, heads, el("p", { class: "live-note", text: "行是查询，列是键，词只写前三个字母；每格是权重（两位小数）。" }), panel.status);
    wire(panel, () => using(lib, (s) => {
      const sv = num(panel, "s"), causal = panel.querySelector("[name=causal]").checked ? 1 : 0;
      // the scores are s: W_Q and b_Q of the figure are printed for s = 1 and scale with s
      const wq = s.floats(data.wq.map((a) => a * sv)), bq = s.floats(data.bq.map((a) => a * sv));
      const w = s.words([d_model, n_heads, d_head, wq, s.floats(data.wk), s.floats(data.wv), s.floats(data.wo), bq, 0, 0, 0]);
      const px = s.floats(x), p = s.floats(n * n);
      for (let h = 0; h < n_heads; h++) {
        lib.call("mha_pattern", w, px, n, px, n, 0, causal, h, p);
        s.read(p, n * n).forEach((v, idx) => put(panel, `p-${h}-${Math.floor(idx / n)}-${idx % n}`, v, v, 2));
      }
    }));
  };

  // chapter 10: RoPE turns a query and a key; their dot product depends on m - n only
  FIGURES["ch10-rope"] = (fig, lib, data) => {
    const { d } = data;
    const panel = panelFor(fig, "动手试试：移动查询的位置 m 和键的位置 n，attn_rope 把它们转过去；m − n 不变时点积不变");
    const controls = el("div", { class: "live-controls" },
      control({ type: "range", name: "m", label: "查询的位置 m", value: data.m, min: 0, max: 64, step: 1 }),
      control({ type: "range", name: "n", label: "键的位置 n", value: data.n, min: 0, max: 64, step: 1 }),
      control({ name: "base", label: "base", value: data.base, min: 1, step: 1 }),
      control({ type: "button", name: "both", label: "m 和 n 都加 1" }));
    const dims = Array.from({ length: d }, (_, i) => `${i}`);
    const tbl = table("转过之后的向量（每两个分量是一对）", dims, ["查询 q", "键 k"], (i, j) => ({ key: `${i ? "k" : "q"}-${j}` }), "分量");
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${d / 2 * 2.4} 2.8`);
    svg.setAttribute("class", "live-pairs");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "每一对分量转过的角度");
    const sv = (tag, attrs) => { const e = document.createElementNS(svgNS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
    const hands = [];
    for (let j = 0; j < d / 2; j++) {
      const cx = 1.2 + 2.4 * j;
      svg.append(sv("circle", { cx, cy: 1.2, r: 1, class: "ring" }));
      const hq = sv("line", { x1: cx, y1: 1.2, x2: cx, y2: 1.2, class: "q" }), hk = sv("line", { x1: cx, y1: 1.2, x2: cx, y2: 1.2, class: "k" });
      const t = sv("text", { x: cx, y: 2.65, class: "pair" });
      t.textContent = `第 ${j} 对`;
      svg.append(hq, hk, t);
      hands.push([cx, hq, hk]);
    }
    const summary = el("p", { class: "live-note" }, "蓝：查询的一对；红：键的一对。m − n = ", el("b", { "data-v": "diff", text: "" }), "，点积 q·k = ", el("b", { "data-v": "dot", text: "" }));
    panel.append(controls, svg, summary, tbl, panel.status);
    const run = wire(panel, () => using(lib, (s) => {
      const m = num(panel, "m"), nn = num(panel, "n"), base = num(panel, "base");
      const q = s.floats(data.q), k = s.floats(data.k), out = s.floats(1);
      lib.call("rope", q, 1, d, m, base);
      lib.call("rope", k, 1, d, nn, base);
      lib.call("dot", q, k, d, out);
      const qv = s.read(q, d), kv = s.read(k, d);
      qv.forEach((v, i) => put(panel, `q-${i}`, v));
      kv.forEach((v, i) => put(panel, `k-${i}`, v));
      put(panel, "dot", s.read(out, 1)[0]);
      panel.querySelector('[data-v="diff"]').textContent = String(m - nn);
      hands.forEach(([cx, hq, hk], j) => {
        const lq = Math.hypot(qv[2 * j], qv[2 * j + 1]) || 1, lk = Math.hypot(kv[2 * j], kv[2 * j + 1]) || 1;
        hq.setAttribute("x2", cx + qv[2 * j] / lq); hq.setAttribute("y2", 1.2 - qv[2 * j + 1] / lq);
        hk.setAttribute("x2", cx + 0.8 * kv[2 * j] / lk); hk.setAttribute("y2", 1.2 - 0.8 * kv[2 * j + 1] / lk);
      });
    }));
    panel.querySelector("[name=both]").addEventListener("click", () => {
      ["m", "n"].forEach((nm) => {
        const e = panel.querySelector(`[name=${nm}]`);
        e.value = Math.min(64, Number(e.value) + 1);
        e.dispatchEvent(new Event("input", { bubbles: true }));
      });
      run();
    });
  };

  // chapter 12: train the tiny model in the page; loss, held-out accuracy, and the pattern of the
  // head of layer 0 that gives the colour most weight (chosen as figure 12.2 chooses it)
  FIGURES["ch12-train"] = (fig, lib, data) => {
    const { batch, len, steps, sentences, held_out: heldOut, labels } = data;
    const panel = panelFor(fig, `动手试试：在页面里训练这个模型（attn_gpt_loss_grad 和 attn_adamw_step），每次 ${steps} 步`);
    const controls = el("div", { class: "live-controls" },
      control({ type: "button", name: "train", label: `训练 ${steps} 步` }),
      control({ type: "button", name: "reset", label: "从头再来" }));
    const stats = table(null, ["值"], ["已经训练的步数", "这一步的损失", "最近 20 步的平均损失", "留出句子上的检验损失",
      "留出句子上的准确率", "第 0 层最看重颜色的头"],
      (i) => ({ key: ["step", "loss", "mean", "eval-loss", "eval-acc", "head"][i] }), "");
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", "0 0 300 120");
    svg.setAttribute("class", "live-curve");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "每一步的训练损失");
    const curve = document.createElementNS(svgNS, "polyline");
    const floor = document.createElementNS(svgNS, "line");
    const axisNote = document.createElementNS(svgNS, "text");
    svg.append(floor, curve, axisNote);
    const pats = el("div", { class: "live-row" }, labels.map((lab, e) =>
      table(`最看重颜色的头：${lab.slice(1).join(" ")}`, lab, lab, (i, j) => ({ key: `p-${e}-${i}-${j}` }), "查询＼键")));
    panel.append(controls, el("div", { class: "live-row" }, stats, svg), pats, panel.status);

    // the model, its gradient (bound to one buffer), AdamW's moments, the batch generator
    const s = lib.scope();                 // lives as long as the page
    const cfg = s.alloc(72);
    new BigUint64Array(lib.heap, cfg, 7).set(data.config.slice(0, 7).map((v) => BigInt(v)));
    new Int32Array(lib.heap, cfg + 56, 4).set(data.config.slice(7));
    const m = s.alloc(104), g = s.alloc(104), rng = s.alloc(8), lossPtr = s.floats(1);
    const tok = s.alloc(4 * batch * len), logits = s.floats(len * 32 * 4);
    let n = 0, params = 0, grad = 0, am = 0, av = 0, t = 0, losses = [];
    const reset = () => {
      lib.x.attn_gpt_free(m);
      lib.x.attn_gpt_free(g);
      [grad, am, av].forEach((p) => p && lib.x.free(p));
      lib.call("gpt_init", m, cfg, BigInt(data.seed));
      n = s.word(m, 18);                   // attn_gpt: cfg (72 bytes), n_params, params, …
      params = s.word(m, 19);
      grad = lib.x.malloc(4 * n); am = lib.x.malloc(4 * n); av = lib.x.malloc(4 * n);
      if (!grad || !am || !av) throw new LiveError("malloc: out of memory");
      new Float32Array(lib.heap, am, n).fill(0);
      new Float32Array(lib.heap, av, n).fill(0);
      lib.call("gpt_bind", g, cfg, grad, n);
      lib.call("rng_seed", rng, BigInt(data.seed) ^ 0x5eedn);
      t = 0;
      losses = [];
      show();
    };
    // one step, as fluffy_step: 16 training sentences, gradients averaged, AdamW
    const step = () => {
      const toks = new Int32Array(lib.heap, tok, batch * len);
      for (let b = 0; b < batch; b++) {
        let k;
        do k = Number(BigInt.asUintN(64, lib.x.attn_rng_next(rng)) % 128n); while (heldOut[k]);
        toks.set(sentences[k], b * len);
      }
      new Float32Array(lib.heap, grad, n).fill(0);
      let total = 0;
      for (let b = 0; b < batch; b++) {
        lib.call("gpt_loss_grad", m, tok + 4 * b * len, tok + 4 * (b * len + 1), len - 1, lossPtr, g);
        total = Math.fround(total + new Float32Array(lib.heap, lossPtr, 1)[0]);
      }
      const gv = new Float32Array(lib.heap, grad, n);
      for (let i = 0; i < n; i++) gv[i] /= batch;
      lib.call("adamw_step", params, grad, am, av, n, ++t, 3e-3, 0.9, 0.999, 1e-8, 0.01);
      losses.push(Math.fround(total / batch));
    };
    const show = () => using(lib, (sc) => {
      panel.querySelector('[data-v="step"]').textContent = String(t);
      if (t > 0) {
        put(panel, "loss", losses[t - 1]);
        let sum = 0;
        for (let i = Math.max(0, t - 20); i < t; i++) sum = Math.fround(sum + losses[i]);
        put(panel, "mean", Math.fround(sum / Math.min(20, t)));
      } else {
        put(panel, "loss", NaN); put(panel, "mean", NaN);
        ["loss", "mean"].forEach((k) => { panel.querySelector(`[data-v="${k}"]`).textContent = "—"; });
      }
      // held-out sentences: loss and accuracy of the verb after the noun (as fluffy_eval)
      let sum = 0, right = 0, count = 0;
      const vocab = data.config[5], row = logits + 4 * 3 * vocab;
      for (let k = 0; k < 128; k++) {
        if (!heldOut[k]) continue;
        new Int32Array(lib.heap, tok, len).set(sentences[k]);
        lib.call("gpt_forward", m, tok, len - 1, logits);
        lib.call("cross_entropy", row, tok + 16, 1, vocab, lossPtr, 0);
        sum += new Float32Array(lib.heap, lossPtr, 1)[0];
        const r = new Float32Array(lib.heap, row, vocab);
        let best = 0;
        for (let j = 1; j < vocab; j++) if (r[j] > r[best]) best = j;
        right += best === sentences[k][4] ? 1 : 0;
        count++;
      }
      put(panel, "eval-loss", Math.fround(sum / count));
      put(panel, "eval-acc", Math.fround(right / count));
      // layer 0: the embedding, layer norm 1, attn_mha_pattern with the layer's weights, for each
      // head and all 128 sentences; as fluffy_colour_head, the head whose noun query gives the
      // colour adjective (position 2 in sentences 0-63, 1 in 64-127) the most weight on average
      const layer = s.word(m, 22), L = (i) => s.word(layer, i);
      const [d, H, dh] = data.config;
      const w = sc.words([d, H, dh, L(2), L(4), L(6), L(8), L(3), L(5), L(7), L(9)]);
      const x = sc.floats(4 * d), a = sc.floats(4 * d), p = sc.floats(16);
      const col = new Array(H).fill(0), shown = [[], []];
      for (let k = 0; k < 128; k++) {
        new Int32Array(lib.heap, tok, 4).set(sentences[k].slice(0, 4));
        lib.call("gpt_embed", m, tok, 4, 0, x);
        lib.call("layernorm", x, L(0), L(1), a, 4, d, 1e-5);
        for (let h = 0; h < H; h++) {
          lib.call("mha_pattern", w, a, 4, a, 4, 0, 1, h, p);
          const pat = sc.read(p, 16);
          col[h] += pat[12 + (k < 64 ? 2 : 1)] / 128;
          if (k === 0) shown[0][h] = pat;
          if (k === 64) shown[1][h] = pat;
        }
      }
      let head = 0;
      for (let h = 1; h < H; h++) if (col[h] > col[head]) head = h;
      put(panel, "head", head, undefined, 0);
      shown.forEach((pats, e) => pats[head].forEach((v, idx) => put(panel, `p-${e}-${Math.floor(idx / 4)}-${idx % 4}`, v, v)));
      // the loss curve: every step, the dashed line is the floor 7·ln 2 / 4 of the text
      const top = 3.5, X = (i) => 10 + 285 * i / Math.max(2000, t), Y = (v) => 110 - 100 * Math.min(v, top) / top;
      curve.setAttribute("points", losses.map((v, i) => `${X(i + 1).toFixed(1)},${Y(v).toFixed(1)}`).join(" "));
      const fl = 7 * Math.log(2) / 4;
      Object.entries({ x1: 10, x2: 295, y1: Y(fl), y2: Y(fl), class: "floor" }).forEach(([k, v]) => floor.setAttribute(k, v));
      Object.entries({ x: 295, y: Y(fl) - 3, class: "note" }).forEach(([k, v]) => axisNote.setAttribute(k, v));
      axisNote.textContent = `损失（纵轴 0～${top}），横轴到第 ${Math.max(2000, t)} 步；虚线是下限`;
    });
    const buttons = panel.querySelectorAll("button");
    panel.querySelector("[name=train]").addEventListener("click", () => {
      let left = steps;
      fig.setAttribute("data-busy", "");
      buttons.forEach((b) => { b.disabled = true; });
      const chunk = () => {
        try {
          for (let i = 0; i < 10 && left > 0; i++, left--) step();
          if (left > 0) { show(); setTimeout(chunk, 0); return; }
          show();
        } catch (e) {
          if (!(e instanceof LiveError)) throw e;
          panel.status.textContent = e.message;
        }
        buttons.forEach((b) => { b.disabled = false; });
        fig.removeAttribute("data-busy");
      };
      setTimeout(chunk, 0);
    });
    panel.querySelector("[name=reset]").addEventListener("click", reset);
    reset();
  };

  // chapter 13: the trained model of the Tang poems writes in the page (attn_gpt_step, as attn-poet
  // write: the same allowed characters, the same sampling, attn_softmax and attn_rng), and shows
  // where the four heads of a layer looked from one character (attn_mha_pattern, as poet_attention).
  // The checkpoint itself comes from poem-model.js (the safetensors file as base64, tools/poet.cmake):
  // its header is read with JSON.parse and its tensors put into chapter 11's parameter block.
  FIGURES["ch13-poems"] = (fig, lib, data) => {
    const { config, layers, top_k: topK, top_p: topP, repetition_penalty: penalty, zhe } = data;
    const vocab = data.vocab.map((c, i) => (i > 0 ? String.fromCodePoint(c) : "<unk>"));
    const [d, H, dh, nLayers, , V, nCtx] = config;
    const forms = { "五言绝句": [5, 4], "七言绝句": [7, 4], "五言律诗": [5, 8], "七言律诗": [7, 8] };
    const panel = panelFor(fig, "动手试试：本章的模型在页面里写诗；点一个字，看一层里四个头从这个字看向哪里");
    const controls = el("div", { class: "live-controls" },
      control({ name: "start", label: "开头", type: "text", value: "白日" }),
      control({ type: "select", name: "form", label: "体裁", value: "五言绝句", options: Object.keys(forms) }),
      control({ name: "temperature", label: "温度", value: 0.8, min: 0, max: 2, step: 0.1 }),
      control({ name: "seed", label: "种子", value: 1, min: 0, max: 1000000000, step: 1 }),
      control({ type: "button", name: "write", label: "写一首" }));
    const poemBox = el("div", { class: "live-poem", lang: "zh-Hans" });
    const probBox = el("div");
    const look = el("div", { class: "live-controls" },
      control({ type: "select", name: "at", label: "看第几个字", value: "0", options: [...Array(64).keys()].map(String) }),
      control({ type: "select", name: "layer", label: "层", value: String(layers[1]), options: [...Array(nLayers).keys()].map(String) }));
    const heatBox = el("div");
    const note = el("p", { class: "live-note", text: `第 ${layers[0]} 层有看前一个字的头，第 ${layers[1]} 层有看上一句同一位置的头，第 ${layers[2]} 层有看上一联韵脚的头（正文的统计）。温度大于 0 时只在分数最大的 ${topK} 个字里、概率加起来够 ${topP} 的那几个里取；写过的字分数受罚（${penalty}）；双数句的末字同辙。` });
    panel.append(controls, poemBox, probBox, look, heatBox, note, panel.status);
    const s = lib.scope();                // lives as long as the page
    const index = new Map(vocab.map((ch, i) => [ch, i]).slice(1));
    const cp = (ch) => ch.codePointAt(0);
    const isHan = (c) => (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
      (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3134F);
    const han = vocab.map((ch, i) => i > 0 && isHan(cp(ch)));
    const comma = vocab.map((ch) => ch === "，"), stops = vocab.map((ch) => "。？！".includes(ch));
    // poet_sample: the same order (score, then id), the same quickselect and nucleus as the C code
    const before = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] < b[1]);
    const split = (c, lo, hi) => {
      const mid = lo + Math.floor((hi - lo) / 2), t = c[mid];
      c[mid] = c[hi - 1]; c[hi - 1] = t;
      let a = lo;
      for (let i = lo; i + 1 < hi; i++) if (before(c[i], t)) { const x = c[i]; c[i] = c[a]; c[a++] = x; }
      c[hi - 1] = c[a]; c[a] = t;
      return a;
    };
    const selectTop = (c, n, k) => {
      let lo = 0, hi = n;
      for (;;) { const a = split(c, lo, hi); if (a === k || a + 1 === k) return; if (k < a) hi = a; else lo = a + 1; }
    };
    const nucleus = (c, n, need) => {
      let lo = 0, hi = n;
      while (hi - lo > 1) {
        const a = split(c, lo, hi);
        let b = 0;
        for (let i = lo; i < a; i++) b += c[i][2];
        if (b >= need && a > lo) hi = a;
        else if (b + c[a][2] >= need) return a + 1;
        else { need -= b + c[a][2]; lo = a + 1; if (lo === hi) return hi; }
      }
      return hi;
    };
    const sample = (z, ok, T, rng) => {
      const c = [];
      let best = 0;
      for (let i = 0; i < V; i++) if (ok[i]) { c.push([z[i], i, 0]); if (before(c[c.length - 1], c[best])) best = c.length - 1; }
      const top = c[best];
      if (T === 0) return top[1];
      let n = c.length;
      if (topK > 0 && topK < n) { selectTop(c, n, topK); n = topK; }
      let total = 0;
      for (let i = 0; i < n; i++) { c[i][2] = Math.exp((c[i][0] - top[0]) / T); total += c[i][2]; }
      if (Math.fround(topP) < 1) {
        n = nucleus(c, n, Math.fround(topP) * total);
        total = 0;
        for (let i = 0; i < n; i++) total += c[i][2];
      }
      const u = Number(BigInt.asUintN(64, lib.x.attn_rng_next(rng)) >> 11n) * 2 ** -53 * total;
      let acc = 0;
      for (let i = 0; i < n; i++) { acc += c[i][2]; if (u < acc) return c[i][1]; }
      return c[n - 1][1];
    };
    let m = 0, dec = 0, poem = [], ready = null;
    // the checkpoint into the library's parameter block: wte, wpe, each layer's 16 pieces, ln_f
    const loadModel = () => {
      const bytes = Uint8Array.from(atob(ATTN_POEM_MODEL_BASE64), (ch) => ch.charCodeAt(0));
      const hlen = Number(new DataView(bytes.buffer).getBigUint64(0, true));
      const head = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + hlen)));
      const tensor = (name) => {
        const [b, e] = head[name].data_offsets;
        return new Float32Array(bytes.buffer.slice(8 + hlen + b, 8 + hlen + e));
      };
      const n = V * d + nCtx * d + nLayers * (4 * d * d + 2 * d * ff() + 9 * d + ff()) + 2 * d;
      const params = s.floats(n), P = new Float32Array(lib.heap, params, n);
      let at = 0;
      const put1 = (a) => { P.set(a, at); at += a.length; };
      put1(tensor("wte.weight"));
      put1(tensor("wpe.weight"));
      for (let l = 0; l < nLayers; l++) {
        const t = (k) => tensor(`h.${l}.${k}`);
        const w = t("attn.c_attn.weight"), b = t("attn.c_attn.bias");
        const part = (k) => { const q = new Float32Array(d * d); for (let r = 0; r < d; r++) q.set(w.subarray(3 * d * r + k * d, 3 * d * r + (k + 1) * d), d * r); return q; };
        put1(t("ln_1.weight")); put1(t("ln_1.bias"));
        for (let k = 0; k < 3; k++) { put1(part(k)); put1(b.subarray(k * d, (k + 1) * d)); }
        put1(t("attn.c_proj.weight")); put1(t("attn.c_proj.bias"));
        put1(t("ln_2.weight")); put1(t("ln_2.bias"));
        put1(t("mlp.c_fc.weight")); put1(t("mlp.c_fc.bias"));
        put1(t("mlp.c_proj.weight")); put1(t("mlp.c_proj.bias"));
      }
      put1(tensor("ln_f.weight"));
      put1(tensor("ln_f.bias"));
      const cfg = s.alloc(72);
      new BigUint64Array(lib.heap, cfg, 7).set(config.slice(0, 7).map((v) => BigInt(v)));
      new Int32Array(lib.heap, cfg + 56, 4).set(config.slice(7));
      m = s.alloc(104);
      lib.call("gpt_bind", m, cfg, params, n);
      dec = s.alloc(64);
    };
    function ff() { return config[4]; }
    // attn-poet write: a newline, then the start, then the model's characters in the form's layout
    const write = () => using(lib, (sc) => {
      const [len, lines] = forms[panel.querySelector("[name=form]").value];
      const T = Math.fround(num(panel, "temperature")), seed = BigInt(Math.max(0, Math.floor(num(panel, "seed"))));
      if (!(T >= 0 && T <= 10)) throw new LiveError("温度要在 0 到 10 之间");
      const start = [...panel.querySelector("[name=start]").value.trim()];
      const total = lines * (len + 1);
      lib.x.attn_gpt_decoder_free(dec);
      lib.call("gpt_decoder_init", dec, m);
      const logits = sc.floats(V), probs = sc.floats(V), rng = sc.alloc(8);
      lib.call("rng_seed", rng, seed);
      poem = [];
      const used = [], seen = new Set(), R = Math.fround(penalty);
      let id = index.get("\n"), rhyme = 0;
      lib.call("gpt_step", dec, id, logits);
      for (let k = 0; k < total; k++) {
        const pos = k % (len + 1), line = Math.floor(k / (len + 1));
        const atRhyme = pos === len - 1 && line % 2 === 1;
        let ok = pos === len ? (line % 2 === 0 ? comma : stops) : han;
        if (k < start.length) {
          id = index.get(start[k]);
          if (id === undefined || !ok[id]) throw new LiveError(`开头的第 ${k + 1} 个字不在词表里，或者不合这个体裁的格式`);
        } else {
          if (rhyme > 0 && atRhyme) {
            const same = ok.map((a, i) => a && zhe[i] === rhyme);
            if (same.some((a) => a)) ok = same;
          }
          const z = Float32Array.from(new Float32Array(lib.heap, logits, V));
          if (R !== 1) for (const i of used) z[i] = z[i] > 0 ? z[i] / R : z[i] * R;
          id = sample(z, ok, T, rng);
        }
        if (rhyme === 0 && atRhyme) rhyme = zhe[id];
        if (han[id] && !seen.has(id)) { seen.add(id); used.push(id); }
        // the model's own probability of this character (softmax of the plain scores)
        new Float32Array(lib.heap, probs, V).set(new Float32Array(lib.heap, logits, V));
        lib.call("softmax", probs, V);
        poem.push({ ch: vocab[id], id, p: new Float32Array(lib.heap, probs, V)[id] });
        if (k + 1 < total) lib.call("gpt_step", dec, id, logits);
      }
      showPoem();
    });
    const showPoem = () => {
      poemBox.replaceChildren(...poem.map((c, k) => {
        const span = el("span", { tabindex: 0, "data-at": k, text: c.ch, title: `第 ${k} 个字` });
        const pick = () => { const sel = panel.querySelector("[name=at]"); sel.value = String(k); sel.dispatchEvent(new Event("change", { bubbles: true })); };
        span.addEventListener("mouseenter", pick);
        span.addEventListener("focus", pick);
        return span;
      }));
      probBox.replaceChildren(table("模型给每个字的概率（读了前面的字以后）", poem.map((c) => c.ch), ["概率"], (i, j) => ({ key: `p-${j}` }), ""));
      poem.forEach((c, k) => put(probBox, `p-${k}`, c.p, c.p, 3));
      showHeads();
    };
    // poet_attention up to one layer: the embedding, the blocks below it, its layer norm, each head
    const showHeads = () => using(lib, (sc) => {
      if (poem.length === 0) return;
      const at = Math.min(poem.length - 1, Number(panel.querySelector("[name=at]").value));
      const l = Number(panel.querySelector("[name=layer]").value);
      const ids = [index.get("\n"), ...poem.map((c) => c.id)], N = ids.length;
      const tok = sc.alloc(4 * N), x = sc.floats(N * d), a = sc.floats(N * d), pat = sc.floats(N * N);
      new Int32Array(lib.heap, tok, N).set(ids);
      lib.call("gpt_embed", m, tok, N, 0, x);
      for (let k = 0; k < l; k++) lib.call("gpt_block", m, k, x, N);
      const layer = sc.word(m, 22) + 64 * l, L = (i) => sc.word(layer, i);
      lib.call("layernorm", x, L(0), L(1), a, N, d, 1e-5);
      const w = sc.words([d, H, dh, L(2), L(4), L(6), L(8), L(3), L(5), L(7), L(9)]);
      const keys = ["↵", ...poem.slice(0, at + 1).map((c) => c.ch)];
      heatBox.replaceChildren(table(`第 ${l} 层的四个头：第 ${at} 个字“${poem[at].ch}”看各个位置的权重`, keys,
        [...Array(H).keys()].map((h) => `头 ${h}`), (h, j) => ({ key: `w-${h}-${j}` }), "头＼键"));
      poemBox.querySelectorAll("span").forEach((e) => e.classList.toggle("live-at", Number(e.dataset.at) === at));
      for (let h = 0; h < H; h++) {
        lib.call("mha_pattern", w, a, N, a, N, 0, 1, h, pat);
        const row = sc.read(pat + 4 * (at + 1) * N, at + 2);
        row.forEach((v, j) => put(heatBox, `w-${h}-${j}`, v, v, 2));
      }
    });
    const busy = (on) => { if (on) fig.setAttribute("data-busy", ""); else fig.removeAttribute("data-busy"); };
    const run = (f) => {
      busy(true);
      ready.then(() => {
        try { panel.classList.remove("live-error"); panel.status.textContent = ""; f(); } catch (e) {
          if (!(e instanceof LiveError)) throw e;
          panel.classList.add("live-error");
          panel.status.textContent = e.message;
        }
      }).finally(() => busy(false));
    };
    panel.querySelector("[name=write]").addEventListener("click", () => run(write));
    look.addEventListener("change", () => run(showHeads));
    busy(true);
    ready = load("poem-model.js").then(loadModel);
    run(write);
  };

  // ------------------------------------------------------------ start
  function start() {
    if (typeof ATTN_WASM_BASE64 !== "string" || typeof ATTN_LIVE_DATA !== "object") return;
    const bytes = Uint8Array.from(atob(ATTN_WASM_BASE64), (ch) => ch.charCodeAt(0));
    return WebAssembly.instantiate(bytes, {}).then(({ instance }) => {
      const lib = new Lib(instance.exports);
      for (const fig of figures) {
        const name = fig.getAttribute("data-live"), make = FIGURES[name], data = ATTN_LIVE_DATA[name];
        if (!make || !data) {
          console.warn(`live figure ${name}: no code or no data`);
          continue;
        }
        make(fig, lib, data);
        fig.setAttribute("data-live-state", "ready");
      }
      document.documentElement.setAttribute("data-live-ms", (performance.now() - started).toFixed(0));
    });
  }
  Promise.all([load("attn-wasm.js"), load("live-data.js")]).then(start).catch((e) => {
    console.warn("live figures unavailable:", e.message);
  });
})();
