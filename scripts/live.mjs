// The page's "Watch this cluster" through real kubectl proxy, in headless
// Chromium: node scripts/live.mjs PAGE STUB DIST [pods|nodes], where PAGE is the app as
// kubectl proxy serves it (http://127.0.0.1:PORT/ui/#live), STUB the API
// stub behind it (its /_stub/release lets the watch's next step go) and DIST
// the built app, also served alone to see the panel with no API. `nodes`:
// the stub serves nodes and their /configz (tests/support/apistub.rs
// `serve_nodes`), and the page shows each pod on its own node. Run by
// tests/live.rs.
import { spawn } from "node:child_process";
import { launchChromium } from "./chromium.mjs";
import { partsClicked, clicksProblem, clicksSaid } from "./clicks.mjs";

const [page, stub, dist, mode = "pods"] = process.argv.slice(2);
const browser = await launchChromium();
const problems = [];
const fail = (what) => problems.push(what);
const release = async () => (await fetch(`${stub}/_stub/release`)).text();
const served = async () => (await (await fetch(`${stub}/_stub/requests`)).json());

const tab = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
// The browser logs each refused request; the nodes', their /configz and
// the kubernetes Endpoints (a stub without nodes, a node without access)
// are the page's to say.
// Playwright's fake clock may still call a timer the page has cleared
// while it runs its due timers (wasm-bindgen then says the closure was
// dropped): that is the test's clock, not the page's.
tab.on("console", (m) => {
  if (m.type() !== "error" || /\/api\/v1\/(nodes|namespaces\/default\/endpoints\/kubernetes)|\/prioritylevelconfigurations/.test(m.location().url)) return;
  if (/closure invoked recursively or after being dropped[\s\S]*ClockController\._callFirstTimer/.test(m.text())) return;
  fail(`console error: ${m.text()}`);
});
tab.on("pageerror", (e) => fail(`uncaught: ${e.message}`));
tab.on("request", (r) => { if (!r.url().startsWith(new URL(page).origin) && !r.url().startsWith("data:")) fail(`a request left the page's origin: ${r.url()}`); });
// The page's clock a few minutes before the stub's next restarts (10:06:11
// and 10:10:46 on 2026-11-20), flowing from there: the countdowns are
// minutes and seconds, and tick.
await tab.clock.install({ time: new Date("2026-11-20T10:05:00Z") });
await tab.clock.resume();
await tab.goto(page);

