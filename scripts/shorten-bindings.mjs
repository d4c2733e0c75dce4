// Shortens the names wasm-bindgen gives the wasm's imports and internal
// exports, in the wasm and its JS glue together: `usage: node
// scripts/shorten-bindings.mjs DIR` (every DIR/NAME_bg.wasm beside DIR/NAME.js).
//
// wasm-bindgen names each import after its JS function and a 16-digit hash
// (`__wbg_setAttribute_2704501201f15687`), and the module they come from
// after the file (`./crashloop-explorer_bg.js`). Those names are read only by
// the glue, which builds the imports object, and by the wasm, which asks for
// them; the hashes do not compress. Both sides are rewritten here to `$0`,
// `$1`… (`$` never starts a name in the glue) and the module to `$`. Exports
// the glue alone calls (`__wbindgen_malloc`, closure shims) are renamed the
// same way; the JS API's exports and `memory` keep their names.
//
// It checks what it relies on and fails loudly otherwise: the module's name
// occurs once in the glue, every renamed name occurs in it, no old name is
// left, and the rewritten wasm compiles with the imports the glue now offers.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { leb, name, readLeb, readName, skipImportDesc } from "./wasm-bytes.mjs";

// Exports only the glue calls: wasm-bindgen's allocator, externref table,
// closure shims and class finalizers.
const INTERNAL_EXPORT = /^(__wbindgen_|__externref_|__wbg_|wasm_bindgen_)/;

function shortName(k) {
  return `$${k.toString(36)}`;
}

function shorten(wasmPath, jsPath, moduleName) {
  const bytes = readFileSync(wasmPath);
  let js = readFileSync(jsPath, "utf8");
  const renamed = new Map();
  const rename = (old) => {
    if (!renamed.has(old)) renamed.set(old, shortName(renamed.size));
    return renamed.get(old);
  };
  const out = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = readLeb(bytes, at + 1);
    const end = start + size;
    if (id === 2 || id === 7) {
      const [count, first] = readLeb(bytes, start);
      const body = [...leb(count)];
      let i = first;
      for (let n = 0; n < count; n++) {
        if (id === 2) {
          const [module, j] = readName(bytes, i);
          const [field, k] = readName(bytes, j);
          const descEnd = skipImportDesc(bytes, k);
          const ours = module === moduleName;
          body.push(...name(ours ? "$" : module), ...name(ours ? rename(field) : field), ...bytes.subarray(k, descEnd));
          i = descEnd;
        } else {
          const [field, j] = readName(bytes, i);
          const descEnd = readLeb(bytes, j + 1)[1];
          const internal = INTERNAL_EXPORT.test(field) && new RegExp(`\\bwasm\\.${field}\\b`).test(js);
          body.push(...name(internal ? rename(field) : field), ...bytes.subarray(j, descEnd));
          i = descEnd;
        }
      }
      if (i !== end) throw new Error(`${wasmPath}: section ${id} read to ${i}, ends at ${end}`);
      out.push(Uint8Array.from([id, ...leb(body.length), ...body]));
    } else {
      out.push(bytes.subarray(at, end));
    }
    at = end;
  }

  const quoted = JSON.stringify(moduleName);
  if (js.split(quoted).length !== 2) throw new Error(`${jsPath}: ${quoted} is not named exactly once`);
  js = js.replace(quoted, '"$"');
  const seen = new Set();
  js = js.replace(/[A-Za-z_$][\w$]*/g, (token) => {
    const short = renamed.get(token);
    if (short === undefined) return token;
    seen.add(token);
    return short;
  });
  const missing = [...renamed.keys()].filter((old) => !seen.has(old));
  if (missing.length) throw new Error(`${jsPath}: names not found in the glue: ${missing.slice(0, 5).join(", ")}`);

  const wasm = Buffer.concat(out);
  const module = new WebAssembly.Module(wasm);
  for (const { module: from, name: field } of WebAssembly.Module.imports(module)) {
    if (from === "$" && !new RegExp(`(^|[^\\w$])\\${field}:`, "m").test(js)) {
      throw new Error(`${jsPath}: the glue offers no import ${field}`);
    }
  }
  writeFileSync(wasmPath, wasm);
  writeFileSync(jsPath, js);
  return renamed.size;
}

const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/shorten-bindings.mjs DIR");
for (const file of readdirSync(dir)) {
  const m = /^(.*)_bg\.wasm$/.exec(file);
  if (!m) continue;
  const before = readFileSync(join(dir, file)).length;
  const count = shorten(join(dir, file), join(dir, `${m[1]}.js`), `./${m[1]}_bg.js`);
  const after = readFileSync(join(dir, file)).length;
  console.error(`shorten-bindings: ${m[1]}: ${count} names, wasm ${before} -> ${after} bytes`);
}
