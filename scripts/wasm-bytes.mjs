// Reading and writing a wasm module's bytes, for the scripts that rewrite
// the release build's wasms (scripts/shorten-bindings.mjs,
// scripts/order-functions.mjs).

const text = new TextDecoder();
const utf8 = new TextEncoder();

// An unsigned LEB128 at `at`: [its value, where it ends].
export function readLeb(bytes, at) {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

// Past a LEB128, signed or not (constants, block types): only its length matters.
export function skipLeb(bytes, at) {
  while (bytes[at++] & 0x80);
  return at;
}

// An unsigned LEB128's bytes.
export function leb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

// A name (its length, then UTF-8) at `at`: [the text, where it ends].
export function readName(bytes, at) {
  const [len, start] = readLeb(bytes, at);
  return [text.decode(bytes.subarray(start, start + len)), start + len];
}

// A name's bytes.
export function name(value) {
  const b = utf8.encode(value);
  return [...leb(b.length), ...b];
}

// Past an import's description (function, table, memory, global, tag).
export function skipImportDesc(bytes, at) {
  const kind = bytes[at++];
  const limits = (i) => {
    const [flags, j] = readLeb(bytes, i);
    let k = readLeb(bytes, j)[1];
    if (flags & 1) k = readLeb(bytes, k)[1];
    return k;
  };
  switch (kind) {
    case 0: return readLeb(bytes, at)[1];
    case 1: return limits(at + 1);
    case 2: return limits(at);
    case 3: return at + 2;
    case 4: return readLeb(bytes, at + 1)[1];
    default: throw new Error(`import kind ${kind} not known`);
  }
}

// The module's sections, as [id, payload].
export function sections(bytes) {
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = readLeb(bytes, at + 1);
    out.push([id, bytes.subarray(start, start + size)]);
    at = start + size;
  }
  return out;
}

// A section's vector: `readItem(payload, at)` gives [an item, where it ends].
export function vector(payload, readItem) {
  let [count, at] = readLeb(payload, 0);
  const items = [];
  for (; count > 0; count--) {
    const [item, next] = readItem(payload, at);
    items.push(item);
    at = next;
  }
  if (at !== payload.length) throw new Error(`a section read to ${at} of ${payload.length} bytes`);
  return items;
}