// Each row: pod, container, state, restarts, step, back-off, countdown, exit.
const rows = () => tab.$$eval("#live-pods tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
async function until(what, check, timeout = 20_000) {
  const start = Date.now();
  for (;;) {
    const seen = await rows();
    if (check(seen)) return seen;
    if (Date.now() - start > timeout) {
      fail(`${what}: not seen in ${timeout / 1000} s; the table: ${JSON.stringify(seen)}; the status: ${await tab.textContent("#live-status").catch(() => "none")}`);
      return seen;
    }
    await tab.waitForTimeout(100);
  }
}
const pods = (seen) => [...new Set(seen.map((r) => r[0]))].sort().join(" ");

// Each node row: node, verdict, kubelet, curve from, looping pods, back-offs seen, requests/s.
// A figure keeps its unit with a no-break space; read as a space.
const nodeRows = () => tab.$$eval("#live-nodes tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.replace(/\u00a0/g, " "))));
async function nodesUntil(what, check, timeout = 20_000) {
  const start = Date.now();
  for (;;) {
    const seen = await nodeRows().catch(() => []);
    if (check(seen)) return seen;
    if (Date.now() - start > timeout) {
      fail(`${what}: not seen in ${timeout / 1000} s; the nodes: ${JSON.stringify(seen)}; messages: ${await tab.textContent("#live-messages").catch(() => "none")}`);
      return seen;
    }
    await tab.waitForTimeout(100);
  }
}
const row = (seen, name) => seen.find((r) => r[0] === name) || [];

if (mode === "nodes") {
  try {
    // Listed: node-a refused its /configz (its version's defaults), the
    // others read.
    await nodesUntil("the nodes and their /configz", (s) => s.length === 4
      && row(s, "node-a")[3] === "version defaults" && ["node-b", "node-c", "node-d"].every((n) => row(s, n)[3] === "configz"));
    const notes = async () => await tab.textContent("#live-node-notes").catch(() => "");
    if (!(await notes()).includes('node-a: kubelet v1.33.5\'s shipped defaults (10 s / 5 min; its /configz: Error from server (Forbidden): nodes "node-a" is forbidden')) fail(`node-a: ${await notes()}`);
    for (let i = 0; i < 4; i++) await release(); // each fleet pod restarts once, then a 410
    // Worked out in tests/support/apistub.rs `fleet`.
    const seen = await nodesUntil("the verdicts", (s) => row(s, "node-d")[1] === "disagrees" && row(s, "node-b")[1] === "agrees" && row(s, "node-c")[1] === "agrees");
    for (const [name, backoffs] of [["node-b", "20 s, 30 s"], ["node-c", "4 s, 8 s"], ["node-d", "2 min 40 s, 5 min"]]) {
      if (row(seen, name)[5] !== backoffs) fail(`${name}: ${JSON.stringify(row(seen, name))}`);
    }
    if (row(seen, "node-d")[2] !== "v1.37.0-eks-1a2b3c") fail(`node-d: ${JSON.stringify(row(seen, "node-d"))}`);
    if (!(await notes()).includes("node-d: disagrees: 2 min 40 s, 5 min seen where kubelet 1.37 from its /configz (10 s / 30 s) waits 30 s, 30 s; they fit the shipped defaults before KEP-4603 (10 s / 5 min)")) fail(`node-d: ${await notes()}`);
    // The load now: each node's requests a second, and the cluster's
    // against the system level's seats: the link's limits (tests/live.rs:
    // 800 + 400 in flight) with the system level's 30 of the 345 shares the
    // stub's priority levels hold, ceil(1200 × 30 / 345) = 105 seats a
    // server (147 at a default server's 245), on the two API servers the
    // stub's kubernetes Endpoints lists, not the link's one: 210 seats.
    const load = await tab.textContent("#live-load").catch(() => "");
    if (!/^Load now, the crash loops' next 10 min from where they are on their curves: [0-9.]+ requests\/s to the API server, [0-9.]+ of its 210 system seats busy, .*\(2 replicas, 20 ms a request\)\. 2 API servers, as the cluster's kubernetes Endpoints lists them; their limits are the cluster view's: set them there\. The system level's seats are 30 of 345 shares, as the cluster's PriorityLevelConfigurations set them\.$/.test(load)) fail(`load: ${load}`);
    if (!seen.every((r) => /^[0-9]+\.[0-9]{2}$/.test(r[6]) && Number(r[6]) > 0)) fail(`rates: ${JSON.stringify(seen)}`);
    // A pod's diagnosis says which node facts it used.
    await until("b-0", (s) => s.some((r) => r[0] === "fleet/b-0"));
    await tab.click("#live-pods tbody tr[data-pod='fleet/b-0'] button");
    await tab.waitForSelector("#live-diagnosis");
    const head = await tab.textContent("#live-diagnosis h3");
    if (!head.includes("on node-b: kubelet v1.37.1 from its /configz (10 s / 30 s)")) fail(`b-0: ${head}`);
    // Each /configz once, and nothing but GET.
    const r = await served();
    const configz = r.filter((q) => q.includes("/configz"));
    if (configz.length !== 4) fail(`configz: ${JSON.stringify(configz)}`);
    if (!r.every((q) => q.startsWith("GET "))) fail(`requests: ${JSON.stringify(r)}`);
    if (process.env.LIVE_SHOTS) {
      await tab.clock.setFixedTime(new Date("2026-11-20T10:06:05Z"));
      for (const [name, width, scheme] of [["light", 1280, "light"], ["dark", 1280, "dark"], ["narrow", 360, "light"]]) {
        await tab.setViewportSize({ width, height: 1000 });
        await tab.emulateMedia({ colorScheme: scheme });
        await tab.waitForTimeout(300);
        const clip = await tab.$eval("#live-nodes", (e) => {
          e.scrollIntoView({ block: "center" });
          const t = e.closest(".table-scroll").getBoundingClientRect();
          const n = document.querySelector("#live-node-notes").getBoundingClientRect();
          return { x: 0, y: Math.max(0, t.y - 8), width: document.documentElement.clientWidth, height: Math.min(n.bottom - t.y + 16, 1000) };
        });
        await tab.screenshot({ path: `${process.env.LIVE_SHOTS}/live-nodes-${name}.png`, clip });
        await tab.locator("#live-load").screenshot({ path: `${process.env.LIVE_SHOTS}/live-load-${name}.png` });
      }
    }
    console.log(`live panel, nodes: ${seen.length} nodes, a refused /configz said, two verdicts that agree and one that does not; ${r.length} requests, each /configz once`);
  } catch (e) {
    fail(`${e.stack || e}`);
  }
  await browser.close();
  if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  process.exit(0);
}

try {
  let seen = await until("the list", (s) => pods(s) === "batch/worker-7 default/legacy-1 shop/web-0");
  const web = seen.find((r) => r[0] === "shop/web-0");
  if (web?.[3] !== "5" || web?.[5] !== "2 min 40 s" || web?.[4] !== "5/6") fail(`web-0 first: ${JSON.stringify(web)}`);
  const status = await tab.textContent("#live-status");
  if (!/Watching all namespaces/.test(status)) fail(`status: ${status}`);
  // This stub serves no nodes: the 404 is said, and each pod stays on the
  // kubelet chosen. The nodes' list follows the pods' and is waited for,
  // so that the count below is of a settled page.
  await tab.waitForFunction(() => /the nodes could not be listed/.test(document.querySelector("#live-messages")?.textContent || ""), null, { timeout: 20_000 })
    .catch(() => fail("the nodes' 404 was not said"));
  // Said once: "(HTTP 404 Not Found)", not "(HTTP 404 Not Found, 404)".
  const said = await tab.textContent("#live-messages").catch(() => "");
  if (!/the nodes could not be listed \(HTTP 404 Not Found\)/.test(said)) fail(`the nodes' 404: ${said}`);
  // Nor are the API servers counted: the load stays on the cluster view's
  // (read at the same moment as the nodes, so waited for on its own).
  await tab.waitForFunction(() => /the API servers could not be counted \(HTTP 404 Not Found\): the load is set against the cluster view's replicas/.test(document.querySelector("#live-messages")?.textContent || ""), null, { timeout: 20_000 })
    .catch(async () => fail(`the Endpoints' 404: ${await tab.textContent("#live-messages").catch(() => "none")}`));
  // Nor are the priority levels read: the seats stay a default server's.
  await tab.waitForFunction(() => /the priority levels could not be read \(HTTP 404 Not Found\): the system level's seats are a default API server's/.test(document.querySelector("#live-messages")?.textContent || ""), null, { timeout: 20_000 })
    .catch(async () => fail(`the priority levels' 404: ${await tab.textContent("#live-messages").catch(() => "none")}`));
  // The countdowns tick without a new request.
  const before = [(await rows()).map((r) => r[6]).join("|"), (await served()).length];
  await tab.waitForTimeout(2_100);
  const after = [(await rows()).map((r) => r[6]).join("|"), (await served()).length];
  if (before[0] === after[0] || before[1] !== after[1]) fail(`countdowns: ${before} then ${after}; requests: ${JSON.stringify(await served())}`);

  await release(); // web-0 restarts a sixth time: 5m0s, step 6
  await until("web-0's sixth restart", (s) => s.some((r) => r[0] === "shop/web-0" && r[3] === "6" && r[5] === "5 min" && r[4] === "6/6"));
  await release(); // shop/api-2 appears
  await until("api-2 added", (s) => s.some((r) => r[0] === "shop/api-2" && r[5] === "10 s"));
  await release(); // legacy-1 marked for deletion
  await release(); // and deleted
  seen = await until("legacy-1 gone", (s) => pods(s) === "batch/worker-7 shop/api-2 shop/web-0");
  // Soonest restart first: api-2 (10:06:11), web-0 (10:10:46), worker-7 (none known).
  const order = [...new Set(seen.map((r) => r[0]))].join(" ");
  if (order !== "shop/api-2 shop/web-0 batch/worker-7") fail(`order: ${order}`);
  await release(); // a malformed event: said, skipped
  await tab.waitForFunction(() => /not JSON/.test(document.querySelector("#live-messages")?.textContent || ""), null, { timeout: 20_000 })
    .catch(() => fail("the malformed event was not said"));
  await release(); // 410 Gone: the page lists again and watches from the new list
  await tab.waitForFunction(() => /410 Expired/.test(document.querySelector("#live-messages")?.textContent || ""), null, { timeout: 20_000 })
    .catch(() => fail("the 410 was not said"));
  const start = Date.now();
  let relisted = false;
  while (!relisted && Date.now() - start < 20_000) {
    const r = await served();
    const lists = r.filter((q) => /^GET \/api\/v1\/pods\?limit=500 /.test(q)).length;
    relisted = lists === 2 && r.some((q) => /watch=1.*resourceVersion=4248/.test(q));
    if (!relisted) await tab.waitForTimeout(100);
  }
  if (!relisted) fail(`no list and watch after the 410: ${JSON.stringify(await served())}`);
  seen = await until("after the relist", (s) => pods(s) === "batch/worker-7 shop/api-2 shop/web-0");
  // A click shows the pod's full diagnosis.
  await tab.click("#live-pods tbody tr[data-pod='shop/web-0'] button");
  await tab.waitForSelector("#live-diagnosis");
  const diagnosis = await tab.textContent("#live-diagnosis");
  if (!/shop\/web-0/.test(diagnosis) || !/restartCount6/.test(diagnosis.replace(/\s/g, ""))) fail(`diagnosis: ${diagnosis.slice(0, 300)}`);
  // The restarts seen so far, against the curve (one status of web-0: no
  // wait between two runs seen yet).
  const curves = await tab.textContent("#live-curves").catch(() => "");
  if (!curves.startsWith("app: not enough restarts seen yet")) fail(`curves: ${curves}`);
  // LIVE_SHOTS=DIR: the panel in light, dark and at 360 px, to look at,
  // the clock set just after api-2's exit (the stub's pods are from then).
  if (process.env.LIVE_SHOTS) {
    await tab.clock.setFixedTime(new Date("2026-11-20T10:06:05Z"));
    await tab.waitForTimeout(1_200);
    for (const [name, width, scheme] of [["light", 1280, "light"], ["dark", 1280, "dark"], ["narrow", 360, "light"]]) {
      await tab.setViewportSize({ width, height: 1000 });
      await tab.emulateMedia({ colorScheme: scheme });
      await tab.waitForTimeout(300);
      const clip = await tab.$eval("#live", (e) => { e.scrollIntoView(); const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: Math.min(r.height, 1000) }; });
      await tab.screenshot({ path: `${process.env.LIVE_SHOTS}/live-${name}.png`, clip });
    }
    // The README's: the panel down to its table.
    await tab.setViewportSize({ width: 1280, height: 1000 });
    await tab.emulateMedia({ colorScheme: "light" });
    await tab.waitForTimeout(300);
    const clip = await tab.$eval("#live", (e) => {
      e.scrollIntoView();
      const r = e.getBoundingClientRect();
      const t = document.querySelector("#live-pods").getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: t.bottom - r.y + 8 };
    });
    await tab.screenshot({ path: `${process.env.LIVE_SHOTS}/live.png`, clip });
  }
  console.log(`live panel: listed ${seen.length} looping containers, followed a restart, an added and a deleted pod, skipped a malformed event, listed again after a 410; ${(await served()).length} requests to the API`);
  // Last, as it changes the panel: a click on each of its controls (its
  // pods' rows, the diagnosis, the kubelet assumed, Watch) changes nothing
  // of the page's outside it (scripts/clicks.mjs).
  const what = "the cluster watch, watching";
  const clicks = await tab.evaluate(partsClicked);
  const problem = clicksProblem(what, ["live"], clicks);
  if (problem) fail(problem);
  else console.log(`${what}: a click on each control of the part (${clicksSaid(clicks)}) changed nothing of the page's outside it`);
} catch (e) {
  fail(`${e.stack || e}`);
}

// The same page where no API answers: the panel says how to start one.
const port = 20_000 + Math.floor(Math.random() * 20_000);
const alone = spawn("node", ["scripts/gzip-server.mjs", dist, String(port)], { stdio: "ignore" });
try {
  await new Promise((r) => setTimeout(r, 500));
  const bare = await browser.newPage();
  await bare.goto(`http://127.0.0.1:${port}/#live`);
  await bare.waitForSelector("#live-no-api", { timeout: 20_000 });
  const command = await bare.textContent("#live-command");
  if (command !== "kubectl proxy --www=dist --www-prefix=/ui/") fail(`no API: ${command}`);
  else console.log("with no API at its origin, the panel shows the command that starts one");
  const problem = clicksProblem("the cluster watch, with no API", ["live"], await bare.evaluate(partsClicked));
  if (problem) fail(problem);
} catch (e) {
  fail(`no API: ${e.message}`);
} finally {
  alone.kill();
}

await browser.close();
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
