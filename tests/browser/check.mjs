// tests/browser/check.mjs HTML_DIR SHOT_DIR [LIVE.json] — the HTML book as a reader sees it, in Debian's
// Chromium (headless, driven by playwright-core): every page at desktop and phone widths, light
// and dark. With ATTN_SCREENSHOTS=1 it also saves a full-page screenshot of every page in each
// of the four settings into SHOT_DIR (slow; not part of the test); ATTN_TIMING=1 prints how long
// each page and each behaviour check took.
//
// Read from the files (once, in node):
//   every internal link points at an existing file and anchor; no link or resource leaves the
//   book; no raw TeX in page titles, the side bar, image alt text or the search index; every
//   chapter heading says 第 N 章 (附录 X); no "图 图 1.1"; an inline formula followed by 。，、
//   is kept on one line with it; parentheses stretch only where the TeX says \left; heat-map
//   figures ask for sharp cells.
// Checked in the browser, on every page at each width:
//   no console error, no uncaught exception, no request off the machine, every image loads;
//   no math left unrendered; list markers visible; display formulas centred with space around;
//   no formula-and-punctuation group broken over lines; no number in a table broken over lines;
//   no page wider than the phone; the top bar one row; the side bar with the whole book and the
//   current chapter; a ¶ link on each heading; a copy button on each code chunk; code comments
//   not in fake italic.
//   the back matter folded (each section after the first “## … {.backmatter}” a closed <details>
//   whose summary is its heading; nothing before it folded); 常见误解 boxes titled; a test reference
//   reads 测试 N.k.
// And once each: the current section marked while scrolling; the side bar opens and closes;
// the top bar leaves a phone's screen while reading and comes back; ← → and /; search (heading
// hits first, marks, ↑ ↓ Enter, says when results were cut); the copy button copies; a link to
// a chunk lands below the top bar and highlights it; dark theme colours readable (text, code,
// links) and figures on a light card; the print style hides the bars; the back matter: a link
// within the page, followed to a chunk in a folded section, opens it and shows the chunk (and
// does so again after the section is closed), a page opened at an address inside a folded
// section opens it, and printing opens every section.
// With LIVE.json (build/book/live-expected.json; or ATTN_LIVE_EXPECTED), every live figure is driven on its page, which
// is loaded for the checks above anyway, and its numbers compared with the native library's
// (live-lib.mjs; live.mjs does the same alone and can photograph the figures).
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { liveSetup, liveReady, driveFigure, within, watchErrors } from "./live-lib.mjs";

const started = Date.now();
const [htmlDir, shotDir, liveArg] = process.argv.slice(2);
const liveFile = liveArg || process.env.ATTN_LIVE_EXPECTED;   // CTest sets it when the live figures are built
if (!htmlDir || !shotDir) {
  console.error("usage: node tests/browser/check.mjs HTML_DIR SHOT_DIR [LIVE.json]");
  process.exit(2);
}
const root = path.resolve(htmlDir);
const shots = process.env.ATTN_SCREENSHOTS === "1";
if (shots) fs.mkdirSync(shotDir, { recursive: true });
// the reader's edition's pages in HTML_DIR, the source companion's in HTML_DIR/source (named
// source/NAME.html here); each edition's side bar lists its own chapters
const readerPages = fs.readdirSync(root).filter((f) => f.endsWith(".html")).sort();
const sourcePages = fs.existsSync(path.join(root, "source"))
  ? fs.readdirSync(path.join(root, "source")).filter((f) => f.endsWith(".html")).sort().map((f) => "source/" + f) : [];
