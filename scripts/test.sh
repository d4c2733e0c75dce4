#!/usr/bin/env bash
# Installs whatever is missing, then runs every check: format, clippy, native
# tests, browser tests in headless Chromium, the release build, and that build
# loaded under its Content-Security-Policy.
source "$(dirname "$0")/env.sh"
setup_test_tools
cd "$ROOT"

say "format and lint (native)"
cargo fmt --check
cargo clippy --all-targets --quiet -- -D warnings

say "native tests: engine, charts, duration parsing"
cargo test

say "browser tests: the real app in headless Chromium"
with_wasm_env env CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --test browser

say "release build (trunk build --release)"
with_wasm_env trunk build --release
for f in dist/*.wasm dist/*.js; do
  printf '%-55s %8d bytes, %7d gzip\n' "$f" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)"
done

say "release build in headless Chromium, under its Content-Security-Policy"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 1
node scripts/smoke.mjs "http://127.0.0.1:$port/"
say "all checks passed"
