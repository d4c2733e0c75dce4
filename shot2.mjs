import { launchChromium } from "./scripts/chromium.mjs";
import fs from "node:fs";
const url = process.argv[2];
const browser = await launchChromium();
for (const [w, h] of [[1280, 900], [390, 844]]) {
  for (const scheme of ["light", "dark"]) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, colorScheme: scheme });
    await page.goto(url + "?view=job");
    await page.waitForSelector("#job-backoff-limit", { timeout: 20000 });
    await page.fill("#job-backoff-limit", "abc");
    await page.waitForTimeout(400);
    await page.screenshot({ path: `/tmp/shots/job-${w}-${scheme}.png`, fullPage: false });
    const res = await page.$("section.results");
    await res.screenshot({ path: `/tmp/shots/job-results-${w}-${scheme}.png` });
    await page.goto(url);
    await page.click("#h-diagnose");
    await page.waitForSelector("#pod-text", { timeout: 20000 });
    await page.fill("#pod-now", "2023-09-15T12:39:20Z");
    await page.fill("#pod-text", fs.readFileSync("tests/fixtures/kubectl/coredns-6321-describe-minikube.txt", "utf8"));
    await page.waitForTimeout(400);
    const el = await page.$("section.diagnose");
    await el.screenshot({ path: `/tmp/shots/describe2-${w}-${scheme}.png` });
    await page.close();
  }
}
await browser.close();
