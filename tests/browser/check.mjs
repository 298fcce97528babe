// tests/browser/check.mjs HTML_DIR SHOT_DIR — open every page of the HTML book in Debian's
// Chromium (headless, driven by playwright-core) and check what a reader would see:
//   no console error or uncaught exception; no request that leaves the local files;
//   every internal link points at an existing page and anchor; every image loads;
//   no math left unrendered (raw TeX or an empty <math>); no page wider than a phone screen;
//   the search box finds Chinese text.
// It saves a full-page screenshot of every page at desktop and phone widths into SHOT_DIR.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [htmlDir, shotDir] = process.argv.slice(2);
if (!htmlDir || !shotDir) {
  console.error("usage: node tests/browser/check.mjs HTML_DIR SHOT_DIR");
  process.exit(2);
}
const root = path.resolve(htmlDir);
fs.mkdirSync(shotDir, { recursive: true });
const pages = fs.readdirSync(root).filter((f) => f.endsWith(".html")).sort();
const failures = [];
const fail = (where, what) => failures.push(`${where}: ${what}`);

const idCache = new Map();
function idsOf(file) {
  if (!idCache.has(file)) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
    idCache.set(file, text === null ? null : new Set([...text.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
  }
  return idCache.get(file);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"],
});
const viewports = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];
let checkedLinks = 0;
for (const vp of viewports) {
  const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
  for (const name of pages) {
    const where = `${vp.name} ${name}`;
    const page = await context.newPage();
    page.on("console", (m) => { if (m.type() === "error") fail(where, `console error: ${m.text()}`); });
    page.on("pageerror", (e) => fail(where, `uncaught exception: ${e.message}`));
    page.on("request", (r) => { if (!r.url().startsWith("file:")) fail(where, `request leaves the local files: ${r.url()}`); });
    page.on("requestfailed", (r) => fail(where, `request failed: ${r.url()}`));
    await page.goto(pathToFileURL(path.join(root, name)).href, { waitUntil: "load" });

    const broken = await page.$$eval("img", (imgs) => imgs.filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src));
    broken.forEach((src) => fail(where, `image does not load: ${src}`));

    const math = await page.evaluate(() => {
      const out = [];
      document.querySelectorAll(".math").forEach((el) => {
        if (!el.querySelector("math")) out.push(`TeX left unrendered: ${el.textContent.slice(0, 60)}`);
      });
      document.querySelectorAll("math").forEach((m) => {
        const r = m.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) out.push(`empty math: ${m.textContent.slice(0, 60)}`);
      });
      const walker = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement.closest("pre, code, math, script")) continue;
        if (/\$[^$\s][^$]*\$|\\(frac|sqrt|mathbb|begin)\b/.test(n.textContent)) out.push(`raw TeX in text: ${n.textContent.slice(0, 60)}`);
      }
      return out;
    });
    math.forEach((m) => fail(where, m));

    if (vp.name === "phone") {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 1) fail(where, `page is ${wide}px wider than the phone screen`);
    }

    if (vp.name === "desktop") {
      const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => a.getAttribute("href")));
      for (const href of hrefs) {
        if (/^[a-z]+:/i.test(href)) { fail(where, `link leaves the book: ${href}`); continue; }
        const [file, hash] = href.split("#");
        const target = file ? path.join(root, decodeURIComponent(file)) : path.join(root, name);
        const ids = idsOf(target);
        checkedLinks++;
        if (ids === null) fail(where, `broken link: ${href}`);
        else if (hash && !ids.has(decodeURIComponent(hash))) fail(where, `missing anchor: ${href}`);
      }
    }
    await page.screenshot({ path: path.join(shotDir, `${vp.name}-${name.replace(/\.html$/, "")}.png`), fullPage: true });
    await page.close();
  }
  await context.close();
}

// the search box: type a Chinese word on the contents page and expect results that link to pages
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(path.join(root, "index.html")).href);
  await page.fill("#search", "注意力");
  const hits = await page.$$eval("#search-results a", (as) => as.map((a) => a.getAttribute("href")));
  if (hits.length === 0) fail("search", "no result for 注意力");
  await page.fill("#search", "attn_softmax");
  const code = await page.$$eval("#search-results a", (as) => as.length);
  if (code === 0) fail("search", "no result for attn_softmax");
  await page.screenshot({ path: path.join(shotDir, "desktop-search.png") });
  await page.close();
}
await browser.close();

for (const f of failures) console.error(f);
console.log(`browser: ${pages.length} pages × ${viewports.length} widths, ${checkedLinks} links checked, ` +
            `${failures.length} problems; screenshots in ${shotDir}`);
process.exit(failures.length === 0 ? 0 : 1);
