// Debian's Chromium through playwright-core (its own browser downloads fail
// here), quiet and offline: one launch for the smoke test, axe, the docs
// site and the benchmark.
import { chromium } from "playwright-core";

export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--no-first-run", "--disable-quic", ...extraArgs],
  });
}
