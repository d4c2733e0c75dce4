import { launchChromium } from "./chromium.mjs";
const [url, out] = process.argv.slice(2);
const browser = await launchChromium();
for (const [name, width, scheme] of [["light", 1280, "light"], ["dark", 1280, "dark"], ["narrow", 360, "light"]]) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  page.on("console", (m) => { if (m.type() === "error") console.log("console:", m.text()); });
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  await page.goto(url);
  await page.waitForSelector("#chart-setting", { timeout: 20000 });
  await page.waitForTimeout(600);
  if (name === "narrow") {
    const h = await page.evaluate(() => document.body.scrollHeight);
    for (let y = 0, i = 0; y < h; y += 1100, i++) {
      await page.screenshot({ path: `${out}-${name}-${i}.png`, clip: { x: 0, y, width: 360, height: 1100 }, fullPage: true });
    }
  } else {
    await page.screenshot({ path: `${out}-${name}.png`, fullPage: true });
  }
  await page.close();
}
await browser.close();
