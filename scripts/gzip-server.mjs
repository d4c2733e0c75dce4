// A static server for dist/ that gzips what it sends, as a real host would
// (the benchmark's Lighthouse run measures transfer sizes through it).
// node scripts/gzip-server.mjs DIR PORT
import http from "node:http";
import { readFileSync, existsSync, statSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [dir, port] = process.argv.slice(2);
const root = path.resolve(dir);
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".svg": "image/svg+xml" };
const cache = new Map();
http
  .createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    let file = path.resolve(root, "." + decodeURIComponent(url.pathname));
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    const body = readFileSync(file);
    const key = `${file}:${statSync(file).mtimeMs}`;
    const headers = { "content-type": types[path.extname(file)] || "application/octet-stream", "cache-control": "no-cache" };
    if (/\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
      if (!cache.has(key)) cache.set(key, zlib.gzipSync(body, { level: 9 }));
      res.writeHead(200, { ...headers, "content-encoding": "gzip" });
      return res.end(cache.get(key));
    }
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1");
