// The release build as users get it: served from dist/, under the page's own
// Content-Security-Policy, in headless Chromium. Fails on any policy
// violation, console error or uncaught exception, and unless a real key press
// on a slider changes what the page shows. Run through scripts/test.sh.
import { readFileSync } from "node:fs";
import { launchChromium } from "./chromium.mjs";
import { brandsApart, brandsProblem } from "./brands.mjs";
import { partsClicked, clicksProblem, clicksSaid, PARTS_PASTE } from "./clicks.mjs";

const base = process.argv[2];
const browser = await launchChromium();
const problems = [];
const fail = (what) => problems.push(what);

async function open(query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 2 });
  // Injected by the browser itself, so the policy does not apply to it.
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
  });
  page.on("console", (m) => { if (m.type() === "error") fail(`${query}: console error: ${m.text()}`); });
  page.on("pageerror", (e) => fail(`${query}: uncaught: ${e.message}`));
  await page.goto(base + query);
  return page;
}

// Waits until a canvas has ink on it. A chart out of sight waits to be drawn
// until it comes near (src/app/hooks.rs, observe_near), so it is brought into
// view first, as a reader scrolling to it would.
async function inked(page, selector) {
  await page.waitForFunction((sel) => {
    // Shown: the page's app is drawn out of sight until its first render's
    // steps are done.
    if (document.querySelector("#app-root.building")) return false;
    const c = document.querySelector(sel);
    if (!c || !c.width) return false;
    c.scrollIntoView({ block: "center" });
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 16) if (d[i] < 128 && d[i + 3] > 0) return true;
    return false;
  }, selector, { timeout: 20_000 });
}

async function violations(page, query) {
  for (const v of await page.evaluate(() => window.__violations)) fail(`${query}: CSP: ${v}`);
}

