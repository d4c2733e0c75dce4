#!/usr/bin/env bash
# Trunk's post_build hook: the native binary draws the first view into the
# staged index.html and writes the minified stylesheet (crashloop-explorer
# prerender); in a release build terser minifies the staged JS modules
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
if [ "${TRUNK_PROFILE:-}" = release ]; then
  # Every module as it ships: wasm-bindgen's glue (its exports keep their
  # names), boot.js, the custom element and the second wasm's loader.
  for js in "$staging"/*.js "$staging"/snippets/*/*.js; do
    [ -f "$js" ] || continue
    "$root/node_modules/.bin/terser" "$js" --module --compress --mangle --output "$js.min"
    mv "$js.min" "$js"
  done
fi
