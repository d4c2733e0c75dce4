// Each tab's first open under Lighthouse's mobile profile (slow 4G: 562.5 ms
// latency, 1.47 Mbit/s down; the CPU 4 × slower), cold cache, the click 5 s
// after the page's load event: from the click to the tab's content drawn.
// node scripts/bench-tabs.mjs URL [out.json]; run by scripts/bench.sh.
import { launchChromium } from "./chromium.mjs";

const [base, jsonOut] = process.argv.slice(2);
// What is clicked, and what shows the tab's content is there (a canvas
// with ink, or the element the part draws first).
const tabs = [
  { name: "Job view", click: "#nav-job", ready: { canvas: "#chart-job" } },
  { name: "cluster view", click: "#nav-cluster", ready: { canvas: "#chart-cluster" } },
  { name: "Diagnose a real pod", click: "#diagnose summary", ready: { element: "#pod-text" } },
  { name: "Watch this cluster", click: "#live summary", ready: { element: "#live-status" } },
  { name: "KEP claims audit", click: "#audit summary", ready: { element: "#show-client-rate-limit" } },
  { name: "Export", click: "#exports summary", ready: { element: "#download-api-load-svg" } },
];

const browser = await launchChromium();
const rows = [];
for (const tab of tabs) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1474.56 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(base + "?v=1.37", { waitUntil: "load", timeout: 120_000 });
  await page.waitForTimeout(5_000);
  await page.locator(tab.click).scrollIntoViewIfNeeded();
  const t0 = await page.evaluate(() => performance.now());
  await page.click(tab.click);
  const drawn = await page.waitForFunction((ready) => {
    if (ready.element) return document.querySelector(ready.element) && performance.now();
    const c = document.querySelector(ready.canvas);
    if (!c || !c.width) return false;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 64) if (d[i] < 200 && d[i + 3] > 0) return performance.now();
    return false;
  }, tab.ready, { timeout: 60_000, polling: "raf" });
  const ms = (await drawn.jsonValue()) - t0;
  rows.push({ name: tab.name, ms });
  console.log(`${tab.name.padEnd(24)} ${ms.toFixed(0).padStart(6)} ms from the click to its content`);
  await context.close();
}
await browser.close();
if (jsonOut) (await import("node:fs")).writeFileSync(jsonOut, JSON.stringify(rows));
