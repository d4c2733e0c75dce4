// WebKit (Safari's engine) for the browser tests: starts Debian's
// WebKitWebDriver and stands in front of it as a W3C WebDriver endpoint,
// adding to each new-session request the capabilities it needs to launch
// WebKitGTK's MiniBrowser. wasm-bindgen-test-runner sends a new session with
// empty capabilities (what safaridriver takes), so it is pointed here with
// SAFARIDRIVER_REMOTE=http://127.0.0.1:PORT. Everything else is passed through.
//
// Usage: node scripts/webkit-driver.mjs PORT MINIBROWSER
// Prints "ready" once both listen; stops with its driver on SIGTERM.
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";

import { freePort } from "./net.mjs";

const [port, miniBrowser] = process.argv.slice(2);
if (!port || !miniBrowser) {
  console.error("usage: node scripts/webkit-driver.mjs PORT MINIBROWSER");
  process.exit(2);
}

const driverPort = await freePort();
const driver = spawn("WebKitWebDriver", [`--port=${driverPort}`], { stdio: ["ignore", "inherit", "inherit"] });
const stop = () => {
  driver.kill();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
driver.on("exit", (code) => {
  console.error(`WebKitWebDriver exited (${code})`);
  process.exit(1);
});

// The browser it launches: WebKitGTK's MiniBrowser in automation mode.
const options = { binary: miniBrowser, args: ["--automation"] };

const withOptions = (body) => {
  let request = {};
  try {
    request = body.length ? JSON.parse(body) : {};
  } catch {
    return body;
  }
  request.capabilities ??= {};
  request.capabilities.alwaysMatch ??= {};
  request.capabilities.alwaysMatch["webkitgtk:browserOptions"] = options;
  delete request.desiredCapabilities;
  return JSON.stringify(request);
};

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let body = Buffer.concat(chunks).toString("utf8");
    if (req.method === "POST" && /^\/session\/?$/.test(req.url)) body = withOptions(body);
    const headers = { ...req.headers, "content-length": Buffer.byteLength(body), host: `127.0.0.1:${driverPort}` };
    const upstream = http.request(
      { host: "127.0.0.1", port: driverPort, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", (e) => {
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ value: { error: "unknown error", message: `WebKitWebDriver: ${e.message}` } }));
    });
    upstream.end(body);
  });
});

// Wait for the driver to listen, then listen ourselves.
for (let i = 0; i < 100; i++) {
  const up = await new Promise((resolve) => {
    const s = net.connect(driverPort, "127.0.0.1", () => {
      s.end();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });
  if (up) break;
  await new Promise((r) => setTimeout(r, 100));
}
server.listen(Number(port), "127.0.0.1", () => console.log("ready"));
