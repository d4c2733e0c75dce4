// Puts each wasm's functions in an order that gzip compresses better:
// `usage: node scripts/order-functions.mjs DIR` (every DIR/*_bg.wasm).
//
// gzip finds repeats only within its last 32 KB, and rustc and wasm-opt lay
// functions out in an order of their own, so that functions alike (one
// generic function's copies, Yew's runners for each component, the html!
// expansions) sit far apart. Here each function is followed by the one, of
// those not yet placed, that the last few KB placed could give gzip the most
// to copy to: the one holding the most five-byte runs found there, for its
// size. Measured on this project's four wasms (gzip -9): 2.4 to 3.7 % less
// than wasm-opt's order; Binaryen's order by name does 0.4 to 0.7 %.
//
// The greedy order is chaotic: a change of a few bytes elsewhere, or another
// window or weight, moves a wasm's gzip size by up to 0.7 KB either way (one
// run to the next, the element's 154.5 KB became 155.2 with 31 bytes fewer
// before the ordering). So it is made for each window and weight below, and
// the order `gzip -9` (the bench's measure) makes smallest is kept;
// then again from that order, whose ties fall otherwise, while that gains
// (`PASSES` at most): a few seconds for each wasm, per release build.
//
// Only the functions' order changes. Every body is copied byte for byte but
// for the function indices in it (`call`, `return_call`, `ref.func`), which
// are renumbered, as are the function section's types, the exports, the
// start function and the table's element segments. (Binaryen could move
// them too, but reading a module back undoes wasm-opt's stack-level
// rewriting: 0.4 KB gzip more in each.)
//
// It checks what it relies on and fails loudly otherwise: the module holds
// no section it does not know (of custom sections, only names, kept in a
// build made to profile), the order put back gives the very bytes it
// read, and the new module compiles with the same imports and exports.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { leb, readLeb, readName, sections, skipImportDesc, skipLeb, vector } from "./wasm-bytes.mjs";

// The length of the runs compared, in bytes (4 to 8 do about as well).
const RUN = 5;
// A run found in more functions than this says nothing of likeness.
const COMMON = 200;
// Fewer runs shared than this is no likeness: the largest left comes next.
const LEAST_SHARED = 3;
// How far behind gzip is taken to look (it can reach 32 KB; nearer does
// better here), and a candidate's runs held over its count of runs to which
// power: each pair is tried.
const WINDOWS = [3000, 4000, 6000];
const WEIGHTS = [0.5, 0.6, 0.7];
// Orders made again from the best order so far, at most.
const PASSES = 3;

