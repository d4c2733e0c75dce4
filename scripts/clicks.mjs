import { readFileSync } from "node:fs";

// A click in a part (an app of the second wasm) reaches that part only: the
// page's app, a Yew of its own, runs none of its handlers (each Yew numbers
// its apps from 1 and marks elements with that number: src/app/extras.rs,
// `clear_of_ids_around`). A handler of the page's run by mistake changes
// what the page shows (a view's tab, the theme, a panel, a control), so each
// control of each part is clicked in turn and everything the page shows
// outside the parts is compared before and after the click. Links' targets
// are left out: they follow the page's link, which a part's answer sets.
//
// Run in the page (Playwright's `evaluate`, or WebDriver's script as
// `return (${partsClicked})(arguments[0]);`): for each part mounted, the
// controls clicked and each click that changed the page. `paste` is given to
// the pod reader first, so that it has controls (its pods' rows):
// `PARTS_PASTE` below.
export async function partsClicked(paste) {
  // The controls whose click is a part's answer to the page.
  const answers = { pod: "[id^=pod-explore]", audit: ".show-me" };
  const settle = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30))));
  const shown = () => {
    const lines = [document.documentElement.getAttribute("data-theme") || ""];
    for (const el of document.body.querySelectorAll("*")) {
      if (el.closest("[data-part] > div, svg, script, style")) continue;
      const attrs = [...el.attributes].filter((a) => a.name !== "href").map((a) => `${a.name}=${a.value}`);
      const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data.trim()).join(" ");
      const state = el.tagName === "INPUT" ? ` value=${el.value} checked=${el.checked}` : el.tagName === "DETAILS" ? ` open=${el.open}` : "";
      lines.push(`${el.tagName.toLowerCase()} [${attrs.join(" ")}]${state} ${text}`.slice(0, 160));
    }
    return lines;
  };
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${(el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 40)}"`;
  // The page's charts drawn first: one out of sight is drawn when it comes
  // near (src/app/hooks.rs, observe_near), a change of the page's own that
  // a click which scrolls the page (WebKit's, on the cluster watch's Watch)
  // would otherwise seem to make.
  const busy = () => [...document.querySelectorAll("canvas[aria-busy=true]")].filter((c) => !c.closest("[data-part] > div"));
  for (const c of busy()) {
    c.scrollIntoView({ block: "center" });
    await settle();
  }
  for (let i = 0; i < 100 && busy().length; i++) await settle();
  const text = document.querySelector("[data-part=pod] #pod-text");
  if (text && paste) {
    text.value = paste;
    text.dispatchEvent(new Event("input", { bubbles: true }));
    await settle();
  }
  const result = {};
  for (const root of document.querySelectorAll("[data-part] > div")) {
    const part = root.parentElement.dataset.part;
    const skip = answers[part];
    const controls = [...root.querySelectorAll("button, summary, input[type=checkbox], input[type=radio]")]
      .filter((el) => !(skip && el.matches(skip)));
    const done = (result[part] = { clicked: 0, changed: [] });
    for (const el of controls) {
      if (!el.isConnected || el.disabled) continue;
      const before = shown();
      el.click();
      done.clicked++;
      await settle();
      const after = shown();
      const k = after.findIndex((line, i) => line !== before[i]);
      if (k >= 0 || after.length !== before.length) {
        const at = k >= 0 ? k : Math.min(after.length, before.length);
        done.changed.push(`${name(el)}: ${before[at] || "(nothing)"} → ${after[at] || "(nothing)"}`);
      }
    }
  }
  return result;
}

// `partsClicked`'s paste: a real `kubectl get pods` table
// (kubernetes/kubernetes#80981) that gives the pod reader rows.
export const PARTS_PASTE = readFileSync(new URL("../tests/fixtures/kubectl/k8s-80981-coredns-table.txt", import.meta.url), "utf8");

// What is wrong with `partsClicked`'s answer for `what`, if anything:
// `parts` are those the view must have mounted.
export function clicksProblem(what, parts, result) {
  const problems = [];
  for (const part of parts) {
    const r = result[part];
    if (!r) problems.push(`${what}: no ${part} part mounted`);
    else if (!r.clicked) problems.push(`${what}: nothing to click in the ${part} part`);
    else if (r.changed.length) problems.push(`${what}: a click in the ${part} part changed the page outside it: ${r.changed.slice(0, 3).join("; ")}`);
  }
  return problems.length ? problems.join("\n") : null;
}

// `partsClicked`'s answer in a few words.
export function clicksSaid(result) {
  return Object.entries(result).map(([part, r]) => `${part} ${r.clicked}`).join(", ");
}
