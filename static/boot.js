// Loads the app. An external module rather than Trunk's injected inline
// script, so that the Content-Security-Policy can forbid inline scripts.
//
// The view drawn at build time is the bare address's; a link shows its own
// state once the app runs, so until then it says it is loading instead of
// showing other figures.
if (location.search.replace(/^\?/, "") !== "" || location.hash !== "") {
  const pre = document.getElementById("prerender");
  const note = document.createElement("p");
  note.className = "hint";
  note.textContent = "Loading this link's view…";
  pre?.replaceChildren(note);
}

// The second wasm (src/app/lazy.rs: the Job and cluster views, the pod
// reader, the watch, the audit, the exports) into the browser's cache,
// where `load_extras` finds it when a tab first opens.
let preloaded = false;
function preloadExtras(priority = "auto") {
  if (preloaded) return;
  preloaded = true;
  for (const [rel, file, as] of [["modulepreload", "crashloop-explorer-extras.js"], ["preload", "crashloop-explorer-extras_bg.wasm", "fetch"]]) {
    const link = document.createElement("link");
    link.rel = rel;
    link.fetchPriority = priority;
    link.href = new URL(`./${file}`, import.meta.url).href;
    if (as) {
      link.as = as;
      link.crossOrigin = "anonymous";
    }
    document.head.append(link);
  }
}
// A link to the Job or cluster view needs it at once: fetched beside the
// first instead of after it has started.
const opensExtras = ["job", "cluster"].includes(new URLSearchParams(location.search).get("view"));
if (opensExtras) preloadExtras();

// A panic aborts the wasm (wasm32 has no unwinding) with a RuntimeError
// the page cannot recover from: say so, and how to go on.
addEventListener("error", (e) => {
  if (!(e.error instanceof WebAssembly.RuntimeError) || document.getElementById("app-stopped")) return;
  const note = document.createElement("p");
  note.id = "app-stopped";
  note.className = "notices";
  note.setAttribute("role", "alert");
  note.textContent = "The explorer stopped on an internal error. Reload the page to start again (the address keeps your settings), and please report the link if it happens again.";
  document.body.prepend(note);
});

// The page already shows the first view drawn at build time: the wasm is
// fetched once that has painted, its charts' images included, so it does
// not compete with them for the network (on a slow link the figures and
// charts come first, and the largest paint is not held behind the wasm).
// Painted means on screen: where the browser reports its largest paint,
// that report (a frame's main-thread work done is not yet its paint shown,
// and a wasm asked for between the two was once counted before the paint),
// for at most `PAINT_WAIT_MS`; elsewhere, and in a tab out of sight, which
// paints nothing, the task after the next frame.
const PAINT_WAIT_MS = 250;
await Promise.all([...document.querySelectorAll("#prerender img")].map((img) => img.decode().catch(() => {})));
await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
if (document.querySelector("#prerender img") && document.visibilityState === "visible" && PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint")) {
  let seen;
  await new Promise((shown) => {
    seen = new PerformanceObserver((list) => {
      if (list.getEntries().some((e) => e.element?.closest("#prerender"))) shown();
    });
    seen.observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(shown, PAINT_WAIT_MS);
  });
  seen.disconnect();
}
// The wasm is fetched beside its glue rather than after it: on a slow link
// the glue and its snippet are two round trips the wasm need not wait for.
const wasmUrl = new URL("./crashloop-explorer-page_bg.wasm", import.meta.url).href;
// The second wasm next, at a low priority, from the moment the first's
// last byte is here (its resource timing entry): its download (600 KB,
// seconds on a slow link) then runs while the first compiles and renders,
// which need no network, and while the reader reads, so that a tab opens
// from the cache; it yields to anything the page asks for meanwhile. Not
// where the reader asked to save data: there it comes when a part is first
// needed, or a pointer rests on a tab.
const prefetch = !opensExtras && !navigator.connection?.saveData;
if (prefetch && PerformanceObserver.supportedEntryTypes?.includes("resource")) {
  const seen = new PerformanceObserver((list) => {
    if (!list.getEntries().some((e) => e.name === wasmUrl)) return;
    seen.disconnect();
    preloadExtras("low");
  });
  seen.observe({ type: "resource", buffered: true });
}
const wasmResponse = fetch(wasmUrl);
const { default: init, ...bindings } = await import("./crashloop-explorer-page.js");

const wasm = await init({ module_or_path: wasmResponse });
window.wasmBindings = bindings;
bindings.start();
// Where no resource timing says so, the second wasm after the app's first render.
if (prefetch) setTimeout(() => preloadExtras("low"), 0);
// The JS API (resolve, simulate, explore, audit, mount) is not in this
// page's module: `await crashloopExplorer()` in the console fetches its
// module, crashloop-explorer.js, once, and gives its functions.
let api;
window.crashloopExplorer = () => (api ??= import("./crashloop-explorer.js")
  .then(async (m) => { await m.default({ module_or_path: new URL("./crashloop-explorer_bg.wasm", import.meta.url) }); return m; })
  .catch((e) => { api = undefined; throw e; }));
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