const pages = [...readerPages, ...sourcePages];
const isSource = (name) => name.startsWith("source/");
const base = (name) => name.replace(/^source\//, "");
const chapters = readerPages.filter((p) => /^(\d\d|[A-Z])-/.test(p));
const sourceChapters = sourcePages.map(base).filter((p) => /^(\d\d|[A-Z])-/.test(p));
const failures = [];
const fail = (where, what) => failures.push(`${where}: ${what}`);
const live = liveFile ? liveSetup(root, liveFile, fail) : null;
const liveTimes = [];
let liveCompared = 0;
// a page of the book, with an optional #fragment (which pathToFileURL would escape as %23)
const url = (name) => {
  const [file, hash] = name.split("#");
  return pathToFileURL(path.join(root, file)).href + (hash === undefined ? "" : "#" + hash);
};

// ---------------------------------------------------------------- the files, read once
const RAW_TEX = /\\[a-zA-Z]+|\$[^$\s]|_\{|\^\{|\b[a-zA-Z]_[a-zA-Z0-9]\b/;
const text = Object.fromEntries(pages.map((p) => [p, fs.readFileSync(path.join(root, p), "utf8")]));
const ids = new Map();
function idsOf(file) {
  if (!ids.has(file)) {
    let t = text[path.relative(root, file).split(path.sep).join("/")];
    if (t === undefined && fs.existsSync(file) && file.endsWith(".html")) t = fs.readFileSync(file, "utf8");
    ids.set(file, t === undefined ? (fs.existsSync(file) ? new Set() : null)
                                  : new Set([...t.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
  }
  return ids.get(file);
}
const unescape = (s) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
const plain = (s) => unescape(s.replace(/<annotation[^>]*>[\s\S]*?<\/annotation>/g, "").replace(/<[^>]+>/g, "")).trim();
let links = 0;
const backPages = [];           // the pages with back matter
for (const name of pages) {
  const t = text[name];
  const body = t.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, "");
  for (const m of body.matchAll(/\s(href|src)="([^"]*)"/g)) {
    const ref = unescape(m[2]);
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
      // only the bibliography points outside: each entry's DOI or address
      if (!(name === "references.html" && m[1] === "href" && /^https:\/\//.test(ref))) fail(name, `${m[1]} leaves the book: ${ref}`);
      continue;
    }
    const [file, hash] = ref.split("#");
    const target = file ? path.resolve(path.dirname(path.join(root, name)), decodeURIComponent(file)) : path.join(root, name);
    if (!path.relative(root, target).split(path.sep).every((d) => d !== "..")) fail(name, `${m[1]} leaves the site's folder: ${ref}`);
    const have = idsOf(target);
    links++;
    if (have === null) fail(name, `broken link: ${ref}`);
    else if (hash && target.endsWith(".html") && !have.has(decodeURIComponent(hash))) fail(name, `missing anchor: ${ref}`);
  }
  const title = plain(t.match(/<title>([\s\S]*?)<\/title>/)[1]);
  if (RAW_TEX.test(title)) fail(name, `raw TeX in the page title: ${title}`);
  for (const m of t.matchAll(/\salt="([^"]*)"/g)) if (RAW_TEX.test(unescape(m[1]))) fail(name, `raw TeX in alt text: ${m[1]}`);
  const side = t.match(/<nav id="sidebar"[\s\S]*?<\/nav>/);
  if (!side) fail(name, "no side bar");
  else {
    const entries = plain(side[0].replace(/<div id="TOC"[\s\S]*?<\/div>/, ""));
    if (RAW_TEX.test(entries)) fail(name, `raw TeX in the side bar: ${entries.match(RAW_TEX)[0]}`);
    for (const ch of isSource(name) ? sourceChapters : chapters) if (!side[0].includes(`href="${ch}"`)) fail(name, `the side bar lacks ${ch}`);
    if (!isSource(name) && !side[0].includes('href="source/index.html"')) fail(name, "the side bar does not lead to the source companion");
    if (isSource(name) && !/<li class="[^"]*\bsrc\b/.test(side[0])) fail(name, "the side bar does not mark the companion's pages");
  }
  if (/图\s*(<[^>]+>\s*)*图\s*\d/.test(t)) fail(name, "“图 图” in the text");
  // an inline formula directly followed by 。，、 must sit in a no-break group with it
  for (const m of t.matchAll(/(<span class="nobr">(?:<span class="widemath">)?)?<math display="inline"(?:(?!<\/math>)[\s\S])*<\/math>(?:<\/span>)?([。，、])/g)) {
    if (!m[1]) { fail(name, `formula then “${m[2]}” not kept together`); break; }
  }
  for (const m of t.matchAll(/<math\b[\s\S]*?<\/math>/g)) {
    if (m[0].includes('stretchy="true"') && !/\\(left|begin|[bB]ig)/.test(m[0])) { fail(name, "parentheses made stretchy without \\left"); break; }
  }
  if (/^(\d\d|[A-Z])-/.test(base(name)) && !base(name).startsWith("00-")) {
    const h1 = t.match(/<h1[^>]*>([\s\S]*?)<\/h1>/);
    if (!h1 || !/^(第 \d+ 章|附录 [A-Z])/.test(plain(h1[1]))) fail(name, "the chapter heading does not say 第 N 章 / 附录 X");
  }
  if (!(isSource(name) ? /href="\.\.\/attn-book-source\.pdf"/ : /href="attn-book\.pdf"/).test(t)) fail(name, "no link to the edition's PDF");
  if (name === "source/03-attention.html" && !t.includes('class="nwchunk nwtest"')) fail(name, "no test chunk");
  if (!isSource(name) && /class="nwchunk nwtest"|class="bmstart"|〈测试：/.test(t)) fail(name, "the reader's page prints a test chunk or back matter");
  if (!(isSource(name) ? /href="\.\.\/references\.html/ : /href="references\.html/).test(t)) fail(name, "no link to 参考文献 (references.html)");
  // headings numbered as in the PDF (3.2 标题)
  if (/^(0[1-9]|1\d)-/.test(base(name)) && !/<h2 [^>]*><span class="secno">\d+\.1<\/span>/.test(t)) fail(name, "the sections are not numbered (N.1 …)");
  // back matter: from the first back-matter heading on, every h2 is one, inside a <details>
  const h2s = [...t.matchAll(/(<details class="backmatter"><summary>\s*)?<h2\b([^>]*)>/g)];
  const first = h2s.findIndex((m) => /class="[^"]*\bbackmatter\b/.test(m[2]));
  if (first >= 0) {
    backPages.push(name);
    for (const m of h2s.slice(first)) {
      if (!/class="[^"]*\bbackmatter\b/.test(m[2])) fail(name, `a heading after the back matter's first is not back matter: ${m[0]}`);
      else if (!m[1]) fail(name, `a back-matter heading is not the summary of a <details>: ${m[0]}`);
    }
    if (!t.includes('<p class="bmstart"')) fail(name, "the back matter is not marked 后记");
  }
  for (const m of t.matchAll(/<div class="misconception">\s*(<p>[\s\S]*?<\/p>)/g)) {
    if (!/<span class="mctitle">常见误解<\/span>/.test(m[1])) fail(name, "a 常见误解 box without its title");
  }
  for (const m of t.matchAll(/class="nwtestref">([\s\S]*?)<\/a>/g)) {
    if (!/^测试\s[0-9A-Z]+\.\d+$/.test(plain(m[1]))) fail(name, `a test reference reads “${plain(m[1])}”, not 测试 N.k`);
  }
}
{
  const js = fs.readFileSync(path.join(root, "search-index.js"), "utf8");
  const index = JSON.parse(js.replace(/^window\.BOOK_SEARCH_INDEX = /, "").replace(/;\s*$/, ""));
  const bad = index.find((e) => RAW_TEX.test(e.t) || RAW_TEX.test(e.h));
  if (bad) fail("search-index.js", `raw TeX in a title or heading: ${bad.t} › ${bad.h}`);
}
for (const f of fs.readdirSync(path.join(root, "figures")).filter((f) => f.endsWith(".svg"))) {
  const svg = fs.readFileSync(path.join(root, "figures", f), "utf8");
  for (const m of svg.matchAll(/<image\b[^>]*>/g)) {
    if (!/image-rendering:\s*(pixelated|optimizeSpeed|crisp-edges)/.test(m[0])) { fail(f, "a heat map smoothed into a blur (no image-rendering: pixelated)"); break; }
  }
}

// ---------------------------------------------------------------- the browser
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"],
});
const settings = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844, isMobile: true, hasTouch: true },
];
const contexts = {};
for (const s of settings) {
  contexts[s.name] = await browser.newContext({ viewport: { width: s.width, height: s.height },
    isMobile: !!s.isMobile, hasTouch: !!s.hasTouch, deviceScaleFactor: 1 });
  await contexts[s.name].route(/^(?!file:)/, (r) => { fail(s.name, `request leaves the machine: ${r.request().url()}`); r.abort(); });
}

