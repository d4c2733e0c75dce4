#!/usr/bin/env bash
# Trunk's post_build hook: the native binary draws the first view into the
# staged index.html (crashloop-explorer prerender). It runs with the wasm
# build's environment, which a native build must not take (Debian's
# rustc-web and build-std are for the wasm target).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
staging=${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}
cd "$root"
env -u RUSTC -u RUSTC_BOOTSTRAP -u CARGO_UNSTABLE_BUILD_STD -u CARGO_BUILD_TARGET \
  -u CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS \
  cargo build --quiet --bin crashloop-explorer
"${CARGO_TARGET_DIR:-target}/debug/crashloop-explorer" prerender "$staging"
