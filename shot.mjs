import { launchChromium } from "./scripts/chromium.mjs";
import fs from "node:fs";
const url = process.argv[2];
const fx = (n) => fs.readFileSync(`tests/fixtures/kubectl/${n}`, "utf8");
const cases = [
  ["table", fx("kubernetesmadeeasy-table-then-describe-grep-state.txt")],
  ["describe", fx("coredns-6321-describe-minikube.txt")],
  ["refused", "kind: Deployment\nmetadata: {name: web}\n"],
];
const browser = await launchChromium();
for (const [w, h] of [[1280, 900], [390, 844]]) {
  for (const scheme of ["light", "dark"]) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, colorScheme: scheme });
    await page.goto(url);
    await page.click("#h-diagnose");
    await page.waitForSelector("#pod-text", { timeout: 20000 });
    for (const [name, text] of cases) {
      await page.fill("#pod-now", name === "describe" ? "2023-09-15T12:39:20Z" : "");
      await page.fill("#pod-text", text);
      await page.waitForTimeout(400);
      const el = await page.$("section.diagnose");
      await el.screenshot({ path: `/tmp/shots/${name}-${w}-${scheme}.png` });
    }
    if (w === 390) {
      await page.goto(url);
      await page.waitForTimeout(800);
      await page.screenshot({ path: `/tmp/shots/first-${w}-${scheme}.png` });
    }
    await page.close();
  }
}
await browser.close();
