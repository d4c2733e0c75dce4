// Measures the release app in headless Chromium, for the scenarios below, and
// prints one table. Run through scripts/bench.sh.
//
// - input → painted: a real pointer drag over a slider (trusted events, which
//   Chromium lines up with animation frames as it does for a user's mouse):
//   from each input event's timestamp to the end of the frame that paints it.
// - work per input: one synthetic input event per frame; handling it plus that
//   whole frame (drawing, style, layout, paint). Nothing is coalesced, so this
//   is the cost of every single slider step.
// - first chart: navigation to the first chart with ink on it.
import { launchChromium } from "./chromium.mjs";

const base = process.argv[2];
// With a second argument, the rows are also written there as JSON (for the
// one table scripts/bench.sh prints).
const jsonOut = process.argv[3];
const MOVES = 200;
// The first inputs run while the browser still compiles the wasm's hot code
// with its optimizing tier; they are not counted.
const WARM_UP = 20;
// Each slider moves over slider positions `from`..=`to`, where the scenario
// stays valid (the worst case's node holds 250 pods at most).
const WORST =
  "?v=1.37&i=25ms&x=1s&h=24h0m0s&rq=atExpiry&g=100.0s.f.A.0s.lockstep&g=100.0s.f.A.10m0s.spread&g=50.30s.f.A.10m0s.slow&c=rapid,initial-25ms,new-default";
const CLUSTER_WORST =
  "?v=1.37&view=cluster&cn=a~5000~110~0s~0s&cn=b~5000~110~0s~10m0s&cn=c~5000~110~30s~0s&cmax=1s&ch=24h0m0s&ccmp=rapid,initial-25ms,new-default,initial-1s-max-30s";
const scenarios = [
  { name: "default (30 min, 110 pods)", url: "?v=1.37", slider: "#pods", from: 50, to: 199 },
  // A window tall enough to show the pods slider and the load chart at once
  // (on shorter ones, the chart waits for the drag to rest: it is out of sight).
  { name: "default, 1280×1400, load chart in sight", url: "?v=1.37", slider: "#pods", from: 50, to: 199, height: 1400, sight: "#chart-load" },
  { name: "worst (250 pods, 24 h, 1 s cap, 4 scenarios, 3 groups)", url: WORST, slider: "#pods", from: 59, to: 98 },
  // Every stop re-simulates the live scenario's pods the first time (the
  // warm-up passes each once); after that the cached runs serve.
  { name: "worst, initial backoff slider (25 ms to 1 s)", url: WORST, slider: "#initial", from: 0, to: 5 },
  { name: "Job view", url: "?v=1.37&view=job&js=exit%201", slider: "#job-run", from: 0, to: 9 },
  // The cluster view at its default (one class of 5,000 nodes, 30 min), and
  // at the size: three classes of 5,000 nodes × 110 pods, 24 h, a
  // 1 s cap, four compared curves (the sweep waits for the controls to rest).
  { name: "cluster view (5,000 nodes, 30 min)", url: "?v=1.37&view=cluster", slider: "#class-0-nodes", from: 0, to: 13 },
  { name: "cluster: 3 classes × 5,000 nodes × 110 pods, 24 h, 1 s cap, 4 curves", url: CLUSTER_WORST, slider: "#class-0-nodes", from: 0, to: 13 },
  // Not the app: a plain page making the changes a default move makes
  // (scripts/bench-floor.html), the browser's own share of the default row.
  { name: "floor: a plain page making the default's changes", page: new URL("./bench-floor.html", import.meta.url).href, slider: "#pods", from: 50, to: 199 },
];

// Positions back and forth between `from` and `to`, one step at a time.
function* sweep(from, to) {
  for (let k = from; ; ) {
    for (; k < to; k++) yield k;
    for (; k > from; k--) yield k;
  }
}

const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const fmt = (x) => x.toFixed(1).padStart(6);
const stats = (xs) => `${fmt(pct(xs, 50))} ${fmt(pct(xs, 95))} ${fmt(Math.max(...xs))}`;

// In the page, before its own scripts: resolves after the pending frame is
// painted (a message posted from an animation-frame callback arrives once that
// frame's style, layout and paint are done).
function installAfterPaint() {
  window.__afterPaint = () => new Promise((r) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => r(performance.now());
    ch.port2.postMessage(0);
  }));
}

async function firstChart(page) {
  return page.evaluate(async () => {
    const inked = () => {
      // Shown: the page's app is drawn out of sight until its first
      // render's steps are done.
      if (document.querySelector("#app-root.building")) return false;
      const c = document.querySelector("canvas");
      if (!c || !c.width) return false;
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 64) if (d[i] < 200) return true;
      return false;
    };
    while (!inked()) await new Promise((r) => requestAnimationFrame(r));
    return performance.now();
  });
}