// Copies instructions from `at` to the `end` that closes them (or to
// `stop`), writing each function index through `map`: one pass over every
// instruction of the MVP, sign extension, saturating conversions, bulk
// memory, reference types, multi-value and tail calls (what rustc's wasm32
// target and wasm-opt write); anything else stops the script.
function copyCode(bytes, at, stop, map, out) {
  const u32 = () => {
    const from = at;
    at = readLeb(bytes, at)[1];
    out.push(...bytes.subarray(from, at));
  };
  const func = () => {
    const [index, next] = readLeb(bytes, at);
    out.push(...leb(map(index)));
    at = next;
  };
  let depth = 0;
  while (at < stop) {
    const op = bytes[at++];
    out.push(op);
    if (op === 0x02 || op === 0x03 || op === 0x04) {
      const from = at;
      at = skipLeb(bytes, at);
      out.push(...bytes.subarray(from, at));
      depth++;
    } else if (op === 0x0b) {
      if (depth === 0) return at;
      depth--;
    } else if (op === 0x10 || op === 0x12 || op === 0xd2) func();
    else if (op === 0x0c || op === 0x0d || (op >= 0x20 && op <= 0x26)) u32();
    else if (op === 0x0e) {
      // The count, the labels, the default label.
      const [count] = readLeb(bytes, at);
      for (let i = 0; i < count + 2; i++) u32();
    } else if (op === 0x11 || op === 0x13) {
      u32();
      u32();
    } else if (op === 0x1c) {
      const [count] = readLeb(bytes, at);
      u32();
      for (let i = 0; i < count; i++) out.push(bytes[at++]);
    } else if (op >= 0x28 && op <= 0x3e) {
      u32();
      u32();
    } else if (op === 0x3f || op === 0x40 || op === 0xd0) out.push(bytes[at++]);
    else if (op === 0x41 || op === 0x42) {
      const from = at;
      at = skipLeb(bytes, at);
      out.push(...bytes.subarray(from, at));
    } else if (op === 0x43) {
      out.push(...bytes.subarray(at, at + 4));
      at += 4;
    } else if (op === 0x44) {
      out.push(...bytes.subarray(at, at + 8));
      at += 8;
    } else if (op === 0xfc) {
      const [sub] = readLeb(bytes, at);
      u32();
      if (sub <= 7) continue;
      else if (sub === 8) {
        u32();
        out.push(bytes[at++]);
      } else if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) u32();
      else if (sub === 10) out.push(bytes[at++], bytes[at++]);
      else if (sub === 11) out.push(bytes[at++]);
      else if (sub === 12 || sub === 14) {
        u32();
        u32();
      } else throw new Error(`instruction 0xfc ${sub} not known`);
    } else if (!(op <= 0x01 || op === 0x05 || op === 0x0f || op === 0x1a || op === 0x1b ||
      (op >= 0x45 && op <= 0xc4) || op === 0xd1)) {
      throw new Error(`instruction 0x${op.toString(16)} not known`);
    }
  }
  if (at !== stop) throw new Error(`code read past its end (${at} of ${stop})`);
  return at;
}

// A constant expression (a global's value, a segment's offset or element).
function copyConst(bytes, at, map, out) {
  return copyCode(bytes, at, bytes.length, map, out);
}

// The element section with every function index through `map`.
function elements(payload, map) {
  const out = [];
  let [count, at] = readLeb(payload, 0);
  out.push(...leb(count));
  const u32 = () => {
    const from = at;
    at = readLeb(payload, at)[1];
    out.push(...payload.subarray(from, at));
  };
  for (; count > 0; count--) {
    const [flags] = readLeb(payload, at);
    u32();
    if (flags > 7) throw new Error(`element segment kind ${flags} not known`);
    if (flags === 2 || flags === 6) u32(); // table index
    if (!(flags & 1)) at = copyConst(payload, at, map, out); // offset
    const expressions = flags & 4;
    if (flags & 3) out.push(payload[at++]); // element kind or reference type
    const [n] = readLeb(payload, at);
    u32();
    for (let i = 0; i < n; i++) {
      if (expressions) at = copyConst(payload, at, map, out);
      else {
        const [index, next] = readLeb(payload, at);
        out.push(...leb(map(index)));
        at = next;
      }
    }
  }
  if (at !== payload.length) throw new Error("the element section read short");
  return Uint8Array.from(out);
}

// The name section (in a build that keeps it, to profile): the function,
// local and label names are keyed by function index, in its order.
function names(payload, map) {
  let at = readName(payload, 0)[1];
  const out = [payload.subarray(0, at)];
  while (at < payload.length) {
    const id = payload[at];
    const [size, from] = readLeb(payload, at + 1);
    let sub = payload.subarray(from, from + size);
    at = from + size;
    if (id >= 1 && id <= 3) {
      // Each entry: a function index, then a name (1) or a map of names (2, 3).
      const entries = vector(sub, (b, i) => {
        const [index, start] = readLeb(b, i);
        let end;
        if (id === 1) end = readName(b, start)[1];
        else {
          let [n, j] = readLeb(b, start);
          for (; n > 0; n--) j = readName(b, readLeb(b, j)[1])[1];
          end = j;
        }
        return [[map(index), b.subarray(start, end)], end];
      });
      entries.sort((a, b) => a[0] - b[0]);
      sub = Buffer.concat([Uint8Array.from(leb(entries.length)), ...entries.flatMap(([index, rest]) => [Uint8Array.from(leb(index)), rest])]);
    }
    out.push(Uint8Array.from([id, ...leb(sub.length)]), sub);
  }
  return Buffer.concat(out);
}