async function open(setting, name) {
  const where = `${setting} ${name}`;
  const page = await contexts[setting].newPage();
  watchErrors(page, where, fail);
  page.on("requestfailed", (r) => { if (r.url().startsWith("file:")) fail(where, `request failed: ${r.url()}`); });
  await page.goto(url(name), { waitUntil: "load" });
  return page;
}

// what every page must show, in one evaluate
function pageChecks(phone) {
  const out = [];
  const main = document.querySelector("main");
  document.querySelectorAll("img").forEach((i) => { if (!i.complete || i.naturalWidth === 0) out.push(`image does not load: ${i.src}`); });
  document.querySelectorAll("math").forEach((m) => {
    const r = m.getBoundingClientRect();
    if (m.getClientRects().length && (r.width === 0 || r.height === 0)) out.push(`empty math: ${m.textContent.slice(0, 50)}`);
  });
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest("pre, code, math, script")) continue;
    if (/\$[^$\s][^$]*\$|\\(frac|sqrt|mathbb|begin|left)\b/.test(n.textContent)) { out.push(`raw TeX in text: ${n.textContent.slice(0, 50)}`); break; }
  }
  // list markers: not clipped by an overflow box, and room for them to the left
  for (const li of main.querySelectorAll("ol > li, ul > li")) {
    const cs = getComputedStyle(li);
    if (cs.display !== "list-item" || cs.listStyleType === "none") continue;
    if (cs.overflowX !== "visible") { out.push(`list item clips its marker (overflow-x: ${cs.overflowX})`); break; }
    let clip = li.parentElement;
    while (clip && clip !== main && getComputedStyle(clip).overflowX === "visible") clip = clip.parentElement;
    const left = clip ? clip.getBoundingClientRect().left : 0;
    if (li.getBoundingClientRect().left - left < 14) { out.push("no room for a list marker"); break; }
  }
  // display formulas: Chromium's block math (centred), with space above and below
  for (const m of main.querySelectorAll('math[display="block"]')) {
    if (m.getClientRects().length === 0) continue;
    const cs = getComputedStyle(m);
    const box = m.getBoundingClientRect(), inner = m.firstElementChild.getBoundingClientRect();
    const off = (inner.left + inner.right) / 2 - (box.left + box.right) / 2;
    if (!/math/.test(cs.display) || (inner.width < box.width - 4 && Math.abs(off) > 2)) {
      out.push(`display formula not centred (display: ${cs.display}, ${off.toFixed(0)}px off)`); break;
    }
    const holder = m.closest(".mathblock");
    if (!holder || parseFloat(getComputedStyle(holder).marginTop) < 8) { out.push("display formula without space above"); break; }
  }
  // formula-and-punctuation groups and table numbers stay on one line
  for (const s of main.querySelectorAll(".nobr")) {
    if (s.getClientRects().length > 1) { out.push(`formula and punctuation broken over lines: ${s.textContent.slice(0, 30)}`); break; }
  }
  for (const td of main.querySelectorAll("td, th")) {
    const t = td.textContent.trim();
    if (!/^[-−+]?[\d.,]+(\s*[%×]\s*[\d.,^]*)?$/.test(t) || t.length < 2 || td.getClientRects().length === 0) continue;
    const r = document.createRange();
    r.selectNodeContents(td);
    const tops = [...r.getClientRects()].filter((x) => x.width > 0).map((x) => x.top);
    if (Math.max(...tops) - Math.min(...tops) > 4) { out.push(`number broken over lines in a table: ${t}`); break; }
  }
  const bar = document.getElementById("topbar");
  if (!bar || bar.getBoundingClientRect().height > 56) out.push(`the top bar is ${bar && bar.getBoundingClientRect().height}px high (more than one row)`);
  if (phone && document.documentElement.scrollWidth > window.innerWidth + 1)
    out.push(`page is ${document.documentElement.scrollWidth - window.innerWidth}px wider than the phone`);
  const side = document.getElementById("sidebar");
  if (!side || side.querySelectorAll(".booktoc > li").length < 14) out.push("side bar missing or incomplete");
  const chapter = /^(\d\d|[A-Z])-/.test(location.pathname.split("/").pop());
  if (chapter && !side.querySelector("li.current .pagetoc a")) out.push("side bar without the current chapter's sections");
  for (const h of main.querySelectorAll("h1[id], h2[id], h3[id]")) {
    const a = h.querySelector("a.hlink");
    if (!a || a.getAttribute("href") !== "#" + h.id) { out.push(`heading without a ¶ link: ${h.id}`); break; }
  }
  for (const t of main.querySelectorAll(".nwtest")) {
    const back = t.closest("details.backmatter");
    if (back) {                     // in the back matter: the section is folded, the chunk is not
      if (back.open && !location.hash) { out.push(`back-matter section with ${t.id} not folded`); break; }
      continue;
    }
    const d = t.querySelector("details"), sum = t.querySelector("summary");
    if (!d || d.open && !location.hash) { out.push(`test chunk ${t.id} not folded`); break; }
    if (!sum || !/〈.+〉/.test(sum.textContent)) { out.push(`test chunk ${t.id}: the summary lacks its name`); break; }
  }
  const backs = main.querySelectorAll("details.backmatter");
  if (backs.length) {
    const firstBack = backs[0];
    for (const h of main.querySelectorAll("h1, h2")) {
      if (firstBack.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_PRECEDING && h.closest("details")) {
        out.push(`the reading path is folded: ${h.textContent.slice(0, 30)}`); break;
      }
    }
    for (const d of backs) {
      const s = d.querySelector(":scope > summary");
      if (!s || !s.querySelector("h2") || s.getBoundingClientRect().height === 0) { out.push("a back-matter section without its heading as summary"); break; }
    }
  }
  const code = main.querySelectorAll("div.sourceCode").length;
  const buttons = main.querySelectorAll("button.copybtn").length;
  if (code !== buttons) out.push(`${code} code boxes but ${buttons} copy buttons`);
  const co = main.querySelector("code span.co");
  if (co && getComputedStyle(co).fontSynthesisStyle !== "none") out.push("code comments may be set in fake italic");
  return out;
}

