// tests/browser/live-lib.mjs — checking the live figures of the HTML book (tools/live.js).
// Used by check.mjs, on the pages it loads anyway, and by live.mjs, which checks the figures alone
// (and can take their screenshots).
//
// EXPECTED.json (tools/live.py, from the chapters' figures/live-chNN.c programs) lists checks:
// a figure, operations on its controls ("fill NAME VALUE; select NAME VALUE; check NAME 0|1;
// click NAME TIMES") and the numbers the native library computes for that input. For each check
// the operations are done the way a reader would (keyboard-usable form elements, input and change
// events), and every number shown in the element data-v=KEY must equal the expected one to the
// decimals shown. Also: every element with data-live on a page becomes ready; every figure has at
// least one check and labelled controls; attn.wasm is at most 300 KB.
import fs from "node:fs";
import path from "node:path";

// every console error and uncaught exception of PAGE is a failure at WHERE
export function watchErrors(page, where, fail) {
  page.on("console", (m) => { if (m.type() === "error") fail(where, `console error: ${m.text()}`); });
  page.on("pageerror", (e) => fail(where, `uncaught exception: ${e.message}`));
}

// PROMISE, or an error saying WHAT did not finish within MS milliseconds (no browser wait can hang a test)
export const within = (ms, what, promise) => Promise.race([promise,
  new Promise((_, no) => setTimeout(() => no(new Error(`${what} did not finish within ${ms / 1000} s`)), ms).unref())]);

// read once: the checks, which page holds which figure, and the checks that need no browser
export function liveSetup(root, expectedFile, fail) {
  const checks = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
  const wasmBytes = fs.statSync(path.join(root, "attn.wasm")).size;
  if (wasmBytes > 300 * 1024) fail("attn.wasm", `${wasmBytes} bytes, more than 300 KB`);
  const figurePage = new Map();
  for (const p of fs.readdirSync(root).filter((f) => f.endsWith(".html")).sort()) {
    const text = fs.readFileSync(path.join(root, p), "utf8");
    for (const m of text.matchAll(/data-live="([^"]+)"/g)) figurePage.set(m[1], p);
  }
  if (figurePage.size < 6) fail("book", `only ${figurePage.size} live figures (${[...figurePage.keys()].join(", ")})`);
  for (const name of figurePage.keys())
    if (!checks.some((c) => c.figure === name)) fail(name, "no check drives this figure");
  return { checks, figurePage, wasmBytes };
}

// wait until every live figure on the page is ready; how long after the load event that was, and
// how long after live.js started (its own measurement, data-live-ms on <html>)
export async function liveReady(page, where, fail) {
  const loadedAt = await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd);
  const figs = await page.locator("[data-live]").count();
  await page.waitForFunction((n) => document.querySelectorAll('[data-live-state="ready"]').length === n, figs,
                             // (chapter 13's figure first reads a 10 MB model; on a busy machine that
                             // alone can take seconds, so the limit is generous — the time is reported)
                             { polling: 20, timeout: 30000 })
    .catch(() => fail(where, "a live figure never became ready"));
  const readyAt = await page.evaluate(() => performance.now());
  return { afterLoad: readyAt - loadedAt,
           readyMs: Number(await page.evaluate(() => document.documentElement.dataset.liveMs)) };
}

// drive one figure through all its checks; returns how many numbers were compared
export async function driveFigure(page, name, checks, fail) {
  const fig = page.locator(`[data-live="${name}"]`);
  // every control is an ordinary form element with a name a screen reader can say
  const unnamed = await fig.evaluate((f) => [...f.querySelectorAll("input, select, button")]
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !(e.tagName === "BUTTON" && e.textContent.trim()))
    .map((e) => e.name || e.outerHTML.slice(0, 60)));
  unnamed.forEach((c) => fail(name, `control ${c} has no label`));
  if ((await fig.locator("input, select, button").count()) === 0) fail(name, "no controls");
  let compared = 0;
  // the checks one after another (each sets every input it relies on)
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
    await page.waitForFunction((f) => !document.querySelector(`[data-live="${f}"]`).hasAttribute("data-busy"), name,
                               { polling: 20, timeout: 20000 });
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
  return compared;
}