// The CrashLoopBackOff view: charts drawn, and a key press on the pods slider
// (a trusted input event) moves the node's restart count.
{
  const page = await open("");
  for (const id of ["#chart-restarts", "#chart-delays", "#chart-load", "#chart-windows"]) await inked(page, id);
  const text = (sel) => page.locator(sel).innerText();
  const before = [await text("#pods-value"), await text("#sum-restarts-node-all")];
  await page.focus("#pods");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((b) => document.querySelector("#pods-value").innerText !== b, before[0]);
  // Figures out of sight catch up once the controls rest (aria-busy meanwhile).
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  const after = [await text("#pods-value"), await text("#sum-restarts-node-all")];
  if (after[0] !== "111" || before[0] !== "110") fail(`pods slider: ${before[0]} → ${after[0]}, expected 110 → 111`);
  if (after[1] === before[1]) fail(`restarts on the node stayed ${before[1]} after adding a pod`);
  // The second wasm (the Job and cluster views, the pod reader, the audit,
  // the exports) comes once the page's own has, never before it, so that a
  // tab opens from the cache.
  const fetched = () => page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.includes("crashloop-explorer-extras")).length);
  await page.waitForFunction(() => performance.getEntriesByType("resource").filter((r) => r.name.includes("crashloop-explorer-extras")).length === 2, null, { timeout: 20_000 })
    .catch(async () => fail(`the second wasm was not fetched after the first (${await fetched()} fetches)`));
  const order = await page.evaluate(() => {
    const entries = performance.getEntriesByType("resource");
    const own = entries.find((r) => r.name.endsWith("crashloop-explorer-page_bg.wasm"));
    const first = Math.min(...entries.filter((r) => r.name.includes("crashloop-explorer-extras")).map((r) => r.startTime));
    return { own: own?.responseEnd ?? Infinity, extras: first };
  });
  if (!(order.extras > order.own)) fail(`the second wasm was fetched at ${order.extras} ms, before the page's own had come (${order.own} ms)`);
  // The exports are in the second wasm, fetched when their panel is first
  // opened; the SVG download is drawn by the charts' code, into the link.
  await page.click("#exports summary");
  await page.waitForSelector("#download-api-load-svg", { timeout: 20_000 });
  await page.click("#download-api-load-svg");
  await page.waitForFunction(() => document.querySelector("#download-api-load-svg").getAttribute("href").startsWith("data:"), null, { timeout: 20_000 });
  const href = await page.getAttribute("#download-api-load-svg", "href");
  const svg = href.startsWith("data:") ? decodeURIComponent(href.slice(href.indexOf(",") + 1)) : href;
  if (!svg.includes("<svg") || !svg.includes("kubeAPIQPS")) fail(`SVG export: ${svg.slice(0, 200)}`);
  await page.waitForTimeout(200);
  await page.click("#diagnose summary");
  await page.fill("#pod-now", "2026-11-20T10:01:00Z");
  await page.fill("#pod-text", readFileSync(new URL("../tests/fixtures/web-0.json", import.meta.url), "utf8"));
  await page.waitForFunction(() => document.querySelector("#pod-state-1")?.textContent === "CrashLoopBackOff", null, { timeout: 20_000 });
  await page.click("#pod-explore-1");
  await page.waitForSelector("#marker-note", { timeout: 5_000 });
  // The audit too, and the JS API's audit() (a Promise, from the same module).
  await page.click("#audit summary");
  await page.click("#show-client-rate-limit");
  await page.waitForFunction(() => document.querySelector("#qps-value")?.textContent.trim() === "5", null, { timeout: 5_000 });
  // The JS API's module is not the page's: fetched only when the console asks.
  const apiFetches = () => page.evaluate(() => performance.getEntriesByType("resource").filter((r) => /\/crashloop-explorer(_bg\.wasm|\.js)$/.test(r.name)).length);
  if (await apiFetches() !== 0) fail("the JS API's module was fetched by the page itself");
  const claims = await page.evaluate(async () => (await (await window.crashloopExplorer()).audit()).length);
  if (!(claims > 20)) fail(`audit() from the JS API: ${claims} claims`);
  const simulated = await page.evaluate(async () => (await window.crashloopExplorer()).simulate({ initialMs: 1000, maxMs: 60000, model: "kep", horizonMs: 1800000 }).restartsAtMs.slice(0, 3).join(","));
  if (simulated !== "1000,3000,7000") fail(`simulate() from the JS API's module: ${simulated}`);
  await page.click("#nav-job");
  await inked(page, "#chart-job");
  const late = await fetched();
  if (late !== 2) fail(`the second wasm: ${late} fetches (its glue and wasm once each expected)`);
  await violations(page, "/");
  console.log(`crash-loop view: pods ${before[0]} → ${after[0]}, restarts on the node ${before[1]} → ${after[1]}; SVG export ${svg.length} bytes; the second wasm fetched once, after the page's own, and reused by every part; a pasted pod read and explored; an audit claim shown; the JS API's module fetched only when asked: audit() ${claims} claims, simulate() ${simulated}; Job view from its tab`);
  await page.close();
}

// An older link's pin written as JSON: the page's wasm has no JSON reader
// for scenarios, so the second wasm reads it; the pin is then compared and
// the address holds it as link keys.
{
  const json = encodeURIComponent(JSON.stringify({ initialMs: 250, maxMs: 60000, horizonMs: 1800000, model: "kubelet", seed: 42 }));
  const page = await open(`?v=1.37&pin=${json}`);
  const keys = "pin=v%3D1.37%26i%3D250ms%26x%3D1m0s%26s%3D42";
  try {
    await page.waitForFunction((k) => location.search.includes(k) && document.querySelectorAll("#compare-legend li").length === 2, keys, { timeout: 20_000 });
    const left = await page.evaluate(() => document.querySelector("#link-notices")?.innerText ?? "");
    if (left) fail(`older JSON pin: notices left: ${left}`);
    else console.log(`an older link's JSON pin: read by the second wasm, compared, and written anew (${keys})`);
  } catch (e) {
    fail(`older JSON pin: not read (${await page.evaluate(() => location.search + " | " + (document.querySelector("#link-notices")?.innerText ?? ""))})`);
  }
  await page.close();
}

