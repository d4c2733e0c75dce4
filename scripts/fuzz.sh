#!/usr/bin/env bash
# Fuzzes the readers that take text from anyone (the pod reader, the watch
# framer, the Job manifest reader, the link, the scenario JSON, a kubelet's
# configuration) with AFL++
# through cargo-afl on stable Rust, seeded with every fixture, for SECONDS
# each (the first argument; 10 in the test command, longer in the bench).
# Fails on any crash or hang; what AFL++ found is left under
# target/fuzz/<target>/default/{crashes,hangs}, to become a test.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
seconds=${1:-10}
require_cargo
if ! cargo afl --version 2>/dev/null | grep -qw "$AFL_VERSION"; then
  say "installing cargo-afl $AFL_VERSION with cargo install"
  cargo install cargo-afl --version "$AFL_VERSION" --locked
fi
# AFL++ itself, built once per toolchain (a no-op when it is there).
cargo afl config --build >/dev/null 2>&1 || true
(cd fuzz && cargo afl build --release --quiet)
out="$ROOT/target/fuzz"
rm -rf "$out" && mkdir -p "$out"
seed() { # target files...
  local dir="$out/seeds/$1" f
  shift
  mkdir -p "$dir"
  for f in "$@"; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done
}
pastes=(tests/fixtures/kubectl/*.{txt,yaml,json} tests/fixtures/*.{json,yaml,txt})
seed pod "${pastes[@]}"
seed watch fuzz/seeds/watch/* "${pastes[@]}"
seed manifest fuzz/seeds/manifest/*
seed link fuzz/seeds/link/*
seed scenario fuzz/seeds/scenario/*
seed kubelet_config tests/fixtures/configz/*.{json,yaml}
found=0
for target in pod watch manifest link scenario kubelet_config; do
  say "fuzz $target for ${seconds} s (AFL++)"
  # No core-dump handler or CPU governor to set up here: AFL++ is told so.
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    AFL_NO_AFFINITY=1 AFL_SKIP_CRASHES=0 \
    cargo afl fuzz -V "$seconds" -t 5000 -i "$out/seeds/$target" -o "$out/$target" \
    "fuzz/target/release/$target" >"$out/$target.log" 2>&1 ||
    { tail -20 "$out/$target.log" >&2; die "afl-fuzz did not run $target"; }
  stats="$out/$target/default/fuzzer_stats"
  execs=$(awk -F': *' '/^execs_done/ {print $2}' "$stats")
  paths=$(awk -F': *' '/^corpus_count/ {print $2}' "$stats")
  crashes=$(find "$out/$target/default/crashes" -type f ! -name README.txt | wc -l)
  hangs=$(find "$out/$target/default/hangs" -type f | wc -l)
  printf '  %s: %s runs, %s inputs in the corpus, %s crashes, %s hangs\n' \
    "$target" "$execs" "$paths" "$crashes" "$hangs" >&2
  found=$((found + crashes + hangs))
done
[ "$found" -eq 0 ] || die "the fuzzer found $found crash(es) or hang(s): see $out/*/default/{crashes,hangs}"