// runs fn over items, n at a time
async function pool(items, n, fn) {
  const queue = [...items];
  await Promise.all(Array.from({ length: n }, async () => {
    while (queue.length) await fn(queue.shift());
  }));
}

// Each page is loaded once, at the desktop width in the light theme, then checked again after
// switching to the dark theme and to the phone's width (a switch restyles the page without
// loading it again, which keeps this test fast). The dark theme changes only colours, so its
// colours are checked on a few pages, and all pages are dark only when screenshots are asked for.
const darkPages = ["index.html", "03-attention.html", "06-cross.html"];
async function checkPage(name) {
  const t0 = Date.now();
  const page = await open("desktop", name);
  const t1 = Date.now();
  // the live figures on this page, driven at the desktop width before the page is restyled
  const figures = live ? [...live.figurePage].filter(([, file]) => file === name).map(([fig]) => fig) : [];
  if (figures.length) {
    const { afterLoad, readyMs } = await liveReady(page, `live ${name}`, fail);
    liveTimes.push({ afterLoad, readyMs });
    for (const fig of figures) {
      const n = await driveFigure(page, fig, live.checks, fail);
      liveCompared += n;
    }
  }
  const dark = shots || darkPages.includes(name);
  for (const [setting, width, scheme] of [["desktop", 1280, "light"], ["desktop-dark", 1280, "dark"],
                                           ["phone", 390, "light"], ["phone-dark", 390, "dark"]]) {
    if (scheme === "dark" && !dark) continue;
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await page.emulateMedia({ colorScheme: scheme });
    const where = `${setting} ${name}`;
    (await page.evaluate(pageChecks, width < 500)).forEach((m) => fail(where, m));
    if (darkPages.includes(name)) {
      const r = await page.evaluate(contrastCheck);
      r.out.forEach((m) => fail(where, m));
      if (scheme === "dark" && r.bodyBg > 0.05) fail(where, "the page is not dark in the dark theme");
      if (scheme === "light" && r.bodyBg < 0.9) fail(where, "the page is not light in the light theme");
      if (scheme === "dark" && r.fig < 0.8) fail(where, "a figure is not on a light card in the dark theme");
    }
    if (shots) await page.screenshot({ path: path.join(shotDir, `${setting}-${name.replace(/\.html$/, "")}.png`), fullPage: true });
  }
  if (process.env.ATTN_TIMING) console.log(`${name}: load ${t1 - t0} ms, checks ${Date.now() - t1} ms`);
  await page.close();
}

