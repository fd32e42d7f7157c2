// The focus walk's helper, defined in an isolated world of the page (its own globals, the same
// DOM), so the page can neither see nor replace it. argus.sense.focus_visible drives it:
//   read()             after each Tab press: the focused element and its box; keeps the
//                      element and the style signature of its surroundings;
//   current()          the focused element and its box, keeping nothing (the second walk);
//                      both say which kept element it is (seen: its index, -1 when new), so a
//                      repeat is the same element, never another at the same place. The focused
//                      element is the deepest: inside open shadow roots, not their host;
//   back()             with the walk over: let the focus go and scroll back to where the page
//                      was when the walk began (a stop below the first screen scrolled it);
//   mutated()          whether the page changed its DOM since the walk began (a focus handler
//                      at work, or a page that never holds still);
//   elements()         the kept elements (for CDP's CSS.forcePseudoState);
//   neighbours(clips)  with nothing focused: the styles of every other element in each stop's
//                      clip, to compare with while focus is forced on a group;
//   check(indices)     with :focus and :focus-visible forced on those stops: for each, whether
//                      its own signature equals the one real focus gave and its neighbours
//                      are unchanged (same), and how far its own painting reaches (reach).
globalThis.__argusFocus = (() => {
  const MAX_DESCENDANTS = 64;
  // The computed properties that decide how an element paints (its box is compared apart).
  const PAINT = [
    "display", "visibility", "opacity", "position", "z-index", "overflow-x", "overflow-y",
    "transform", "translate", "scale", "rotate", "filter", "backdrop-filter", "clip-path",
    "mask-image", "mix-blend-mode", "isolation", "content", "color", "background-color",
    "background-image", "background-position", "background-size", "background-clip",
    "border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
    "border-top-style", "border-right-style", "border-bottom-style", "border-left-style",
    "border-top-width", "border-right-width", "border-bottom-width", "border-left-width",
    "border-top-left-radius", "border-top-right-radius", "border-bottom-right-radius",
    "border-bottom-left-radius", "border-image-source", "outline-color", "outline-style",
    "outline-width", "outline-offset", "box-shadow", "text-shadow", "text-decoration-line",
    "text-decoration-color", "text-decoration-style", "text-decoration-thickness",
    "text-underline-offset", "font-family", "font-size", "font-style", "font-weight",
    "letter-spacing", "text-transform", "-webkit-text-stroke-width",
    "-webkit-text-stroke-color", "-webkit-text-fill-color", "caret-color", "accent-color",
    "appearance", "cursor",
  ];
  const props = (cs) => {
    let text = "";
    for (const p of PAINT) text += cs.getPropertyValue(p) + ";";
    return text;
  };
  // A pseudo-element paints only with content; without, its other properties do not matter.
  const pseudo = (el, which) => {
    const cs = getComputedStyle(el, which);
    return cs.content === "none" || cs.content === "normal" ? "-" : props(cs);
  };
  const style = (el) =>
    props(getComputedStyle(el)) + "|" + pseudo(el, "::before") + "|" + pseudo(el, "::after");
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return r.x + "," + r.y + "," + r.width + "," + r.height;
  };
  // The element, its ancestors and its descendants: their computed styles (pseudo-elements
  // included) and boxes. null when the subtree is too big to compare (measured for real).
  const signature = (el) => {
    const descendants = el.getElementsByTagName("*");
    if (descendants.length > MAX_DESCENDANTS) return null;
    const parts = [];
    for (let e = el; e; e = e.parentElement) parts.push(style(e), box(e));
    for (const d of descendants) parts.push(style(d), box(d));
    return parts.join("\n");
  };
  // The focused element, through open shadow roots (a component's button, not the component).
  const focused = () => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el;
  };
  const related = (stop, other) => other === stop || other.contains(stop) || stop.contains(other);
  const inClip = (r, c) => r.width > 0 && r.height > 0 && r.right > c.x && r.bottom > c.y &&
    r.x < c.x + c.width && r.y < c.y + c.height;
  // The elements of the document whose box meets the bounds of a call's clips, with their
  // boxes: every box read once for all the clips (on a page of many elements, a box read per
  // element and clip was most of the walk's time), and each clip then looks among these few,
  // not among every element (a box that meets a clip meets the bounds around all of them).
  const within = (clips) => {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const c of clips) {
      if (!c) continue;
      x0 = Math.min(x0, c.x); y0 = Math.min(y0, c.y);
      x1 = Math.max(x1, c.x + c.width); y1 = Math.max(y1, c.y + c.height);
    }
    const found = [];
    for (const el of document.getElementsByTagName("*")) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.right > x0 && r.bottom > y0 && r.x < x1 && r.y < y1) {
        found.push([el, r]);
      }
    }
    return found;
  };
  const neighbourhood = (stop, clip, all) => {
    const parts = [];
    for (const [el, r] of all) if (inClip(r, clip) && !related(stop, el)) parts.push(style(el), box(el));
    return parts.join("\n");
  };
  // What focus may draw away from the element's box: its pseudo-elements and descendants.
  const own = (el) => {
    const parts = [pseudo(el, "::before"), pseudo(el, "::after")];
    for (const d of el.getElementsByTagName("*")) parts.push(style(d), box(d));
    return parts.join("\n");
  };
  // How far an element's own painting reaches (CSS px): its border box grown by its outline and
  // box shadows. null (unbounded) when focus changed its pseudo-elements or descendants, which
  // may be drawn anywhere.
  const length = (text) => parseFloat(text) || 0;
  const reach = (el, before) => {
    if (own(el) !== before) return null;
    const cs = getComputedStyle(el);
    let ink = cs.outlineStyle === "none" ? 0 :
      length(cs.outlineWidth) + Math.max(0, length(cs.outlineOffset));
    if (cs.boxShadow && cs.boxShadow !== "none") {
      for (const shadow of cs.boxShadow.split(/,(?![^(]*\))/)) {
        const numbers = (shadow.replace(/rgba?\([^)]*\)/g, "").match(/-?[\d.]+px/g) || []).map(length);
        ink = Math.max(ink, numbers.reduce((sum, n) => sum + Math.abs(n), 0));
      }
    }
    const r = el.getBoundingClientRect();
    return { x: r.x - ink, y: r.y - ink, width: r.width + 2 * ink, height: r.height + 2 * ink };
  };
  const state = { stops: [], mutations: 0, clips: [], near: [], own: [],
                  scroll: [window.scrollX, window.scrollY] };
  const observer = new MutationObserver((records) => { state.mutations += records.length; });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    back() {
      const el = focused();
      if (el && el.blur) el.blur();
      const [left, top] = state.scroll;
      if (window.scrollX !== left || window.scrollY !== top) {
        window.scrollTo({ left, top, behavior: "instant" });
      }
    },
    mutated() { return state.mutations + observer.takeRecords().length > 0; },
    read() {
      const found = this.current();
      const el = focused();
      // In a shadow root, the neighbours the checks compare (the document's elements) are not
      // its neighbours: no signature, so the stop is measured with real focus.
      const shadowed = el && el.getRootNode() !== document;
      if (found && found.seen < 0) state.stops.push({ el, signature: shadowed ? null : signature(el) });
      return found;
    },
    current() {
      const el = focused();
      if (!el || el === document.body || el === document.documentElement) return null;
      const r = el.getBoundingClientRect();
      return { id: el.id || "", testid: el.getAttribute("data-testid") || "",
               tag: el.tagName.toLowerCase(), x: r.x, y: r.y, width: r.width, height: r.height,
               scrolled: window.scrollX !== 0 || window.scrollY !== 0,
               vw: window.innerWidth, vh: window.innerHeight,
               seen: state.stops.findIndex((stop) => stop.el === el) };
    },
    elements() { return state.stops.map((s) => s.el); },
    neighbours(clips) {
      const all = within(clips);
      state.clips = clips;
      state.near = clips.map((c, i) => (c ? neighbourhood(state.stops[i].el, c, all) : null));
      state.own = clips.map((c, i) => (c ? own(state.stops[i].el) : null));
    },
    check(indices) {
      const all = within(indices.map((i) => state.clips[i]));
      return indices.map((i) => {
        const stop = state.stops[i];
        const same = stop.signature !== null && signature(stop.el) === stop.signature &&
          neighbourhood(stop.el, state.clips[i], all) === state.near[i];
        return { same, reach: reach(stop.el, state.own[i]) };
      });
    },
  };
})()
