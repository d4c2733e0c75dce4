import { launchChromium } from "./chromium.mjs";
import { readFileSync } from "fs";
const [base, out] = process.argv.slice(2);
const b = await launchChromium();
for (const width of [1280, 390]) for (const scheme of ["light", "dark"]) {
  const page = await b.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  await page.goto(base);
  await page.waitForSelector("#app-root:not(.building)");
  await page.click("#diagnose summary");
  await page.fill("#pod-now", "2026-11-20T10:01:00Z");
  await page.fill("#pod-text", readFileSync(new URL("../tests/fixtures/web-0.json", import.meta.url), "utf8"));
  await page.waitForFunction(() => document.querySelector("#pod-state-1")?.textContent === "CrashLoopBackOff", null, { timeout: 20_000 });
  await page.waitForTimeout(500);
  const el = page.locator(process.env.SEL || "section.panel.diagnose").first();
  await el.screenshot({ path: `${out}/diag-${width}-${scheme}.png` });
  // the overflow check: anything wider than its box
  const wide = await page.evaluate(() => [...document.querySelectorAll("section.panel.diagnose *")].filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "auto" && e.clientWidth > 0).map(e => e.tagName + "#" + e.id + "." + e.className + " " + e.scrollWidth + ">" + e.clientWidth).slice(0, 8));
  console.log(width, scheme, JSON.stringify(wide));
  await page.close();
}
await b.close();