// ---------------------------------------------------------------- behaviour, once each
const once = [];
let backNote = "";
const test = (name, fn) => once.push([name, fn]);
// wait until cond(arg) holds in the page, at most 3 s, then go on (the check that follows says
// whether it held). The page's scroll handlers run in animation frames, which a headless browser
// with several pages open does not always deliver promptly; asking every 30 ms for the condition
// itself is both quicker and sturdier than waiting for frames.
const until = (page, cond, arg) => page.waitForFunction(cond, arg, { polling: 30, timeout: 3000 }).catch(() => {});
// a page that has just navigated is closed only once the new page has loaded: closing it half-way
// through loading a file can leave the browser unable to open another tab
const closeLoaded = async (page) => { await page.waitForLoadState("load"); await page.close(); };

test("keys", async () => {
  const page = await open("desktop", "00-preface.html");
  await page.keyboard.press("/");
  if (!(await page.evaluate(() => document.activeElement && document.activeElement.id === "search"))) fail("keys", "/ does not focus the search box");
  await page.keyboard.press("Escape");
  await page.evaluate(() => document.activeElement.blur());
  await Promise.all([page.waitForURL(/index\.html$/, { timeout: 5000 }), page.keyboard.press("ArrowLeft")]);
  await Promise.all([page.waitForURL(/00-preface\.html$/, { timeout: 5000 }), page.keyboard.press("ArrowRight")]);
  await closeLoaded(page);
});

