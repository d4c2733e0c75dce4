#!/usr/bin/env bash
# Builds the release app and measures it in headless Chromium (a benchmark,
# not a test: it reports, it does not judge), then the native engine. Progress
# goes to stderr; at the end one table on stdout, each row beside its goal.
source "$(dirname "$0")/env.sh"
setup_test_tools
cd "$ROOT"
(cd "$ROOT" && npm ci --no-audit --no-fund >/dev/null)
say "release build"
with_release_env trunk build --release >/dev/null
# Everything lands in $out; scripts/bench-table.mjs prints it as one table.
out=$(mktemp -d)
say "bundle (gzip -9)"
size() { # label goal-bytes files...
  local label=$1 goal=$2 total=0 f gz
  shift 2
  for f in "$@"; do
    gz=$(gzip -9c "$f" | wc -c); total=$((total + gz))
    printf '  %-44s %9d bytes %8d gzip\n' "$f" "$(stat -c %s "$f")" "$gz" >&2
  done
  printf '%s\t%d\t%s\n' "$label" "$total" "$goal" >>"$out/bundle.tsv"
}
first_paint=(dist/index.html dist/style.css dist/boot.js dist/prerender-restarts-light.svg dist/prerender-load-light.svg)
size "first paint (the view drawn at build time)" 30000 "${first_paint[@]}"
# The page's wasm's glue imports wasm-bindgen's snippet (the second wasm's loader).
app=(dist/crashloop-explorer-page.js dist/snippets/*/*.js dist/crashloop-explorer-page_bg.wasm)
size "CrashLoopBackOff view running (+ JS glue and wasm)" 260000 "${first_paint[@]}" "${app[@]}"
# The element's module loads a wasm of its own (the embed alone), whose glue imports the same snippet.
size "<crashloop-explorer> (its module, glue, wasm)" 210000 dist/crashloop-explorer-element.js dist/crashloop-explorer-embed.js dist/snippets/*/*.js dist/crashloop-explorer-embed_bg.wasm
size "the JS API's module (the app and the API: its glue and wasm)" "" dist/crashloop-explorer.js dist/snippets/*/*.js dist/crashloop-explorer_bg.wasm
size "+ Job or cluster view, pod reader, audit or exports (second wasm, cached after the first)" "" dist/crashloop-explorer-extras.js dist/crashloop-explorer-extras_bg.wasm
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$out"' EXIT
sleep 1
say "browser latency (200 slider moves per scenario)"
node scripts/bench.mjs "http://127.0.0.1:$port/" "$out/browser.json" >&2
say "each tab's first open on the mobile profile (slow 4G, 4 × CPU), against a gzip server"
tabport=$(free_port)
node scripts/gzip-server.mjs dist "$tabport" &
tabserver=$!
sleep 1
node scripts/bench-tabs.mjs "http://127.0.0.1:$tabport/" "$out/tabs.json" >&2
kill $tabserver 2>/dev/null || true
say "Lighthouse (mobile profile, performance) against a gzip server"
lh="$ROOT/target/lighthouse"
[ -x "$lh/node_modules/.bin/lighthouse" ] || npm install --prefix "$lh" --no-audit --no-fund --silent "lighthouse@$LIGHTHOUSE_VERSION" >/dev/null
gzport=$(free_port)
node scripts/gzip-server.mjs dist "$gzport" &
gzserver=$!
trap 'kill $server $gzserver 2>/dev/null; rm -rf "$out"' EXIT
sleep 1
lighthouse() { # url report
  CHROME_PATH=/usr/bin/chromium "$lh/node_modules/.bin/lighthouse" "$1" --quiet \
    --chrome-flags="--headless=new --no-sandbox" --only-categories=performance \
    --output=json --output-path="$2" >/dev/null 2>&1 || die "lighthouse failed"
}
for run in 1 2 3; do
  lighthouse "http://127.0.0.1:$gzport/" "$out/lighthouse-$run.json"
  node -e '
    const r = require(process.argv[1]); const a = r.audits;
    const el = (a["lcp-breakdown-insight"]?.details?.items || []).find((i) => i.type === "node");
    console.log(`run ${process.argv[2]}: performance ${Math.round(r.categories.performance.score * 100)}, LCP ${a["largest-contentful-paint"].displayValue}, FCP ${a["first-contentful-paint"].displayValue}, TBT ${a["total-blocking-time"].displayValue}, CLS ${a["cumulative-layout-shift"].displayValue} (LCP element: ${el ? el.selector : "?"})`);
  ' "$out/lighthouse-$run.json" "$run" >&2
done
# The floor: a plain page (no wasm, no framework) on the same profile. Its
# longest task is the browser's own: committing the navigation (creating
# the page's script context) now and then runs past 50 ms on the 4 ×
# slowed CPU, an empty page's as the app's.
say "Lighthouse's floor: the plain page, three runs"
floorport=$(free_port)
node scripts/gzip-server.mjs scripts "$floorport" &
floorserver=$!
trap 'kill $server $gzserver $floorserver 2>/dev/null; rm -rf "$out"' EXIT
sleep 1
for run in 1 2 3; do
  lighthouse "http://127.0.0.1:$floorport/bench-floor.html" "$out/floor-lighthouse-$run.json"
done
kill $floorserver 2>/dev/null || true
say "engine (native)"
cargo bench --bench speed 2>/dev/null | grep -E 'µs|restarts' | tee "$out/engine.txt" >&2
# Natively, glibc hands the freed megabytes of a day's restarts back to the
# kernel after each run, so the next run's first writes fault every page in
# again (under perf, 60% of the 24 h run); the wasm's memory, once grown, is
# reused. Again with glibc told to keep its memory, as the wasm does.
say "engine (native), memory kept as the wasm keeps it"
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456 \
  cargo bench --bench speed 2>/dev/null | grep -E '^(simulate: 24 h|horizon |cluster sweep)' | sed 's/^/memory kept: /' | tee -a "$out/engine.txt" >&2
say "pods --follow (native): 10,000 pods and a day of watch events"
cargo bench --bench follow 2>/dev/null | grep -E 'µs$|MB$' | tee -a "$out/engine.txt" >&2
say "the readers under AFL++, 60 s each"
# A benchmark reports: what the fuzzer found is a row, not an abort.
{ bash scripts/fuzz.sh 60 2>&1 || true; } | tee -a /dev/stderr | grep -E '^  [a-z_]+: .* runs' >"$out/fuzz.txt" || true
chromium_version=$(/usr/bin/chromium --version 2>/dev/null | head -1)
echo "$(date -u +%F), $(nproc) cores, ${chromium_version:-Chromium} headless (software rendering), release build" >"$out/machine.txt"
say "all of it"
node scripts/bench-table.mjs "$out"
rm -rf "$out"
