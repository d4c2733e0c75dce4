# Sourced by serve.sh and test.sh: installs what is missing, says what it
# installs, and sets up the wasm build. Safe to run again: it installs nothing twice.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")
WASM_OPT_VERSION=132
# cargo-afl (AFL++ for Rust on stable; scripts/fuzz.sh), the afl crate fuzz/ uses.
AFL_VERSION=0.18.2
# Set when rustup could not add the wasm32 target (no download possible here).
RUSTUP_WASM_MARKER="$ROOT/target/.rustup-wasm32-unavailable"

say() { printf '\n\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q "${missing[@]}"
}

require_cargo() {
  command -v cargo >/dev/null && command -v rustup >/dev/null ||
    die "cargo and rustup are needed (this machine kind ships them); install Rust with rustup first"
}

# WASM_MODE=rustup where `rustup target add` works; otherwise Debian's
# rustc-web, building std from its sources (rust-web-src).
# WASM_TOOLCHAIN=debian forces the second route (to test it where rustup works).
setup_wasm_target() {
  require_cargo
  if [ "${WASM_TOOLCHAIN:-}" = debian ]; then
    use_debian_rustc
  elif rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    WASM_MODE=rustup
  elif [ ! -e "$RUSTUP_WASM_MARKER" ] && {
    say "adding the wasm32-unknown-unknown target with rustup"
    timeout 120 rustup target add wasm32-unknown-unknown
  }; then
    WASM_MODE=rustup
  else
    if [ ! -e "$RUSTUP_WASM_MARKER" ]; then
      mkdir -p "$ROOT/target" && : >"$RUSTUP_WASM_MARKER"
      say "rustup cannot download the wasm32 standard library here: using Debian's rustc-web with std built from source"
    fi
    use_debian_rustc
  fi
}

use_debian_rustc() {
  apt_install rustc-web cargo-web rust-web-src
  WASM_MODE=debian
  local host
  host=$(rustc -vV | sed -n 's/^host: //p')
  # rustup's toolchain ships the linker Debian's rustc-web lacks.
  WASM_LINKER="$(rustc --print sysroot)/lib/rustlib/$host/bin/rust-lld"
  [ -x "$WASM_LINKER" ] || die "rust-lld not found at $WASM_LINKER"
}

# Runs a command with the environment a wasm build needs.
with_wasm_env() {
  if [ "${WASM_MODE:-}" = debian ]; then
    env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
      CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$WASM_LINKER" "$@"
  else
    "$@"
  fi
}

# The release wasm: the same environment as any wasm build (the shipped std,
# stable flags only).
with_release_env() { with_wasm_env "$@"; }

ensure_cargo_tool() { # binary version crate [extra cargo install flags]
  local bin=$1 version=$2 crate=$3
  shift 3
  if command -v "$bin" >/dev/null && "$bin" --version 2>/dev/null | grep -qw "$version"; then return 0; fi
  say "installing $crate $version with cargo install (trunk takes ~25 min on 2 cores the first time)"
  cargo install "$crate" --version "$version" "$@"
}

ensure_wasm_opt() {
  if "$ROOT/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -qw "version $WASM_OPT_VERSION" &&
    [ -f "$ROOT/node_modules/playwright-core/package.json" ] &&
    [ -f "$ROOT/node_modules/axe-core/package.json" ] &&
    [ -x "$ROOT/node_modules/.bin/terser" ]; then return 0; fi
  command -v npm >/dev/null || apt_install nodejs npm
  say "installing wasm-opt $WASM_OPT_VERSION (npm package binaryen), terser, playwright-core and axe-core into node_modules/"
  (cd "$ROOT" && npm ci --no-audit --no-fund)
}

# Everything the app build needs: the wasm target, wasm-bindgen, wasm-opt, trunk.
setup_build_tools() {
  setup_wasm_target
  ensure_cargo_tool wasm-bindgen "$WASM_BINDGEN_VERSION" wasm-bindgen-cli
  ensure_wasm_opt
  ensure_cargo_tool trunk "$TRUNK_VERSION" trunk --locked
  export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
}

# The browser engines the tests run in: BROWSERS narrows them ("chromium",
# or a list such as "chromium firefox"); all three by default.
ALL_BROWSERS="chromium firefox webkit"
GECKODRIVER_VERSION=0.37.1
# Lighthouse for the benchmark only (scripts/bench.sh), installed under target/.
LIGHTHOUSE_VERSION=13.5.0