test("side bar, targets, print", async () => {
  const page = await open("desktop", "06-cross.html");
  const heads = await page.$$eval("main h2[id]", (hs) => hs.map((h) => h.id));
  const pick = heads[Math.min(3, heads.length - 1)];
  await page.evaluate((id) => document.getElementById(id).scrollIntoView(), pick);
  await until(page, (id) => document.querySelector(".pagetoc a.active")?.getAttribute("href") === "#" + id, pick);
  const active = await page.$eval(".pagetoc a.active", (a) => a.getAttribute("href")).catch(() => null);
  if (active !== "#" + pick) fail("side bar", `scrolled to #${pick}, marked ${active}`);
  await page.click("#sidetoggle", { force: true });
  if (await page.isVisible("#sidebar")) fail("side bar", "the ☰ button does not close it");
  await page.click("#sidetoggle", { force: true });
  if (!(await page.isVisible("#sidebar"))) fail("side bar", "the ☰ button does not open it again");
  // a link to a chunk: it lands below the top bar and is highlighted
  const chunk = await page.$eval("main .nwchunk:not(.nwtest)", (c) => c.id);
  await page.evaluate((id) => { location.hash = id; }, chunk);
  await until(page, (id) => document.getElementById(id).getBoundingClientRect().top >=
                            document.getElementById("topbar").getBoundingClientRect().bottom, chunk);
  const spot = await page.evaluate((id) => {
    const el = document.getElementById(id);
    return { top: el.getBoundingClientRect().top, bar: document.getElementById("topbar").getBoundingClientRect().bottom,
             bg: getComputedStyle(el).backgroundColor, normal: getComputedStyle(document.querySelector(`.nwchunk:not([id="${id}"])`)).backgroundColor };
  }, chunk);
  if (spot.top < spot.bar) fail("target", `#${chunk} hides under the top bar (${spot.top} < ${spot.bar})`);
  if (spot.bg === spot.normal) fail("target", `#${chunk} is not highlighted`);
  // a link into a folded test chunk opens it
  // (a test chunk in the reading path is folded on its own; in the back matter its section is)
  const folded = await page.$eval("main .nwtest details", (d) => d.closest(".nwtest").id).catch(() => null);
  if (folded) {
    await page.evaluate((id) => { location.hash = id; }, folded);
    await until(page, (id) => document.querySelector(`[id="${id}"] details`).open, folded);
    if (!(await page.$eval(`[id="${folded}"] details`, (d) => d.open))) fail("test chunks", "a link to a folded test chunk does not open it");
  }
  // print: bars hidden, folded chunks open
  await page.emulateMedia({ media: "print" });
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  if (await page.isVisible("#topbar") || await page.isVisible("#sidebar")) fail("print", "the bars are printed");
  if (await page.$$eval("main details:not([open])", (d) => d.length)) fail("print", "folded test chunks stay folded in print");
  await page.close();
});