// State the stylesheet shows through attributes, not classes made at
// render (src/app/panels.rs, `series`): the swatches take the charts'
// palette in the legend and the compared table, a slider the curve does not
// follow is dimmed, and the audit's verdicts have their backgrounds.
{
  const page = await open("?v=1.37&c=initial-250ms,rapid");
  await page.waitForFunction(() => document.querySelectorAll("#compare-legend li").length === 3, null, { timeout: 20_000 });
  await page.locator("#compare-table").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll("#compare-table .swatch").length === 3, null, { timeout: 20_000 });
  await page.click("#audit summary");
  await page.waitForSelector("#audit .verdict", { timeout: 20_000 });
  const looks = await page.evaluate(() => {
    const bg = (sel) => [...document.querySelectorAll(sel)].map((e) => getComputedStyle(e).backgroundColor);
    return {
      legend: bg("#compare-legend .swatch"),
      table: bg("#compare-table .swatch"),
      dimmed: getComputedStyle(document.querySelector("#initial")).opacity,
      verdicts: [...new Set(bg("#audit .verdict"))].length,
    };
  });
  const palette = ["rgb(31, 95, 191)", "rgb(217, 95, 2)", "rgb(27, 158, 119)"];
  if (looks.legend.join() !== palette.join() || looks.table.join() !== palette.join()) fail(`swatches: ${JSON.stringify(looks)}`);
  else if (looks.dimmed !== "0.55") fail(`the initial slider of a configured curve is not dimmed: ${looks.dimmed}`);
  else if (looks.verdicts !== 3) fail(`the audit's verdicts have ${looks.verdicts} backgrounds, not 3`);
  else console.log("styled by attributes: the swatches in the palette's colours, the configured curve's sliders dimmed, three verdict backgrounds");
  await page.close();
}

// Before the wasm (here: without JavaScript), the page holds the first view
// drawn at build time; the app, once mounted, shows the same figures.
{
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, javaScriptEnabled: false });
  const still = await context.newPage();
  await still.goto(base);
  const pre = await still.evaluate(() => ({
    figures: [...document.querySelectorAll("#prerender dd.figure")].map((d) => d.textContent.trim()),
    images: [...document.querySelectorAll("#prerender img")].map((i) => i.naturalWidth),
  }));
  await context.close();
  const page = await open("");
  await inked(page, "#chart-restarts");
  const live = await page.evaluate(() => ({
    figures: ["restarts-5m", "restarts-all", "requests-5m", "requests-all"].map((id) => document.getElementById(`head-${id}`).textContent.trim()),
    prerender: document.querySelectorAll("#prerender").length,
  }));
  if (pre.figures.length !== 4 || pre.figures.join() !== live.figures.join())
    fail(`prerendered figures ${pre.figures.join(", ")} are not the app's ${live.figures.join(", ")}`);
  if (pre.images.length !== 2 || pre.images.some((w) => w !== 720)) fail(`prerendered charts: ${JSON.stringify(pre.images)}`);
  if (live.prerender !== 0) fail("the prerendered view stayed after the app mounted");
  console.log(`first view before the wasm: figures ${pre.figures.join(", ")} (the app's too), ${pre.images.length} charts; replaced on mount`);
  await page.close();
}

// On a phone the controls come after the results: a key press on a slider,
// scrolled past as a reader would, changes figures that are in sight (the
// view's strip at the top of its controls), in the main and cluster views.
for (const [query, slider, key, strip, figure] of [
  ["", "#pods", "ArrowRight", "#headline-bar", "#bar-requests-all"],
  ["?view=cluster", "#class-0-nodes", "ArrowLeft", "#cluster-bar", "#cluster-bar-peak"],
]) {
  const page = await open(query);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator(slider).waitFor();
  await page.evaluate((sel) => { document.querySelector(sel).scrollIntoView({ block: "end" }); scrollBy(0, 300); }, slider);
  const read = () => page.evaluate(([strip, figure]) => {
    const b = document.querySelector(strip).getBoundingClientRect();
    return { text: document.querySelector(figure).textContent, top: b.top, bottom: b.bottom, height: innerHeight };
  }, [strip, figure]);
  const before = await read();
  await page.locator(slider).focus();
  await page.keyboard.press(key);
  await page.waitForFunction(([sel, was]) => document.querySelector(sel).textContent !== was, [figure, before.text], { timeout: 5_000 }).catch(() => {});
  const after = await read();
  const where = `phone (390 px)${query ? ", " + query : ""}`;
  if (after.text === before.text) fail(`${where}: ${slider} moved and the strip still says "${after.text}"`);
  else if (after.top < 0 || after.bottom > after.height) fail(`${where}: the strip is out of sight (${after.top}..${after.bottom} of ${after.height})`);
  else console.log(`${where}: ${slider}, scrolled past, moves figures in sight: "${before.text}" → "${after.text}"`);
  await page.close();
}

