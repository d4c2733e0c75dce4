// axe-core's WCAG 2.x A and AA rules and its best practices on the release
// build (colour contrast among them), in the states where the app puts
// colour on colour: the main view with a bad link's notices and
// every <details> open (the audit's verdict badges, the lifecycle's proposal
// badge), the Job view refusing an invalid rule, and the embed; each in the
// light and the dark theme (from the system, and from the link's theme=),
// plus the main view under forced colours. Fails on
// any violation, naming the rule, the element and, for contrast, its
// colours. Run through
// scripts/test.sh with the URL dist/ is served on.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { launchChromium } from "./chromium.mjs";

const base = process.argv[2];
const describe = readFileSync(new URL("../tests/fixtures/api-describe.txt", import.meta.url), "utf8");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const browser = await launchChromium();
const rules = { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } };

// Each state: a link, then what a user does to reach it.
const states = [
  ["main view, notices, every panel open, a pod diagnosed", "?v=1.37&n=abc", async (page) => {
    await page.waitForSelector(".notices");
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
    // The pod reader and the audit (the second wasm) load when opened.
    await page.waitForSelector("#pod-text");
    await page.waitForSelector("#claim-client-rate-limit");
    await page.fill("#pod-text", describe);
    await page.waitForSelector("#pod-alternatives-0");
  }],
  ["Job view refusing an invalid rule", "?v=1.37&view=job", async (page) => {
    await page.click("#add-rule");
    await page.fill("#rule-1-values", "0, 1");
    await page.waitForSelector("#job-errors");
  }],
  ["cluster view", "?v=1.37&view=cluster", async (page) => {
    await page.waitForSelector("#setting-snippets pre");
  }],
  ["embed", "?v=1.37&embed=1&controls=initial,max,pods", async () => {}],
];
const looks = [
  ["light", { colorScheme: "light" }],
  ["dark", { colorScheme: "dark" }],
  // The page's own choice over the system's, as an embed in a dark docs page gets it.
  ["dark by theme= on a light system", { colorScheme: "light" }, "&theme=dark"],
  ["forced colours", { colorScheme: "light", forcedColors: "active" }],
  // A phone: tables and code scroll sideways there, and must be reachable by keyboard.
  ["light, 390 px", { colorScheme: "light" }, "", 390],
];

let failures = 0;
// Each violation: its rule, the element, and what axe found.
const say = (result) => {
  for (const v of result.violations) {
    for (const n of v.nodes) console.log(`  ${v.id}: ${n.target.join(" ")}: ${[...n.any, ...n.all, ...n.none].map((a) => a.message).join("; ")}`);
  }
};
for (const [look, media, extra = "", width = 1280] of looks) {
  for (const [what, query, reach] of states) {
    if (media.forcedColors && !what.startsWith("main")) continue;
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.emulateMedia(media);
    await page.goto(base + query + extra);
    await page.waitForSelector("main.app canvas, main.app .lifecycle", { timeout: 20_000 });
    await reach(page);
    const want = new URLSearchParams(extra).get("theme");
    const got = await page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    if (want && got !== want) {
      console.log(`  ${look}, ${what}: data-theme is ${got}, the link said ${want}`);
      failures++;
    }
    // Evaluated by the browser's debugger, so the page's CSP does not apply.
    await page.evaluate(axeSource);
    const result = await page.evaluate((rules) =>
      window.axe.run(document, rules), rules);
    const nodes = result.violations.flatMap((v) => v.nodes);
    const checked = result.passes.flatMap((v) => v.nodes).length;
    console.log(`axe, ${look}, ${what}: ${nodes.length} violations, ${checked} checks pass`);
    say(result);
    failures += nodes.length;
    await page.close();
  }
}
// Two <crashloop-explorer> elements on a docs-like page (axe reads open
// shadow roots): their theme attribute light, then dark, on either system.
for (const [look, media, theme] of [["light", { colorScheme: "dark" }, "light"], ["dark", { colorScheme: "light" }, "dark"]]) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.emulateMedia(media);
  await page.goto(base + "examples/element.html");
  await page.waitForSelector("crashloop-explorer .app canvas", { timeout: 20_000 });
  await page.evaluate((theme) => document.querySelectorAll("crashloop-explorer").forEach((e) => e.setAttribute("theme", theme)), theme);
  await page.waitForFunction((theme) => [...document.querySelectorAll("crashloop-explorer")].every((e) => e.getAttribute("data-theme") === theme), theme);
  // Scrolled through once, as a reader would: parts drawn only in sight
  // (content-visibility) are then laid out at their own size.
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
      scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    scrollTo(0, 0);
  });
  await page.evaluate(axeSource);
  const result = await page.evaluate((rules) =>
    window.axe.run(document.querySelectorAll("crashloop-explorer"), rules), rules);
  const nodes = result.violations.flatMap((v) => v.nodes);
  const checked = result.passes.flatMap((v) => v.nodes).length;
  console.log(`axe, two <crashloop-explorer> elements, theme="${theme}" on a ${media.colorScheme} system: ${nodes.length} violations, ${checked} checks pass`);
  say(result);
  failures += nodes.length + (checked > 50 ? 0 : 1);
  await page.close();
}
await browser.close();
if (failures) {
  console.error(`${failures} accessibility violations`);
  process.exit(1);
}