test("back matter", async () => {
  if (backPages.length === 0) { backNote = "no chapter has back matter yet"; return; }
  const name = backPages.includes("source/03-attention.html") ? "source/03-attention.html" : backPages[0];
  const page = await open("desktop", name);
  // a chunk in a folded section, and a link on this page to it from outside that section
  const pick = await page.evaluate(() => {
    for (const c of document.querySelectorAll("details.backmatter .nwchunk[id]")) {
      const d = c.closest("details.backmatter");
      const a = [...document.querySelectorAll(`main a[href$="#${c.id}"]`)].find((x) => !d.contains(x) && x.getClientRects().length);
      if (a && !d.open) {
        a.setAttribute("data-pick", "1");
        return c.id;
      }
    }
    return null;
  });
  if (!pick) { fail("back matter", `${name}: no link leads into a folded back-matter section`); await page.close(); return; }
  const shown = (id) => page.evaluate((id) => {
    const el = document.getElementById(id), d = el.closest("details.backmatter");
    const r = el.getBoundingClientRect();
    return { open: d.open, visible: r.height > 0 && r.top < window.innerHeight && r.bottom > 0 };
  }, id);
  await page.click("a[data-pick]");
  await until(page, (id) => document.getElementById(id).closest("details.backmatter").open, pick);
  let r = await shown(pick);
  if (!r.open || !r.visible) fail("back matter", `${name}: following a link to #${pick} leaves its section ${r.open ? "open but the chunk off screen" : "folded"}`);
  // closed again by the reader, the same link opens it again (the address does not change)
  await page.evaluate((id) => { document.getElementById(id).closest("details.backmatter").open = false; window.scrollTo(0, 0); }, pick);
  await page.click("a[data-pick]");
  await until(page, (id) => document.getElementById(id).closest("details.backmatter").open, pick);
  r = await shown(pick);
  if (!r.open) fail("back matter", `${name}: the same link, followed again, does not open the section`);
  // printing opens every section
  await page.emulateMedia({ media: "print" });
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  if (await page.$$eval("main details.backmatter:not([open])", (d) => d.length)) fail("back matter", "printing leaves sections folded");
  await page.close();
  // arriving from elsewhere (an index, a search hit, another chapter) at an address inside a section
  const fresh = await open("phone", `${name}#${pick}`);
  r = await fresh.evaluate((id) => {
    const el = document.getElementById(id), d = el.closest("details.backmatter");
    const b = el.getBoundingClientRect();
    return { open: d.open, visible: b.top < window.innerHeight && b.bottom > 0 };
  }, pick);
  if (!r.open || !r.visible) fail("back matter", `${name}#${pick} opened from outside: the section is ${r.open ? "open but the chunk off screen" : "folded"}`);
  // a section's heading (what the contents and the search link to)
  const head = await fresh.$eval("details.backmatter summary h2", (h) => h.id);
  await fresh.evaluate(() => document.querySelectorAll("details.backmatter").forEach((d) => { d.open = false; }));
  await fresh.evaluate((id) => { location.hash = id; }, head);
  await until(fresh, (id) => document.getElementById(id).closest("details").open, head);
  if (!(await fresh.$eval(`[id="${head}"]`, (h) => h.closest("details").open))) fail("back matter", `a link to the heading #${head} does not open its section`);
  await fresh.close();
});

test("search", async () => {
  const page = await open("desktop", "index.html");
  await page.fill("#search", "softmax");
  const r = await page.evaluate(() => ({
    first: document.querySelector("#search-results li.hit a")?.textContent || "",
    marks: document.querySelectorAll("#search-results mark").length,
    note: document.querySelector("#search-results li.note")?.textContent || "",
  }));
  if (!/softmax/i.test(r.first)) fail("search", `the first hit for softmax is not a heading hit: ${r.first}`);
  if (r.marks === 0) fail("search", "matches are not marked");
  if (!/共 \d+ 处/.test(r.note)) fail("search", `does not say the list of softmax hits was cut: “${r.note}”`);
  await page.fill("#search", "attn_softmax");
  if ((await page.$$("#search-results li.hit")).length === 0) fail("search", "no result for attn_softmax");
  await page.fill("#search", "注意力");
  if ((await page.$$("#search-results li.hit")).length === 0) fail("search", "no result for 注意力");
  await page.fill("#search", "没有这样的词qqq");
  if (!/没有找到/.test(await page.textContent("#search-results"))) fail("search", "says nothing when nothing is found");
  await page.fill("#search", "掩码");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const sel = await page.$eval("#search-results li.sel a", (a) => a.getAttribute("href")).catch(() => null);
  const second = await page.$$eval("#search-results li.hit a", (as) => as[1] && as[1].getAttribute("href"));
  if (!sel || sel !== second) fail("search", "↓ ↓ does not select the second result");
  await page.keyboard.press("ArrowUp");
  // ↑ went back to the first result: Enter opens that one
  const first = await page.$eval("#search-results li.sel a", (a) => a.href).catch(() => null);
  const firstHit = await page.$eval("#search-results li.hit a", (a) => a.href);
  if (first !== firstHit) fail("search", "↑ does not go back to the first result");
  await Promise.all([page.waitForURL((u) => u.href === firstHit, { waitUntil: "commit" }).catch(() => fail("search", `Enter does not open the result ${firstHit}`)),
                     page.keyboard.press("Enter")]);
  if (shots) await page.screenshot({ path: path.join(shotDir, "desktop-search.png") });
  await closeLoaded(page);
});