// The parts each view has open (every <details> but the cluster watch) with
// controls that answer nothing (the audit's are all "show me").
const PARTS_OPEN = { "": ["pod", "export"], "?view=job": ["job"], "?view=cluster": ["cluster"] };

// Nothing cut at a phone's width or a laptop's: with every <details> open,
// no element of the main, Job or cluster view reaches past the page's right
// edge unless a scrolling box holds it (the charts' data tables and the
// cluster view's figures once did), and no figure past its list's (a second
// value once widened the labels' column and pushed the values out).
for (const [query, width] of ["", "?view=job", "?view=cluster"].flatMap((q) => [[q, 390], [q, 1280]])) {
  const page = await open(query);
  await page.setViewportSize({ width, height: 844 });
  await inked(page, query ? "canvas" : "#chart-restarts");
  // All but the cluster watch, which would ask this server for the API.
  await page.evaluate(() => document.querySelectorAll("main.app details:not(#live)").forEach((d) => (d.open = true)));
  await page.waitForTimeout(500);
  const cut = await page.evaluate(() => {
    const edge = document.documentElement.clientWidth + 1;
    const scrolled = (el) => { for (let e = el.parentElement; e; e = e.parentElement) if (["auto", "scroll"].includes(getComputedStyle(e).overflowX)) return true; return false; };
    const past = (el) => el.getBoundingClientRect().right > edge
      || [...document.querySelectorAll("dl.counters")].some((dl) => dl.contains(el) && el.getBoundingClientRect().right > dl.getBoundingClientRect().right + 1);
    return [...document.querySelectorAll("main.app *")]
      .filter((el) => past(el) && !el.closest(".visually-hidden") && !scrolled(el))
      .slice(0, 3).map((el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} to ${Math.round(el.getBoundingClientRect().right)} px`);
  });
  if (cut.length) fail(`${width} px${query ? ", " + query : ""}: past the page's or its list's edge: ${cut.join(", ")}`);
  else console.log(`${width} px${query ? ", " + query : ""}: nothing past the page's edge, every <details> open`);
  // Every part the view has open (the second wasm's apps) takes only its
  // own events: no Yew subtree id of the page's app on its elements.
  if (width > 600) {
    await page.waitForFunction(() => document.querySelector("[data-part] > div *") && !document.querySelector(".part-loading"), null, { timeout: 20000 }).catch(() => {});
    const brands = await page.evaluate(brandsApart);
    const problem = brandsProblem(`${query || "the main view"}, every part open`, brands);
    if (problem) fail(problem);
    else console.log(`${query || "the main view"}: its parts (${await page.evaluate(() => [...document.querySelectorAll("[data-part]")].map((p) => p.dataset.part).join(", "))}) carry Yew subtree ids ${brands.inside.join(", ")}, the page's app ${brands.outside.join(", ")}`);
  }
  // On a phone the claims audit and the Job's pods are cards: no column
  // off to the side, even in a box that scrolls (the pods' "what happened"
  // once was).
  if (width < 600) {
    const wide = await page.evaluate(() => [...document.querySelectorAll("main.app #job-pods, main.app .audit table")]
      .filter((t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((t) => `${t.id || "the audit's table"} to ${Math.round(t.getBoundingClientRect().right)} px`));
    if (wide.length) fail(`${width} px${query ? ", " + query : ""}: a column off to the side: ${wide.join(", ")}`);
  }
  // The results' boxes (panels and charts) share one right edge: the
  // panels once stopped at 744 px beside charts of 820.
  const edges = await page.evaluate(() => [...document.querySelectorAll("main.app .results > .panel, main.app .results > figure.chart")]
    .map((el) => Math.round(el.getBoundingClientRect().right)));
  if (Math.max(...edges) - Math.min(...edges) > 1) fail(`${width} px${query ? ", " + query : ""}: the results' panels and charts end at ${[...new Set(edges)].join(", ")} px`);
  // A click on each control of each part changes nothing of the page's
  // outside it (last: the clicks change the parts).
  if (width > 600) {
    const what = `${query || "the main view"}, every part open`;
    const clicks = await page.evaluate(partsClicked, PARTS_PASTE);
    const problem = clicksProblem(what, PARTS_OPEN[query], clicks);
    if (problem) fail(problem);
    else console.log(`${what}: a click on each control of a part (${clicksSaid(clicks)}) changed nothing of the page's outside it`);
  }
  await page.close();
}

// The release wasm aborts without a message of its own: the page says so.
{
  const page = await open("?v=1.37");
  await inked(page, "#chart-restarts");
  const said = await page.evaluate(() => {
    dispatchEvent(new ErrorEvent("error", { error: new WebAssembly.RuntimeError("unreachable") }));
    const note = document.getElementById("app-stopped");
    return note ? `${note.getAttribute("role")}: ${note.textContent}` : null;
  });
  if (!said || !said.startsWith("alert: The explorer stopped on an internal error")) fail(`an abort is not explained: ${said}`);
  else console.log("an abort in the wasm: the page says it stopped and how to go on");
  await page.close();
}

// Print: one column, light, no buttons or screen-only panels.
{
  const page = await open("?v=1.37&theme=dark");
  await inked(page, "#chart-restarts");
  await page.emulateMedia({ media: "print" });
  const printed = await page.evaluate(() => ({
    columns: getComputedStyle(document.querySelector(".layout")).gridTemplateColumns.split(" ").length,
    hidden: ["#copy-link", "#diagnose", "#audit", ".panel.exports"].filter((s) => {
      const e = document.querySelector(s);
      return e && e.getBoundingClientRect().height === 0;
    }).length,
    background: getComputedStyle(document.body).backgroundColor,
  }));
  if (printed.columns !== 1 || printed.hidden !== 4 || printed.background !== "rgb(255, 255, 255)")
    fail(`print stylesheet: ${JSON.stringify(printed)}, expected one column, 4 screen-only parts hidden, a white page`);
  const pdf = await page.pdf({ format: "A4" });
  console.log(`print: one column, screen-only parts hidden, white page; PDF ${pdf.length} bytes`);
  await page.close();
}

// The system turns dark while the page is open, theme "system": the charts
// follow the page's CSS (they once stayed light until the next move).
{
  const page = await open("?v=1.37");
  await inked(page, "#chart-restarts");
  const corner = () => page.evaluate(() => {
    const d = document.querySelector("#chart-restarts").getContext("2d").getImageData(3, 3, 1, 1).data;
    return d[0] + d[1] + d[2];
  });
  const light = await corner();
  await page.emulateMedia({ colorScheme: "dark" });
  let dark = await corner();
  for (const end = Date.now() + 5_000; dark >= 200 && Date.now() < end; dark = await corner()) await page.waitForTimeout(50);
  if (light < 600 || dark >= 200) fail(`system theme: chart background ${light} (sum of RGB) light, then ${dark} once the system turned dark`);
  else console.log(`system theme: the charts follow the system into dark (background ${light} → ${dark}, sum of RGB)`);
  await page.close();
}

// The window moves to a screen of another density, its size the same (two
// screens, 1x and 2x, in a browser of its own): the charts' backing stores
// follow the device pixel ratio. They once kept the old one, blurred, until
// the page's size changed.
{
  const screens = await launchChromium(["--screen-info={0,0 1600x1200 devicePixelRatio=1}{1600,0 1600x1200 devicePixelRatio=2}"]);
  const context = await screens.newContext({ viewport: null });
  const page = await context.newPage();
  page.on("pageerror", (e) => fail(`two screens: uncaught: ${e.message}`));
  const cdp = await context.newCDPSession(page);
  const { windowId } = await cdp.send("Browser.getWindowForTarget");
  // Headless Chromium reads a window's bounds on the 2x screen in its device
  // pixels and on the 1x screen in the other's: these keep the page 600 CSS
  // pixels wide on both, so that only the ratio changes.
  const place = (left, width, height) => cdp.send("Browser.setWindowBounds", { windowId, bounds: { left, top: 0, width, height } });
  await place(0, 600, 450);
  await page.goto(base + "?v=1.37");
  await inked(page, "#chart-restarts");
  const backing = () => page.evaluate(() => {
    const c = document.querySelector("#chart-restarts");
    return `${c.width} px for ${c.clientWidth} CSS px at ratio ${devicePixelRatio}`;
  });
  const crisp = (ratio) => page.waitForFunction((r) => {
    const c = document.querySelector("#chart-restarts");
    return devicePixelRatio === r && c.width === Math.round(c.clientWidth * r);
  }, ratio, { timeout: 5_000 }).then(() => true, () => false);
  const seen = [await backing()];
  for (const [left, width, height, ratio] of [[1700, 1200, 900, 2], [0, 300, 225, 1]]) {
    await place(left, width, height);
    const ok = await crisp(ratio);
    seen.push(await backing());
    if (!ok) fail(`a screen of ratio ${ratio}: the chart's backing store is ${seen.at(-1)}`);
  }
  console.log(`two screens: the chart's backing store follows the ratio (${seen.join("; ")})`);
  await screens.close();
}

// The Job view, from a link.
{
  const query = "?v=1.37&view=job&js=exit%201&jr=2h";
  const page = await open(query);
  await inked(page, "#chart-job");
  await page.waitForTimeout(500);
  await violations(page, query);
  // Its keys, read in the second wasm: a bad one named, and dropped from the page's URL.
  const notice = await page.locator("#job-link-notices").innerText();
  if (!notice.includes("jr")) fail(`Job link notices: ${notice}`);
  const url = await page.evaluate(() => location.search);
  if (url !== "?view=job&v=1.37&js=exit%201") fail(`Job view's URL: ${url}`);
  // boot.js preloads the second wasm for a Job link: fetched once, the preload used.
  const wasmFetches = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.endsWith("crashloop-explorer-extras_bg.wasm")).length);
  const preloaded = await page.evaluate(() => document.querySelectorAll('link[rel=preload][href$="crashloop-explorer-extras_bg.wasm"], link[rel=modulepreload][href$="crashloop-explorer-extras.js"]').length);
  if (wasmFetches !== 1 || preloaded !== 2) fail(`a Job link: second wasm fetched ${wasmFetches} times, ${preloaded} of 2 preloads`);
  console.log(`Job view: chart drawn; its link's bad run length named; URL ${url}; the second wasm preloaded and fetched once`);
  await page.close();
}

// Where the reader asks to save data, the second wasm waits to be needed;
// pointing at the Job tab starts fetching it, before the click.
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { saveData: true } }));
  page.on("pageerror", (e) => fail(`save data: uncaught: ${e.message}`));
  await page.goto(base + "?v=1.37");
  await inked(page, "#chart-restarts");
  await page.waitForTimeout(5_000);
  const idle = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.includes("crashloop-explorer-extras")).length);
  if (idle !== 0) fail(`save data: the second wasm was fetched ${idle} times before it was needed`);
  await page.hover("#nav-job");
  await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.endsWith("crashloop-explorer-extras_bg.wasm")), null, { timeout: 10_000 });
  console.log("save data: the second wasm waits, and a pointer over the Job tab fetches it before the click");
  await page.close();
}