// Scrolls the slider into sight, and with it the scenario's `sight` (its
// bottom at the viewport's bottom); a slider that this leaves out of sight
// stops the run.
async function place(page, s) {
  await page.locator(s.slider).scrollIntoViewIfNeeded();
  if (!s.sight) return;
  const shown = await page.evaluate(({ slider, sight }) => {
    document.querySelector(sight).scrollIntoView({ block: "end" });
    const r = document.querySelector(slider).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }, s);
  if (!shown) {
    console.error(`${s.name}: ${s.slider} and ${s.sight} do not fit in one viewport`);
    process.exit(1);
  }
}

// Drags the slider's thumb back and forth until enough input events came.
async function drag(page, s) {
  const el = page.locator(s.slider);
  await place(page, s);
  await page.evaluate((slider) => {
    window.__latency = [];
    document.querySelector(slider).addEventListener("input", (e) => {
      window.__afterPaint().then((painted) => window.__latency.push(painted - e.timeStamp));
    }, true);
  }, s.slider);
  const box = await el.boundingBox();
  const max = await el.evaluate((e) => Number(e.max));
  // The thumb's centre runs from half a thumb in from each end.
  const thumb = 16;
  const x = (k) => box.x + thumb / 2 + ((box.width - thumb) * k) / max;
  const y = box.y + box.height / 2;
  await page.mouse.move(x(s.from), y);
  await page.mouse.down();
  const positions = sweep(s.from, s.to);
  while ((await page.evaluate(() => window.__latency.length)) < MOVES + WARM_UP) {
    for (let i = 0; i < 20; i++) await page.mouse.move(x(positions.next().value), y);
  }
  await page.mouse.up();
  await page.evaluate(() => window.__afterPaint());
  await page.waitForTimeout(100);
  return (await page.evaluate(() => window.__latency)).slice(WARM_UP, WARM_UP + MOVES);
}

// One synthetic input per frame: the cost of each step on its own.
async function work(page, s) {
  const positions = sweep(s.from, s.to);
  const values = Array.from({ length: WARM_UP + MOVES }, () => positions.next().value);
  return page.evaluate(async ({ slider, values, WARM_UP }) => {
    const el = document.querySelector(slider);
    const out = [];
    for (let i = -WARM_UP; i < values.length - WARM_UP; i++) {
      // The app draws in animation-frame callbacks it registers while handling
      // the input; ours before it brackets them in the same frame.
      let before = 0;
      const frameStart = new Promise((r) => requestAnimationFrame(() => { before = performance.now(); r(); }));
      el.value = String(values[i + WARM_UP]);
      const t0 = performance.now();
      el.dispatchEvent(new Event("input", { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      const handled = performance.now() - t0;
      const painted = await window.__afterPaint();
      await frameStart;
      if (i >= 0) out.push(handled + (painted - before));
    }
    return out;
  }, { slider: s.slider, values, WARM_UP });
}

const browser = await launchChromium();
const rows = [];
// ONLY=pattern runs the scenarios whose names match it (a developer's A/B).
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
for (const s of scenarios.filter((s) => !only || only.test(s.name))) {
  const page = await browser.newPage({ viewport: { width: 1280, height: s.height ?? 1000 } });
  // A page that logs an error (a stylesheet its integrity refused, say) is
  // not the app as users get it: its figures would mislead, so none are given.
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  const refuseBroken = () => {
    if (errors.length === 0) return;
    console.error(`${s.name}: the page logged errors, so it is not measured:\n  ${errors.join("\n  ")}`);
    process.exit(1);
  };
  await page.addInitScript(installAfterPaint);
  await page.goto(s.page ?? base + s.url);
  const first = await firstChart(page);
  refuseBroken();
  // Other rows time their steps from the top of the page, as they always have.
  if (s.sight) await place(page, s);
  await page.waitForTimeout(300);
  const perInput = await work(page, s);
  const latency = await drag(page, s);
  refuseBroken();
  rows.push({ name: s.name, slider: s.slider, floor: Boolean(s.page), first, perInput, latency });
  await page.close();
}
await browser.close();

if (jsonOut) {
  const { writeFileSync } = await import("node:fs");
  const q = (xs) => ({ p50: pct(xs, 50), p95: pct(xs, 95), max: Math.max(...xs) });
  writeFileSync(jsonOut, JSON.stringify(rows.map((r) => ({ ...r, latency: q(r.latency), perInput: q(r.perInput) }))));
}
console.log("");
console.log(`${MOVES} inputs each, after ${WARM_UP} not counted; ms. input → painted: a real pointer drag over the slider,`);
console.log("event timestamp to its frame painted. work per input: one input per frame, handled plus that frame's");
console.log("drawing, style, layout and paint. first chart: navigation to a chart with ink on it.");
console.log("scenario".padEnd(56) + " | input → painted p50    p95    max | work per input p50    p95    max | first chart");
for (const r of rows) {
  console.log(`${r.name.padEnd(56)} |              ${stats(r.latency)} |             ${stats(r.perInput)} | ${fmt(r.first)}`);
}
