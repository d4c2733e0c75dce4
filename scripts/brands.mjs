// Which app takes a DOM event: Yew marks each element it listens on with its
// app's subtree id (`__yew_subtree_id`, a property every copy of Yew shares),
// and each module counts its apps from 1. The second wasm's parts must carry
// ids the page's app does not, or a click in a part runs a handler of the
// page's too (src/app/extras.rs, `clear_of_ids_around`; scripts/clicks.mjs
// clicks them).
//
// Run in the page (Playwright's `evaluate`, or WebDriver's script as
// `(${brandsApart})()`): the ids inside the parts, outside them, and those on
// both sides.
export function brandsApart() {
  const inside = new Set();
  const outside = new Set();
  for (const el of document.querySelectorAll("*")) {
    const id = el.__yew_subtree_id;
    if (id === undefined) continue;
    (el.closest("[data-part] > div") ? inside : outside).add(id);
  }
  return { inside: [...inside], outside: [...outside], shared: [...inside].filter((id) => outside.has(id)) };
}

// What is wrong with `brandsApart`'s answer for `what`, if anything.
export function brandsProblem(what, { inside, outside, shared }) {
  if (!inside.length) return `${what}: no part mounted (nothing to tell apart)`;
  if (!outside.length) return `${what}: the page's app listens on nothing`;
  if (shared.length) return `${what}: parts and page share Yew subtree ids ${shared.join(", ")}: a click in a part would also run the page's handlers`;
  return null;
}
