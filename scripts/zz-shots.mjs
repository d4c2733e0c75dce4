import { launchChromium } from "./chromium.mjs";
import { readFileSync } from "node:fs";
const [url, fixture, out] = process.argv.slice(2);
const text = readFileSync(fixture, "utf8");
const browser = await launchChromium();
for (const [name, width, scheme] of [["light", 1280, "light"], ["dark", 1280, "dark"], ["narrow", 360, "light"]]) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  await page.goto(url);
  await page.waitForSelector("#h-diagnose");
  await page.click("#h-diagnose");
  await page.waitForSelector("#pod-text", { timeout: 20000 });
  await page.fill("#pod-now", "2026-11-26T00:00:00Z");
  await page.fill("#pod-text", text);
  await page.waitForSelector("#pod-result");
  await page.waitForTimeout(300);
  const panel = await page.$("section.diagnose");
  await panel.screenshot({ path: `${out}-${name}.png` });
  await page.close();
}
await browser.close();