// Counts the imported functions (they keep their indices, before all others).
function importedFunctions(payload) {
  return vector(payload, (b, at) => {
    const desc = readName(b, readName(b, at)[1])[1];
    return [b[desc] === 0, skipImportDesc(b, desc)];
  }).filter(Boolean).length;
}

// The code section's bodies.
function codeBodies(payload) {
  return vector(payload, (b, at) => {
    const [len, from] = readLeb(b, at);
    return [b.subarray(from, from + len), from + len];
  });
}

// Each body's runs, and the bodies holding each run: what every order reads.
function likeness(code) {
  const runs = code.map((body) => {
    const set = new Set();
    for (let i = 0; i + RUN <= body.length; i++) set.add(Buffer.from(body.subarray(i, i + RUN)).toString("latin1"));
    return set;
  });
  const holders = new Map();
  runs.forEach((set, k) => {
    for (const run of set) {
      let list = holders.get(run);
      if (!list) holders.set(run, (list = []));
      list.push(k);
    }
  });
  return { runs, holders };
}

// The order: greedy, from the largest body, each next the one whose runs
// the last `windowSize` bytes placed hold the most of (for its size, to
// the power `weight`): what gzip could copy from behind it.
function order(code, { runs, holders }, windowSize, weight) {
  // How many of each function's runs the window holds, kept as it slides.
  const held = new Array(code.length).fill(0);
  const inWindow = new Map();
  const slide = (k, step) => {
    for (const run of runs[k]) {
      const list = holders.get(run);
      if (list.length > COMMON) continue;
      const n = (inWindow.get(run) || 0) + step;
      inWindow.set(run, n);
      if ((step > 0 && n === 1) || (step < 0 && n === 0)) for (const j of list) held[j] += step;
    }
  };
  const window = [];
  let windowBytes = 0, first = 0;
  const left = new Set(code.keys());
  const out = [];
  const largestLeft = () => {
    let best = -1;
    for (const k of left) if (best < 0 || code[k].length > code[best].length) best = k;
    return best;
  };
  let current = largestLeft();
  while (current >= 0) {
    out.push(current);
    left.delete(current);
    window.push(current);
    windowBytes += code[current].length;
    slide(current, 1);
    while (windowBytes - code[window[first]].length > windowSize) {
      windowBytes -= code[window[first]].length;
      slide(window[first++], -1);
    }
    let best = -1, bestScore = 0;
    for (const k of left) {
      if (held[k] < LEAST_SHARED) continue;
      const score = held[k] / Math.max(1, runs[k].size) ** weight;
      if (score > bestScore) [best, bestScore] = [k, score];
    }
    current = best >= 0 ? best : largestLeft();
  }
  return out;
}

