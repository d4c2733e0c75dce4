// Measures the release app in headless Chromium: the work each input costs
// (handling it, and drawing in the next frame), input-to-drawn-frame latency
// over 200 slider moves, and the time to the first chart,
// for three scenarios. Prints one table. Run through scripts/bench.sh.
import { chromium } from "playwright-core";

const base = process.argv[2];
const scenarios = [
  { name: "default (30 min, 110 pods)", url: "", slider: "#pods", values: (i) => 50 + (i % 150) },
  {
    name: "worst (250 pods, 24 h, 1 s cap, 4 scenarios, 3 groups)",
    url: "?i=25ms&x=1s&h=24h0m0s&rq=expiry&g=100.0s.f.A.0s.lockstep&g=100.0s.f.A.10m0s.spread&g=50.30s.f.A.10m0s.slow&c=rapid,initial-25ms,new-default",
    slider: "#pods",
    values: (i) => 60 + (i % 40),
  },
  { name: "Job view", url: "?view=job&js=exit%201", slider: "#job-run", values: (i) => i % 10 },
];

const WARM_UP = 20;
const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const fmt = (x) => x.toFixed(1).padStart(7);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"],
});
const rows = [];
for (const s of scenarios) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(base + s.url);
  // Navigation to the first chart with ink on it.
  const firstChart = await page.evaluate(async () => {
    const inked = () => {
      const c = document.querySelector("canvas");
      if (!c || !c.width) return false;
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 64) if (d[i] < 200) return true;
      return false;
    };
    while (!inked()) await new Promise((r) => requestAnimationFrame(r));
    return performance.now();
  });
  await page.waitForTimeout(300);
  const times = await page.evaluate(async ({ slider, values, WARM_UP }) => {
    const el = document.querySelector(slider);
    const pick = new Function("i", `return (${values})(i)`);
    const idle = [], frame = [];
    // The first moves run while the browser still compiles the wasm's hot
    // code with its optimizing tier; they are not counted.
    for (let i = -WARM_UP; i < 200; i++) {
      // The app draws in animation-frame callbacks it registers while handling
      // the input; ours before and after bracket them in the same frame.
      let before = 0;
      const frameStart = new Promise((r) => requestAnimationFrame(() => { before = performance.now(); r(); }));
      el.value = String(pick(i + WARM_UP));
      const t0 = performance.now();
      el.dispatchEvent(new Event("input", { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      const handled = performance.now() - t0;
      // A message posted from the last animation-frame callback arrives once
      // the frame's style, layout and paint are done.
      const after = await new Promise((r) =>
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => r(performance.now());
          ch.port2.postMessage(0);
        }),
      );
      await frameStart;
      if (i < 0) continue;
      idle.push(handled + (after - before));
      frame.push(after - t0);
    }
    return { idle, frame };
  }, { slider: s.slider, values: s.values.toString(), WARM_UP });
  rows.push({ name: s.name, firstChart, ...times });
  await page.close();
}
await browser.close();

console.log("");
console.log(`200 slider moves each, after ${WARM_UP} not counted. work = handling the input + the next frame (its drawing, style, layout and paint);`);
console.log("frame = input to that frame painted (includes waiting for vsync). First chart = navigation to the first chart with ink on it.");
console.log("scenario".padEnd(58) + " |       work ms p50     p95     max |       frame ms p50     p95     max | first chart ms");
for (const r of rows) {
  console.log(
    r.name.padEnd(58) + " |             " + fmt(pct(r.idle, 50)) + " " + fmt(pct(r.idle, 95)) + " " + fmt(Math.max(...r.idle)) +
    " |              " + fmt(pct(r.frame, 50)) + " " + fmt(pct(r.frame, 95)) + " " + fmt(Math.max(...r.frame)) +
    " | " + fmt(r.firstChart)
  );
}
