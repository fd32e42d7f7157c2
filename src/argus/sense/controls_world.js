// The dead-control probe's helper (argus.sense._controls), defined in an isolated world of a
// throw-away copy of the page: it shares the copy's DOM, not its JavaScript globals.
//   __argusControls.list(n)    every enabled, shown control, in document order: how many
//                              there are (found) and the first n described (described); only
//                              those are ever activated, so only they cross to Argus
//   __argusControls.arm(i)     start watching: DOM mutations, focus, URL, scroll, validation,
//                              effects
//   __argusControls.activate(i) click it (a select: choose its next option)
//   __argusControls.effects()  what changed since arm(), and stop watching: {kinds, dom,
//                              sent} (dom: the shapes of the mutations, null when too many;
//                              sent: the websocket messages the copy's init script told of)
//   __argusControls.start(i)   arm(i) then activate(i): one call
//   __argusControls.neutral()  the same for the body itself: what any click on the page does
globalThis.__argusControls = (() => {
  const ROLES = new Set([
    "button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "switch",
    "checkbox", "radio",
  ]);
  const INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "image"]);
  const IMPLICIT = { button: "button", a: "link", select: "combobox", summary: "button" };
  const MAX_DEPTH = 32;
  const MAX_SHAPES = 64;
  let controls = [];
  let watch = null;
  // Effects the copy's init script reports (storage, clipboard, print): no DOM trace of them.
  const reported = new Set();
  for (const kind of ["storage", "clipboard", "print"]) {
    document.addEventListener(`argus-effect:${kind}`, () => reported.add(kind), true);
  }
  document.addEventListener("argus-sent", () => { if (watch) watch.sent += 1; }, true);

  function* all(root) {
    for (const el of root.querySelectorAll("*")) {
      yield el;
      if (el.shadowRoot) yield* all(el.shadowRoot);
    }
  }
  function parentOf(el) {
    return el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  }
  function isControl(el) {
    const tag = el.localName;
    const role = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
    if (ROLES.has(role)) return true;
    if (tag === "button" || tag === "select") return true;
    if (tag === "a" && el.hasAttribute("href")) return true;
    if (tag === "input") return INPUTS.has((el.getAttribute("type") || "text").toLowerCase());
    if (tag === "summary") {
      const details = el.parentElement;
      return !!details && details.localName === "details" && details.querySelector(":scope > summary") === el;
    }
    return el.hasAttribute("onclick");
  }
  function shown(el) {
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) return false;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      return false;
    }
    return !el.closest("[inert]");
  }
  function enabled(el) {
    if (el.matches(":disabled")) return false;
    for (let a = el; a; a = parentOf(a)) {
      if (a.getAttribute && a.getAttribute("aria-disabled") === "true") return false;
    }
    return true;
  }
  function ident(el) {
    return { id: el.id || "", testid: el.getAttribute("data-testid") || "", tag: el.localName };
  }
  function selector(el) {
    const steps = [];
    for (let a = el, depth = 0; a && depth < MAX_DEPTH; a = parentOf(a), depth++) {
      if (a.id) return [`#${a.id}`, ...steps].join(" > ");
      const testid = a.getAttribute("data-testid");
      if (testid) return [`[data-testid="${testid}"]`, ...steps].join(" > ");
      const parent = a.parentElement;
      const same = parent ? [...parent.children].filter((c) => c.localName === a.localName) : [a];
      steps.unshift(same.length > 1 ? `${a.localName}:nth-of-type(${same.indexOf(a) + 1})` : a.localName);
    }
    return steps.join(" > ");
  }
  function describe(el) {
    const role = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
    const type = el.localName === "input" ? (el.getAttribute("type") || "text").toLowerCase() : "";
    const chain = [];
    for (let a = el, depth = 0; a && depth < MAX_DEPTH; a = parentOf(a), depth++) chain.push(ident(a));
    const name = el.getAttribute("aria-label") || el.textContent || el.getAttribute("title") || "";
    return {
      ...ident(el),
      role: role || (type ? (type === "checkbox" || type === "radio" ? type : "button") : IMPLICIT[el.localName] || ""),
      name: name.replace(/\s+/g, " ").trim().slice(0, 80),
      selector: selector(el),
      chain,
    };
  }
  function list(limit) {
    controls = [...all(document)].filter((el) => isControl(el) && shown(el) && enabled(el));
    return { found: controls.length, described: controls.slice(0, limit).map(describe) };
  }
  // A form control's own state: a checkbox that can be checked is not dead without a handler.
  function valueOf(el) {
    return el.localName === "input" || el.localName === "select" ? `${el.checked}|${el.value}` : "";
  }
  // Where a mutation happened, without page text: each node's name and its place among its
  // parent's children of that name, from the root.
  function placeOf(node) {
    const steps = [];
    for (let a = node, depth = 0; a && depth < MAX_DEPTH; a = a.parentNode, depth++) {
      const parent = a.parentNode;
      let place = 0;
      if (parent) for (const c of parent.childNodes) { if (c === a) break; if (c.nodeName === a.nodeName) place++; }
      steps.unshift(`${a.nodeName}:${place}`);
    }
    return steps.join(">");
  }
  function names(nodes) {
    return [...nodes].map((n) => n.nodeName).join(",");
  }
  // A mutation's shape: its kind, where, which attribute, which nodes came and went.
  function note(state, records) {
    state.mutations += records.length;
    for (const r of records) {
      if (state.shapes === null) return;
      const shape = `${r.type} ${placeOf(r.target)} ${r.attributeName || ""} +${names(r.addedNodes)} -${names(r.removedNodes)}`;
      if (state.shapes.has(shape)) continue;
      if (state.shapes.size >= MAX_SHAPES) state.shapes = null;
      else state.shapes.add(shape);
    }
  }
  function arm(el) {
    reported.clear();
    // The copy's init script bounds what the document may send from here on.
    document.dispatchEvent(new Event("argus-arm"));
    const state = { mutations: 0, focus: document.activeElement, href: location.href,
                    scroll: [scrollX, scrollY], el, value: valueOf(el), sent: 0 };
    state.shapes = new Set();
    state.observer = new MutationObserver((records) => note(state, records));
    state.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // A submit button of a form with an unmet constraint (a required field left empty) makes
    // the browser show its validation message: an effect with no DOM trace.
    state.invalid = false;
    state.onInvalid = () => { state.invalid = true; };
    document.addEventListener("invalid", state.onInvalid, true);
    watch = state;
  }
  function activate(i) {
    const el = controls[i];
    if (el.localName === "select") {
      if (el.options.length < 2) return "select with fewer than two options";
      el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
      el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return "";
    }
    el.click();
    return "";
  }
  function effects() {
    const state = watch;
    watch = null;
    note(state, state.observer.takeRecords());
    state.observer.disconnect();
    document.removeEventListener("invalid", state.onInvalid, true);
    const found = [];
    if (state.mutations) found.push("dom");
    if (state.invalid) found.push("validation");
    const now = document.activeElement;
    if (now !== state.focus && now !== state.el) found.push("focus");
    if (valueOf(state.el) !== state.value) found.push("value");
    // An empty fragment ("#") only scrolls to the top: the dead link's classic href.
    if (location.href !== state.href && location.href !== `${state.href}#`) found.push("url");
    if (scrollX !== state.scroll[0] || scrollY !== state.scroll[1]) found.push("scroll");
    for (const kind of [...reported].sort()) found.push(kind);
    return { kinds: found, dom: state.shapes === null ? null : [...state.shapes].sort(),
             sent: state.sent };
  }
  function start(i) {
    arm(controls[i]);
    return activate(i);
  }
  function neutral() {
    if (!document.body) return "no body";
    arm(document.body);
    document.body.click();
    return "";
  }
  return { list, arm: (i) => arm(controls[i]), activate, effects, start, neutral };
})();
