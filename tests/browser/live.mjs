// tests/browser/live.mjs HTML_DIR EXPECTED.json [SHOT_DIR] — drive every live figure of the HTML book
// (tools/live.js) in Debian's Chromium, driven by playwright-core.
//
// EXPECTED.json (tools/live.py, from the chapters' figures/live-chNN.c programs) lists checks:
// a figure, operations on its controls ("fill NAME VALUE; select NAME VALUE; check NAME 0|1;
// click NAME TIMES") and the numbers the native library computes for that input. For each check the
// figure's page is loaded once, the operations are done the way a reader would (keyboard-usable form
// elements, input and change events), and every number shown in the element data-v=KEY must equal
// the expected one to the decimals shown. Also: every element with data-live on a page becomes
// ready; every figure has at least one check and labelled controls; no console error or uncaught
// exception; no request that leaves the local files; attn.wasm is at most 300 KB; no page wider
// than a phone. It reports how long after the page's load event the figures were ready (a
// measurement, not a pass/fail: the pages load in parallel on a shared machine).
// With SHOT_DIR and ATTN_SCREENSHOTS=1 in the environment (as for check.mjs), a screenshot of each
// figure at desktop and phone width.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [htmlDir, expectedFile, shotArg] = process.argv.slice(2);
const shotDir = process.env.ATTN_SCREENSHOTS === "1" ? shotArg : undefined;
if (!htmlDir || !expectedFile) {
  console.error("usage: node tests/browser/live.mjs HTML_DIR EXPECTED.json [SHOT_DIR]");
  process.exit(2);
}
const root = path.resolve(htmlDir);
const checks = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
const failures = [];
const fail = (where, what) => failures.push(`${where}: ${what}`);

const wasmBytes = fs.statSync(path.join(root, "attn.wasm")).size;
if (wasmBytes > 300 * 1024) fail("attn.wasm", `${wasmBytes} bytes, more than 300 KB`);

// which page holds which figure
const pages = fs.readdirSync(root).filter((f) => f.endsWith(".html")).sort();
const figurePage = new Map();
for (const p of pages) {
  const text = fs.readFileSync(path.join(root, p), "utf8");
  for (const m of text.matchAll(/data-live="([^"]+)"/g)) figurePage.set(m[1], p);
}
if (figurePage.size < 6) fail("book", `only ${figurePage.size} live figures (${[...figurePage.keys()].join(", ")})`);
for (const name of figurePage.keys())
  if (!checks.some((c) => c.figure === name)) fail(name, "no check drives this figure");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"],
});

async function open(context, file, where) {
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") fail(where, `console error: ${m.text()}`); });
  page.on("pageerror", (e) => fail(where, `uncaught exception: ${e.message}`));
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    fail(where, `request leaves the local files: ${url}`);
    return route.abort();
  });
  await page.goto(pathToFileURL(path.join(root, file)).href, { waitUntil: "load" });
  const loadedAt = await page.evaluate(() => performance.now());
  const figs = await page.locator("[data-live]").count();
  await page.waitForFunction((n) => document.querySelectorAll('[data-live-state="ready"]').length === n, figs, { polling: 20, timeout: 5000 })
    .catch(() => fail(where, "a live figure never became ready"));
  const readyAt = await page.evaluate(() => performance.now());
  return { page, afterLoad: readyAt - loadedAt, readyMs: Number(await page.evaluate(() => document.documentElement.dataset.liveMs)) };
}

const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
if (shotDir) fs.mkdirSync(shotDir, { recursive: true });
const timings = [];
let compared = 0;

// the figure alone: the window made as tall as the figure, the page's sticky header unstuck
async function shoot(page, fig, file) {
  const width = page.viewportSize().width;
  await page.addStyleTag({ content: "header, .booknav { position: static !important; }" });
  for (let i = 0; i < 3; i++) {      // the layout may change with the window's height: measure again
    const height = await fig.evaluate((e) => e.getBoundingClientRect().height);
    if (Math.ceil(height) + 20 <= page.viewportSize().height) break;
    await page.setViewportSize({ width, height: Math.min(6000, Math.ceil(height) + 20) });
  }
  await fig.evaluate((e) => new Promise((done) => {   // scrolled there, and painted at the new size
    e.scrollIntoView();
    requestAnimationFrame(() => requestAnimationFrame(done));
    setTimeout(done, 250);                          // a page that is not painted gets no frame
  }));
  await fig.screenshot({ path: path.join(shotDir, file) });
}

