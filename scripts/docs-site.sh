#!/usr/bin/env bash
# Builds the docs site in tests/docs-site (Hugo) against the release build in
# dist/, with figures drawn by the native CLI, and loads it in headless
# Chromium (scripts/docs-site.mjs). The test command runs it after the
# release build; alone: `bash scripts/docs-site.sh` (after `trunk build --release`).
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -f dist/crashloop-explorer-element.js ] || die "no release build in dist/: run trunk build --release first"
apt_install hugo
work=$(mktemp -d)
site="$work/site"
cp -r tests/docs-site "$site"
mkdir -p "$site/static/figures" "$site/static/crashloop-explorer"
cp -r dist/. "$site/static/crashloop-explorer/"
cargo build --quiet --bin crashloop-explorer
figure() { target/debug/crashloop-explorer figure "$@"; }
figure --link 'v=1.37&m=kep&i=1s' --chart restarts >"$site/static/figures/kep-restarts.svg"
figure --link 'v=1.37&gr=1' --chart load >"$site/static/figures/gate-load.svg"
hugo --quiet --source "$site" --destination "$work/public"
port=$(free_port)
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/public" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
node scripts/docs-site.mjs "http://127.0.0.1:$port/restart-backoff/"
