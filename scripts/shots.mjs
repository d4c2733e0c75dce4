// Screenshots of one element of the built app for looking at a change:
// node scripts/shots.mjs URL OUTDIR SELECTOR [query ...]; each query at 1280
// and 390 px, light and dark. A developer's tool: tests assert, this shows.
import { launchChromium } from "./chromium.mjs";

const [base, out, selector, ...queries] = process.argv.slice(2);
const browser = await launchChromium();
for (const [qi, query] of queries.entries()) {
  for (const width of (process.env.WIDTHS ?? "1280,390").split(",").map(Number)) {
    for (const scheme of ["light", "dark"]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme, deviceScaleFactor: 1 });
      await page.goto(`${base}?${query}`);
      const el = page.locator(selector).first();
      await el.waitFor();
      await el.scrollIntoViewIfNeeded();
      await page.waitForTimeout(600);
      const path = `${out}/q${qi}-${width}-${scheme}.png`;
      await el.screenshot({ path });
      console.log(path);
      await page.close();
    }
  }
}
await browser.close();
