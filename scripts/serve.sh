#!/usr/bin/env bash
# Installs whatever is missing, then serves the explorer at http://127.0.0.1:8080
# (extra arguments go to `trunk serve`, e.g. --port 9000).
source "$(dirname "$0")/env.sh"
setup_build_tools
cd "$ROOT"
say "serving on http://127.0.0.1:8080 (Ctrl-C stops)"
with_wasm_env trunk serve "$@"
