#!/usr/bin/env bash
# Installs whatever is missing, then runs every check: format, clippy, native
# tests, browser tests in headless Chromium, and the release build.
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
say "all checks passed"