// one figure: a desktop page runs its checks one after another (each sets every input it relies
// on), then the figure is photographed, and again at a phone's width
async function figure(name, file) {
  const { page, afterLoad, readyMs } = await open(desktop, file, name);
  timings.push({ figure: name, afterLoad, readyMs });
  const fig = page.locator(`[data-live="${name}"]`);
  // every control is an ordinary form element with a name a screen reader can say
  const unnamed = await fig.evaluate((f) => [...f.querySelectorAll("input, select, button")]
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !(e.tagName === "BUTTON" && e.textContent.trim()))
    .map((e) => e.name || e.outerHTML.slice(0, 60)));
  unnamed.forEach((c) => fail(name, `control ${c} has no label`));
  if ((await fig.locator("input, select, button").count()) === 0) fail(name, "no controls");
  for (const check of checks.filter((c) => c.figure === name)) {
    const where = `${name} [${check.do}]`;
    for (const op of check.do.split(";").map((s) => s.trim()).filter(Boolean)) {
      const [verb, control_, value] = op.split(/\s+/);
      const control = fig.locator(`[name="${control_}"]`);
      if ((await control.count()) !== 1) { fail(where, `no control named ${control_}`); continue; }
      if (verb === "fill") {
        // as typing does: focus, replace the value, then the input and change events
        await control.evaluate((e, v) => {
          e.focus();
          e.value = v;
          e.dispatchEvent(new Event("input", { bubbles: true }));
          e.dispatchEvent(new Event("change", { bubbles: true }));
        }, value);
      } else if (verb === "select") {
        await control.selectOption(value);
      } else if (verb === "check") {
        await control.setChecked(value === "1");
      } else if (verb === "click") {
        for (let i = 0; i < Number(value); i++) await control.click();
      } else {
        fail(where, `unknown operation ${op}`);
      }
    }
    // a figure that computes in steps (training) marks itself data-busy until it is done
    await page.waitForFunction((f) => !document.querySelector(`[data-live="${f}"]`).hasAttribute("data-busy"), name, { polling: 20, timeout: 20000 });
    const shown = await fig.evaluate((f) => Object.fromEntries(
      [...f.querySelectorAll("[data-v]")].map((e) => [e.getAttribute("data-v"), e.textContent.trim()])));
    for (const [key, want] of Object.entries(check.expect)) {
      if (!(key in shown)) { fail(where, `nothing shows ${key}`); continue; }
      const got = Number(shown[key]);
      // the page shows the native value rounded to the decimals it shows (allowing float noise)
      const decimals = (shown[key].split(".")[1] || "").length;
      if (shown[key] === "" || !Number.isFinite(got) || Math.abs(got - want) > 0.5 * 10 ** -decimals + 1e-6 * Math.abs(want) + 1e-9)
        fail(where, `${key} shows ${JSON.stringify(shown[key])}, the native library gives ${want}`);
      compared++;
    }
  }
  if (shotDir) await shoot(page, fig, `live-${name}-desktop.png`);
  // the same page at a phone's width (the figure keeps the last check's inputs)
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (wide > 1) fail(`phone ${name}`, `page is ${wide}px wider than the phone screen`);
  if (shotDir) await shoot(page, fig, `live-${name}-phone.png`);
  await page.close();
}
// a figure that hangs fails the test instead of holding it up
const within = (ms, what, promise) => Promise.race([promise,
  new Promise((_, no) => setTimeout(() => no(new Error(`${what} did not finish within ${ms / 1000} s`)), ms).unref())]);
await Promise.all([...figurePage].map(([name, file]) =>
  within(90000, name, figure(name, file)).catch((e) => fail(name, e.message.split("\n")[0]))));
await within(20000, "closing the browser", browser.close()).catch((e) => fail("browser", e.message));

const slowest = timings.reduce((a, t) => Math.max(a, t.afterLoad), 0);
const maxReady = timings.reduce((a, t) => Math.max(a, t.readyMs), 0);
console.log(`live figures: ${figurePage.size} on ${new Set(figurePage.values()).size} pages, ${checks.length} checks, ` +
            `${compared} numbers compared with the native library; attn.wasm ${wasmBytes} bytes; ` +
            `ready ≤ ${maxReady} ms after the script started, ≤ ${slowest.toFixed(0)} ms after the load event`);
if (failures.length) {
  console.log(failures.join("\n"));
  process.exit(1);
}