// The second wasm cannot be had (a deploy without it, a dropped link): each
// part says so where it would be, and the rest of the app goes on.
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on("pageerror", (e) => fail(`no second wasm: uncaught: ${e.message}`));
  await page.route("**/crashloop-explorer-extras*", (route) => route.abort());
  await page.goto(base + "?v=1.37");
  await inked(page, "#chart-restarts");
  await page.click("#diagnose summary");
  await page.waitForSelector("#diagnose [role=alert]", { timeout: 10_000 });
  await page.click("#nav-job");
  await page.waitForSelector("[data-part=job] [role=alert]", { timeout: 10_000 });
  const said = await page.locator("[data-part=job] [role=alert]").innerText();
  if (!said.startsWith("The Job view could not be loaded (") || !said.endsWith("Reload the page to try again.")) fail(`no second wasm: ${said}`);
  console.log(`no second wasm: "${said.slice(0, 60)}…", and the pod reader and an older link's JSON pin say so too`);
  // An older link's JSON pin, which that module reads: the notice says so.
  await page.goto(base + `?v=1.37&n=7&pin=${encodeURIComponent('{"initialMs":250}')}`);
  await page.waitForFunction(() => (document.querySelector("#link-notices")?.innerText ?? "").includes("could not be loaded"), null, { timeout: 10_000 })
    .catch(async () => fail(`no second wasm, a JSON pin: ${await page.evaluate(() => document.querySelector("#link-notices")?.innerText)}`));
  if (await page.locator("#pods-value").innerText() !== "7") fail("no second wasm, a JSON pin: the rest of the link did not stand");
  await page.close();
}

await browser.close();
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("release build: runs under its Content-Security-Policy, no errors");
