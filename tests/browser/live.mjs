// tests/browser/live.mjs HTML_DIR EXPECTED.json [SHOT_DIR] — every live figure of the HTML book
// (tools/live.js) alone, in Debian's Chromium driven by playwright-core: the checks of
// live-lib.mjs, which the browser test (check.mjs) also runs on the pages it loads; besides, no
// console error or uncaught exception, no request that leaves the local files, no page wider than
// a phone, and how long after the page's load event the figures were ready (a measurement, not a
// pass/fail: the pages load in parallel on a shared machine).
// With SHOT_DIR and ATTN_SCREENSHOTS=1 in the environment (as for check.mjs), a screenshot of each
// figure at desktop and phone width.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { liveSetup, liveReady, driveFigure, within, watchErrors } from "./live-lib.mjs";

const [htmlDir, expectedFile, shotArg] = process.argv.slice(2);
const shotDir = process.env.ATTN_SCREENSHOTS === "1" ? shotArg : undefined;
if (!htmlDir || !expectedFile) {
  console.error("usage: node tests/browser/live.mjs HTML_DIR EXPECTED.json [SHOT_DIR]");
  process.exit(2);
}
const root = path.resolve(htmlDir);
const failures = [];
const fail = (where, what) => failures.push(`${where}: ${what}`);
const { checks, figurePage, wasmBytes } = liveSetup(root, expectedFile, fail);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"],
});

async function open(context, file, where) {
  const page = await context.newPage();
  watchErrors(page, where, fail);
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    fail(where, `request leaves the local files: ${url}`);
    return route.abort();
  });
  await page.goto(pathToFileURL(path.join(root, file)).href, { waitUntil: "load" });
  return { page, ...(await liveReady(page, where, fail)) };
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
  const n = await driveFigure(page, name, checks, fail);   // (compared += await … would add to a stale value)
  compared += n;
  if (shotDir) await shoot(page, fig, `live-${name}-desktop.png`);
  // the same page at a phone's width (the figure keeps the last check's inputs)
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (wide > 1) fail(`phone ${name}`, `page is ${wide}px wider than the phone screen`);
  if (shotDir) await shoot(page, fig, `live-${name}-phone.png`);
  await page.close();
}
// a figure that hangs fails the test instead of holding it up
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