// The module with its defined functions in `order` (old positions, in their new order).
function rewrite(parts, imports, order) {
  const newIndex = new Array(order.length);
  order.forEach((old, position) => (newIndex[old] = position));
  const map = (index) => (index < imports ? index : imports + newIndex[index - imports]);
  const out = [Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])];
  for (const [id, payload] of parts) {
    let body;
    if (id === 3) {
      const types = vector(payload, (b, at) => {
        const from = at;
        at = readLeb(b, at)[1];
        return [b.subarray(from, at), at];
      });
      body = Uint8Array.from([...leb(types.length), ...order.flatMap((old) => [...types[old]])]);
    } else if (id === 10) {
      const code = codeBodies(payload);
      const bytes = [...leb(code.length)];
      for (const old of order) {
        const fn = code[old];
        // Locals first (count, then runs of one type), then instructions.
        let [groups, at] = readLeb(fn, 0);
        for (; groups > 0; groups--) at = readLeb(fn, at)[1] + 1;
        const copied = [...fn.subarray(0, at)];
        if (copyCode(fn, at, fn.length, map, copied) !== fn.length) throw new Error("a function ends early");
        bytes.push(...leb(copied.length), ...copied);
      }
      body = Uint8Array.from(bytes);
    } else if (id === 7) {
      const exports = [];
      let [count, at] = readLeb(payload, 0);
      exports.push(...leb(count));
      for (; count > 0; count--) {
        const end = readName(payload, at)[1];
        exports.push(...payload.subarray(at, end));
        at = end;
        const kind = payload[at++];
        const [index, next] = readLeb(payload, at);
        exports.push(kind, ...leb(kind === 0 ? map(index) : index));
        at = next;
      }
      body = Uint8Array.from(exports);
    } else if (id === 8) {
      body = Uint8Array.from(leb(map(readLeb(payload, 0)[0])));
    } else if (id === 9) {
      body = elements(payload, map);
    } else if (id === 6) {
      const globals = [];
      let [count, at] = readLeb(payload, 0);
      globals.push(...leb(count));
      for (; count > 0; count--) {
        globals.push(payload[at], payload[at + 1]);
        at = copyConst(payload, at + 2, map, globals);
      }
      body = Uint8Array.from(globals);
    } else if ([1, 2, 4, 5, 11, 12].includes(id)) {
      body = payload;
    } else if (id === 0 && readName(payload, 0)[0] === "name") {
      body = names(payload, map);
    } else {
      throw new Error(`section ${id} not known (a custom section would need its function indices renumbered)`);
    }
    out.push(Uint8Array.from([id, ...leb(body.length)]), body);
  }
  return Buffer.concat(out);
}

// Bytes after `gzip -9`, the bench's measure (zlib's level 9 ranks these
// orders otherwise often enough to lose what one pass found).
function gzipped(bytes) {
  return execFileSync("gzip", ["-9c"], { input: bytes, maxBuffer: 1 << 26 }).length;
}

function reorder(path) {
  const bytes = readFileSync(path);
  const parts = sections(bytes);
  const section = (id) => parts.find(([i]) => i === id)?.[1];
  const imports = section(2) ? importedFunctions(section(2)) : 0;
  // Each pass orders the module the last one wrote (its calls renumbered,
  // so its runs are the bytes gzip will read); `wanted` composes the passes.
  let out = bytes, wanted = [...codeBodies(section(10)).keys()], chosen = [];
  let best = gzipped(bytes);
  for (let pass = 0; pass < PASSES; pass++) {
    const from = sections(out);
    const code = codeBodies(from.find(([i]) => i === 10)[1]);
    const like = likeness(code);
    let next = null;
    for (const windowSize of WINDOWS) {
      for (const weight of WEIGHTS) {
        const candidate = order(code, like, windowSize, weight);
        const written = rewrite(from, imports, candidate);
        const size = gzipped(written);
        if (size < best) [next, best, chosen[pass]] = [[candidate, written], size, `${windowSize}/${weight}`];
      }
    }
    if (!next) break;
    wanted = next[0].map((k) => wanted[k]);
    out = next[1];
  }
  // Put back: the order undone must give the very bytes read.
  const back = new Array(wanted.length);
  wanted.forEach((old, position) => (back[old] = position));
  if (!rewrite(sections(out), imports, back).equals(bytes)) throw new Error(`${path}: the order put back does not give the module read`);
  const shape = (wasm) => {
    const m = new WebAssembly.Module(wasm);
    return JSON.stringify([WebAssembly.Module.imports(m), WebAssembly.Module.exports(m)]);
  };
  if (shape(out) !== shape(bytes)) throw new Error(`${path}: imports or exports differ after reordering`);
  writeFileSync(path, out);
  return [bytes.length, out.length, `passes' window/weight: ${chosen.join(", ") || "none, the order as read"}`];
}

const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/order-functions.mjs DIR");
for (const file of readdirSync(dir)) {
  if (!file.endsWith("_bg.wasm")) continue;
  const [before, after, chosen] = reorder(join(dir, file));
  console.error(`order-functions: ${file}: ${before} -> ${after} bytes (${chosen})`);
}
