import { chromium } from "playwright-core";
import path from "node:path";
import { pathToFileURL } from "node:url";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
if (process.env.BLOCK) await ctx.route(/search-index\.js$/, (r) => r.fulfill({ body: "", contentType: "text/javascript" }));
for (const rep of [0, 1]) for (const f of ["02-similarity.html", "05-mask.html", "12-learning.html"]) {
  const page = await ctx.newPage();
  const t1 = Date.now();
  await page.goto(pathToFileURL(path.resolve("build/book/html", f)).href, { waitUntil: "load" });
  const perf = await page.evaluate(() => { const n = performance.getEntriesByType("navigation")[0]; return [n.domInteractive, n.domContentLoadedEventEnd, n.loadEventEnd].map(Math.round); });
  console.log(f, "load", Date.now() - t1, perf.join(" "));
  await page.close();
}
await browser.close();