test("copy button", async () => {
  await contexts.desktop.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await open("desktop", "01-mlp.html");
  const want = await page.$eval("main .nwchunk:not(.nwtest) pre", (p) => p.textContent);
  const button = "main .nwchunk:not(.nwtest) button.copybtn";
  await page.click(button);
  // the clipboard answers asynchronously; the button says so for 1.5 s
  await page.waitForFunction((b) => document.querySelector(b).textContent !== "复制", button, { polling: 50, timeout: 1400 })
    .catch(() => {});
  const said = await page.textContent(button);
  const got = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(clipboard: ${e.message})`);
  if (got !== want) fail("copy", `the clipboard holds ${JSON.stringify(got.slice(0, 40))}, not the chunk's code`);
  if (said !== "已复制") fail("copy", `the button says “${said}” after copying`);
  await page.close();
});

test("phone bar and drawer", async () => {
  const page = await open("phone", "06-cross.html");
  if (await page.isVisible("#sidebar")) fail("phone", "the side bar covers the text at first");
  await page.click("#sidetoggle", { force: true });
  if (!(await page.isVisible("#sidebar"))) fail("phone", "☰ does not open the side bar");
  await page.click("#sidetoggle", { force: true });
  await page.evaluate(() => window.scrollTo(0, 1500));
  await page.waitForTimeout(100);
  await page.evaluate(() => window.scrollTo(0, 1800));
  await until(page, () => document.getElementById("topbar").getBoundingClientRect().bottom <= 1);
  const away = await page.$eval("#topbar", (b) => b.getBoundingClientRect().bottom);
  if (away > 1) fail("phone", `the top bar stays on screen while reading (bottom at ${away}px)`);
  await page.evaluate(() => window.scrollTo(0, 1500));
  await until(page, () => document.getElementById("topbar").getBoundingClientRect().top >= -1);
  const back = await page.$eval("#topbar", (b) => b.getBoundingClientRect().top);
  if (back < -1) fail("phone", "the top bar does not come back when scrolling up");
  await page.close();
});

// contrast as WCAG defines it, from computed colours
function contrastCheck() {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = (c) => rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const bgOf = (el) => {
    for (; el; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor;
      if (!/rgba\(.*,\s*0\)$/.test(c) && c !== "transparent") return c;
    }
    return "rgb(255, 255, 255)";
  };
  const out = [];
  const sel = ["main p", "main a", "code span.kw", "code span.co", "code span.st", "code span.dv", "code span.dt",
               ".nwinfo", ".nwname", "h2", ".booktoc a"];
  for (const s of sel) {
    const el = document.querySelector(s);
    if (!el) continue;
    const a = lum(getComputedStyle(el).color), b = lum(bgOf(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) out.push(`${s}: contrast ${ratio.toFixed(2)} < 4.5`);
  }
  return { out, bodyBg: lum(getComputedStyle(document.body).backgroundColor),
           fig: document.querySelector("figure img") ? lum(getComputedStyle(document.querySelector("figure img")).backgroundColor === "rgba(0, 0, 0, 0)" ? "rgb(0,0,0)" : getComputedStyle(document.querySelector("figure img")).backgroundColor) : 1 };
}
// the behaviour checks first (they take longest), then the pages, four at a time
const work = [...once, ...pages.map((p) => [p, () => checkPage(p)])];
await pool(work, 4, async ([name, fn]) => {
  const t0 = Date.now();
  try { await within(90000, name, fn()); } catch (e) { fail(name, `${e.message.split("\n")[0]}`); }
  if (process.env.ATTN_TIMING) console.log(`${name}: ${Date.now() - t0} ms`);
});
await within(20000, "closing the browser", browser.close()).catch((e) => fail("browser", e.message));

for (const f of failures) console.error(f);
console.log(`browser: ${pages.length} pages at desktop and phone widths, ${shots ? "all" : darkPages.length} of them also dark, ` +
            `${once.length} behaviour checks, ${links} links; ` +
            (live ? `${live.figurePage.size} live figures, ${live.checks.length} checks, ${liveCompared} numbers compared ` +
                    `with the native library, attn.wasm ${live.wasmBytes} bytes, figures ready ≤ ` +
                    `${Math.max(0, ...liveTimes.map((t) => t.readyMs))} ms after live.js started; ` : "") +
            (backNote ? `${backNote}; ` : `back matter on ${backPages.length} pages; `) +
            `${failures.length} problems; ` +
            `${((Date.now() - started) / 1000).toFixed(1)} s` + (shots ? `; screenshots in ${shotDir}` : ""));
process.exit(failures.length === 0 ? 0 : 1);
