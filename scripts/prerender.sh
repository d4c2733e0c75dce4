#!/usr/bin/env bash
# Trunk's post_build hook: the native binary draws the first view into the
# staged index.html and writes the minified stylesheet (crashloop-explorer
# prerender); the wasm's bindings get short names (scripts/shorten-bindings.mjs);
# in a release build, each wasm's functions are put in the order gzip does best
# with (scripts/order-functions.mjs) and terser minifies the staged JS modules
# (Trunk's own JS minifier fails on ES modules). It runs with the wasm
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
node "$root/scripts/shorten-bindings.mjs" "$staging"
if [ "${TRUNK_PROFILE:-}" = release ]; then
  node "$root/scripts/order-functions.mjs" "$staging"
  # Every module as it ships: wasm-bindgen's glue (its exports keep their
  # names), boot.js, the custom element and the second wasm's loader.
  for js in "$staging"/*.js "$staging"/snippets/*/*.js; do
    [ -f "$js" ] || continue
    "$root/node_modules/.bin/terser" "$js" --module --compress --mangle --output "$js.min"
    mv "$js.min" "$js"
  done
fi