wants_browser() { case " ${BROWSERS:-$ALL_BROWSERS} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# Plus the browsers for the browser tests, all from Debian and crates.io:
# Chromium and its driver; Firefox ESR and geckodriver; WebKitGTK's
# MiniBrowser, its WebKitWebDriver and Xvfb for its window.
setup_test_tools() {
  setup_build_tools
  local browser
  for browser in ${BROWSERS:-$ALL_BROWSERS}; do
    case $browser in
      chromium | firefox | webkit) ;;
      *) die "BROWSERS: unknown engine '$browser' (chromium, firefox or webkit)" ;;
    esac
  done
  apt_install chromium chromium-driver hugo
  if wants_browser firefox; then
    apt_install firefox-esr
    ensure_cargo_tool geckodriver "$GECKODRIVER_VERSION" geckodriver --locked
  fi
  if wants_browser webkit; then
    apt_install webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb
  fi
}

# Debian's kubectl 1.20 (kubernetes-client) for tests/kubectl.rs, unpacked
# into target/kubectl-debian: installed, its /usr/bin/kubectl would clash
# with the image's kubectl package, which holds kubectl.1.27 … 1.33.
ensure_debian_kubectl() {
  local dir="$ROOT/target/kubectl-debian"
  [ -x "$dir/usr/bin/kubectl" ] && return 0
  say "unpacking Debian's kubernetes-client (kubectl 1.20) into target/kubectl-debian"
  local work
  work=$(mktemp -d)
  as_root apt-get update -q >/dev/null
  if (cd "$work" && apt-get download -q kubernetes-client >/dev/null 2>&1); then
    mkdir -p "$dir" && dpkg -x "$work"/kubernetes-client_*.deb "$dir"
  else
    say "Debian's kubernetes-client could not be downloaded: the kubectl round trip runs the image's kubectl versions only"
  fi
  rm -rf "$work"
}

# WebKitGTK's MiniBrowser, where Debian's libwebkit2gtk-4.1 puts it.
minibrowser() {
  local found
  # grep reads all of dpkg's list (no early close for pipefail to trip on).
  found=$(dpkg -L libwebkit2gtk-4.1-0 | grep '/MiniBrowser$' || true)
  [ -n "$found" ] || die "MiniBrowser not found in libwebkit2gtk-4.1-0"
  echo "${found%%$'\n'*}"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Runs a command (a function too) with one engine's WebDriver set up for
# wasm-bindgen-test-runner, in a subshell.
with_browser() { # engine command...
  local engine=$1
  shift
  (
    unset CHROMEDRIVER GECKODRIVER SAFARIDRIVER_REMOTE
    case $engine in
      chromium) export CHROMEDRIVER=/usr/bin/chromedriver ;;
      firefox)
        GECKODRIVER=$(command -v geckodriver) || die "geckodriver is not on PATH"
        export GECKODRIVER MOZ_HEADLESS=1
        ;;
      webkit)
        local proxy port
        port=$(free_port)
        mkdir -p "$ROOT/target"
        start_display
        node "$ROOT/scripts/webkit-driver.mjs" "$port" "$(minibrowser)" >"$ROOT/target/webkit-driver.log" 2>&1 &
        proxy=$!
        # The proxy stops its WebKitWebDriver on TERM.
        trap 'kill $proxy $XVFB_PID 2>/dev/null || true' EXIT
        for _ in $(seq 50); do grep -q ready "$ROOT/target/webkit-driver.log" 2>/dev/null && break; sleep 0.2; done
        export SAFARIDRIVER_REMOTE="http://127.0.0.1:$port"
        ;;
    esac
    # Not the subshell's last command: bash may exec that one and skip the trap.
    local status=0
    "$@" || status=$?
    exit "$status"
  )
}

# Starts a private Xvfb unless there is a display already: sets DISPLAY and
# XVFB_PID in the calling subshell, which stops it. (Not a subshell of its
# own: a background subshell's TERM would not reach what it started.)
start_display() {
  XVFB_PID=
  if [ -n "${DISPLAY:-}" ]; then return 0; fi
  local n=90
  while [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
  Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
  XVFB_PID=$!
  sleep 1
  export DISPLAY=:$n
}

# Runs a command with an X display: the one there is, else a private Xvfb
# (WebKitGTK's MiniBrowser needs a window even when nobody looks at it).
with_display() {
  (
    start_display
    trap 'kill $XVFB_PID 2>/dev/null || true' EXIT
    local status=0
    "$@" || status=$?
    exit "$status"
  )
}
