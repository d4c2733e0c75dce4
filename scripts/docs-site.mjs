// A Hugo docs page with two <crashloop-explorer> elements (tests/docs-site,
// built by scripts/docs-site.sh against the release build), as its readers
// get it, in headless Chromium: both explorers render and answer their own
// sliders, the page's light theme wins over a dark system, the host's rough
// CSS stays out, an attribute change updates an instance, the elements are
// as tall as their content, 360 px does not scroll sideways, no policy
// violation or console error; without JavaScript the figures show.
import { launchChromium } from "./chromium.mjs";

const url = process.argv[2];
const browser = await launchChromium();
const problems = [];
const fail = (what) => problems.push(what);
const check = (ok, what) => { if (!ok) fail(what); };

async function open(options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`));
  });
  page.on("console", (m) => { if (m.type() === "error") fail(`console error: ${m.text()}`); });
  page.on("pageerror", (e) => fail(`uncaught: ${e.message}`));
  await page.goto(url);
  return page;
}

// What one explorer shows, read through its shadow root.
const inside = (page, index, script, arg) =>
  page.evaluate(([index, script, arg]) => {
    const root = document.querySelectorAll("crashloop-explorer")[index].shadowRoot;
    return new Function("root", "arg", script)(root, arg);
  }, [index, script, arg]);
const text = (page, index, id) => inside(page, index, "const e = root && root.getElementById(arg); return e ? e.textContent.trim() : null;", id);
const background = (page, index) =>
  inside(page, index, "return getComputedStyle(root.querySelector('.controls')).backgroundColor;");
// A chart out of sight waits to be drawn until it comes near: brought into
// view first, as a reader scrolling to it would.
const inkedScript = `
  const c = root && root.querySelector(arg);
  if (!c || !c.width) return false;
  c.scrollIntoView({ block: "center" });
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  for (let i = 0; i < d.length; i += 16) if (d[i] < 128 && d[i + 3] > 0) return true;
  return false;`;
async function until(page, what, fn) {
  for (let i = 0; i < 200; i++) {
    if (await fn()) return true;
    await page.waitForTimeout(100);
  }
  fail(`timed out waiting for ${what}`);
  return false;
}

const LIGHT_PANEL = "rgb(244, 246, 248)";
const DARK_PANEL = "rgb(22, 27, 34)";

try {
  // A reader whose system is dark, on a light docs site.
  const page = await open({ viewport: { width: 1280, height: 1000 }, colorScheme: "dark" });
  check((await page.locator("crashloop-explorer").count()) === 2, "two <crashloop-explorer> elements on the page");
  for (const i of [0, 1]) {
    await until(page, `explorer ${i}'s restart chart`, () => inside(page, i, inkedScript, "#chart-restarts"));
    await until(page, `explorer ${i}'s load chart`, () => inside(page, i, inkedScript, "#chart-load"));
  }
  // The elements load their own wasm (the embed alone), not the app's.
  const wasm = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name).filter((n) => n.endsWith(".wasm")).map((n) => n.split("/").pop()));
  check(wasm.length === 1 && wasm[0] === "crashloop-explorer-embed_bg.wasm", `the elements fetched ${wasm.join(", ") || "no wasm"}, expected crashloop-explorer-embed_bg.wasm alone`);
  // Each shows the controls its attribute names ("initial,max,pods"; "pods,run"), and no other.
  for (const [i, shown] of [[0, ["initial", "max", "pods"]], [1, ["pods", "run"]]]) {
    for (const id of ["initial", "max", "pods", "run"]) {
      const has = await inside(page, i, "return !!(root && root.getElementById(arg));", id);
      check(has === shown.includes(id), `explorer ${i}: #${id} ${has ? "shown" : "missing"}, its controls attribute names ${shown.join(",")}`);
    }
  }
  // The shortcodes' links are used as written.
  for (const i of [0, 1]) check((await text(page, i, "link-notices")) === null, `explorer ${i} shows notices: ${await text(page, i, "link-notices")}`);
  // The page's theme (light), not the system's (dark).
  for (const i of [0, 1]) check((await background(page, i)) === LIGHT_PANEL, `explorer ${i}: panel ${await background(page, i)}, expected the site's light ${LIGHT_PANEL}`);
  // The host's CSS frames every div and section: none inside the explorers.
  const border = await inside(page, 0, "return getComputedStyle(root.querySelector('.layout')).borderTopWidth;");
  check(border === "0px", `the host's div rule reached inside: border ${border}`);
  // A real key press on the first explorer's pods slider moves only it.
  const before = [await text(page, 0, "head-requests-5m"), await text(page, 1, "head-requests-5m"), await text(page, 0, "pods-value")];
  await page.locator("crashloop-explorer").nth(0).locator("#pods").focus();
  await page.keyboard.press("ArrowRight");
  await until(page, "the first explorer's pods slider", async () => (await text(page, 0, "pods-value")) !== before[2]);
  // Figures out of sight catch up once the controls rest (aria-busy meanwhile).
  await until(page, "the first explorer's figures", async () => (await inside(page, 0, "return !root.querySelector('[aria-busy=\"true\"]');")) === true);
  const after = [await text(page, 0, "head-requests-5m"), await text(page, 1, "head-requests-5m"), await text(page, 0, "pods-value")];
  check(before[2] === "110" && after[2] === "111", `first explorer's pods ${before[2]} → ${after[2]}, expected 110 → 111`);
  check(after[0] !== before[0], `the first explorer's /pods figure stayed ${before[0]}`);
  check(after[1] === before[1], `the second explorer changed with the first's slider: ${before[1]} → ${after[1]}`);
  // Sized to content: the element is as tall as the app inside it.
  for (const i of [0, 1]) {
    const [host, app] = await page.evaluate((i) => {
      const el = document.querySelectorAll("crashloop-explorer")[i];
      return [el.getBoundingClientRect().height, el.shadowRoot.querySelector(".app").getBoundingClientRect().height];
    }, i);
    check(app > 300 && Math.abs(host - app) <= 1, `explorer ${i}: element ${host}px tall, its app ${app}px`);
  }
  // Attributes update the instance: the theme, then the link.
  await page.evaluate(() => document.querySelectorAll("crashloop-explorer")[1].setAttribute("theme", "dark"));
  await until(page, "the second explorer to turn dark", async () => (await background(page, 1)) === DARK_PANEL);
  check((await background(page, 0)) === LIGHT_PANEL, "the first explorer turned dark with the second");
  const firstFive = await text(page, 1, "head-restarts-5m");
  await page.evaluate(() => document.querySelectorAll("crashloop-explorer")[1].setAttribute("link", "v=1.37&m=kep&i=250ms&x=1m"));
  await until(page, "the second explorer to show its new link", async () => (await text(page, 1, "head-restarts-5m")) !== firstFive);
  check((await background(page, 1)) === DARK_PANEL, "the link change lost the theme attribute");
  // And the view: the Job view in the same element.
  await page.evaluate(() => document.querySelectorAll("crashloop-explorer")[1].setAttribute("view", "job"));
  await until(page, "the second explorer's Job chart", () => inside(page, 1, inkedScript, "#chart-job"));
  const violations = await page.evaluate(() => window.__violations);
  for (const v of violations) fail(`policy violation: ${v}`);
  console.log(`docs site: two explorers; pods ${before[2]} → ${after[2]} moved /pods (5 min) ${before[0]} → ${after[0]} in the first only; light on a dark system; theme, link and view attributes applied`);
  await page.context().close();

  // A phone: nothing wider than the screen.
  const phone = await open({ viewport: { width: 360, height: 800 }, colorScheme: "light" });
  for (const i of [0, 1]) await until(phone, `explorer ${i} on a phone`, () => inside(phone, i, inkedScript, "#chart-load"));
  const [scroll, client] = await phone.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  check(scroll <= client, `at 360 px the page scrolls sideways (${scroll} > ${client})`);
  await phone.context().close();

  // Without JavaScript: the figures the CLI drew, inside the elements.
  const still = await open({ viewport: { width: 1280, height: 1000 }, javaScriptEnabled: false });
  await still.waitForLoadState("load");
  const figures = await still.evaluate(() =>
    [...document.querySelectorAll("crashloop-explorer img.crashloop-explorer-figure")].map((i) => [i.naturalWidth, i.getBoundingClientRect().height]));
  check(figures.length === 2 && figures.every(([w, h]) => w === 720 && h > 100), `without JavaScript, figures ${JSON.stringify(figures)}`);
  console.log(`docs site without JavaScript: ${figures.length} figures shown`);
  await still.context().close();
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
}
if (problems.length) {
  for (const p of problems) console.error(`docs site: ${p}`);
  process.exit(1);
}
console.log("docs site: no violations, no errors");
