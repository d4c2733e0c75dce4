#!/usr/bin/env bash
# Builds the release app and measures it in headless Chromium (a benchmark,
# not a test: it reports, it does not judge). Then the native engine benchmark.
source "$(dirname "$0")/env.sh"
setup_test_tools
cd "$ROOT"
(cd "$ROOT" && npm ci --no-audit --no-fund >/dev/null)
say "release build"
with_wasm_env trunk build --release >/dev/null
say "bundle (everything the first paint needs)"
total=0
for f in dist/index.html dist/style.css dist/crashloop-explorer.js dist/crashloop-explorer_bg.wasm; do
  raw=$(stat -c %s "$f"); gz=$(gzip -9c "$f" | wc -c); total=$((total + gz))
  printf '%-40s %9d bytes %8d gzip\n' "$f" "$raw" "$gz"
done
printf '%-40s %9s       %8d gzip (budget 358400)\n' "total" "" "$total"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 1
say "browser latency (200 slider moves per scenario)"
node scripts/bench.mjs "http://127.0.0.1:$port/"
say "engine (native)"
cargo bench --bench speed 2>/dev/null | grep -E 'µs|restarts'
