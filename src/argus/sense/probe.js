// Argus probe: one pass over the rendered DOM, returned as ONE JSON string (returning objects
// through the protocol is about ten times slower): the elements, and the representatives the
// fonts lookup (fonts.py) asks Chromium about. Runs as `page.evaluate(source)`, so it is an
// arrow function expression taking the list of style properties to dump.
(properties) => {
  const SKIP = new Set(["HEAD", "SCRIPT", "STYLE", "META", "LINK", "NOSCRIPT", "TEMPLATE", "TITLE"]);
  const INPUT_ROLES = {
    button: "button", submit: "button", reset: "button", image: "button", checkbox: "checkbox",
    radio: "radio", range: "slider", number: "spinbutton", search: "searchbox",
  };
  const TAG_ROLES = {
    A: (el) => (el.hasAttribute("href") ? "link" : "generic"),
    ARTICLE: () => "article", ASIDE: () => "complementary", BUTTON: () => "button",
    DIALOG: () => "dialog", FIELDSET: () => "group", FIGURE: () => "figure",
    FORM: () => "form", H1: () => "heading", H2: () => "heading", H3: () => "heading",
    H4: () => "heading", H5: () => "heading", H6: () => "heading", HR: () => "separator",
    IMG: (el) => (el.getAttribute("alt") === "" ? "presentation" : "img"),
    LI: () => "listitem", MAIN: () => "main", NAV: () => "navigation", OL: () => "list",
    UL: () => "list", MENU: () => "list", OPTION: () => "option", P: () => "paragraph",
    PROGRESS: () => "progressbar", SELECT: (el) => (el.multiple || el.size > 1 ? "listbox" : "combobox"),
    TABLE: () => "table", TBODY: () => "rowgroup", THEAD: () => "rowgroup", TFOOT: () => "rowgroup",
    TR: () => "row", TD: () => "cell", TH: () => "columnheader", TEXTAREA: () => "textbox",
    SUMMARY: () => "button", DETAILS: () => "group", LABEL: () => "generic",
    HEADER: (el) => (el.closest("article, aside, main, nav, section") ? "generic" : "banner"),
    FOOTER: (el) => (el.closest("article, aside, main, nav, section") ? "generic" : "contentinfo"),
    SECTION: (el) => (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ? "region" : "generic"),
    INPUT: (el) => INPUT_ROLES[el.type] || (el.hasAttribute("list") ? "combobox" : "textbox"),
    svg: (el) => (el.getAttribute("aria-hidden") === "true" ? "none" : "img"),
  };
  // Roles whose accessible name may come from their content (WCAG "name from content").
  const NAME_FROM_CONTENT = new Set([
    "button", "link", "heading", "cell", "columnheader", "rowheader", "checkbox", "radio",
    "option", "menuitem", "tab", "switch", "tooltip", "treeitem", "row",
  ]);
  const INTERACTIVE_ROLES = new Set([
    "button", "link", "checkbox", "radio", "slider", "spinbutton", "searchbox", "textbox",
    "combobox", "listbox", "option", "menuitem", "tab", "switch",
  ]);
  const clean = (text) => (text || "").replace(/\s+/g, " ").trim();

  const roleOf = (el) => {
    const explicit = clean(el.getAttribute("role")).split(" ")[0];
    if (explicit) return explicit;
    const rule = TAG_ROLES[el.tagName];
    return rule ? rule(el) : "generic";
  };

  const hiddenFromTree = (el) =>
    el.getAttribute("aria-hidden") === "true" || el.hidden ||
    getComputedStyle(el).display === "none" || getComputedStyle(el).visibility === "hidden";

  const contentText = (el) => {
    let out = "";
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) out += " " + node.textContent;
      else if (node.nodeType === Node.ELEMENT_NODE && !hiddenFromTree(node)) {
        const label = node.getAttribute("aria-label");
        if (label) out += " " + label;
        else if (node.tagName === "IMG") out += " " + (node.getAttribute("alt") || "");
        else out += " " + contentText(node);
      }
    }
    return out;
  };

  const byIds = (ids) =>
    clean(ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean)
      .map((ref) => ref.getAttribute("aria-label") || contentText(ref)).join(" "));

  const nameOf = (el, role) => {
    const labelledby = el.getAttribute("aria-labelledby");
    if (labelledby) {
      const text = byIds(labelledby);
      if (text) return text;
    }
    const label = clean(el.getAttribute("aria-label"));
    if (label) return label;
    if (el.labels && el.labels.length) {
      const text = clean(Array.from(el.labels).map((l) => contentText(l)).join(" "));
      if (text) return text;
    }
    if (el.tagName === "IMG" || (el.tagName === "INPUT" && el.type === "image")) {
      const alt = clean(el.getAttribute("alt"));
      if (alt) return alt;
    }
    if (el.tagName === "INPUT" && ["button", "submit", "reset"].includes(el.type)) {
      return clean(el.value) || (el.type === "submit" ? "Submit" : el.type === "reset" ? "Reset" : "");
    }
    if (el.tagName === "svg") {
      const title = el.querySelector("title");
      if (title) return clean(title.textContent);
    }
    if (NAME_FROM_CONTENT.has(role)) {
      const text = clean(contentText(el));
      if (text) return text;
    }
    if (["textbox", "searchbox", "combobox"].includes(role)) {
      const placeholder = clean(el.getAttribute("placeholder"));
      if (placeholder) return placeholder;
    }
    return clean(el.getAttribute("title"));
  };

  const ownText = (el) => {
    let text = "";
    for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    return clean(text);
  };

  const headingLevel = (el, role) => {
    if (role !== "heading") return null;
    const aria = parseInt(el.getAttribute("aria-level") || "", 10);
    if (aria > 0) return aria;
    const match = /^H([1-6])$/.exec(el.tagName);
    return match ? Number(match[1]) : 2;
  };

  const isInteractive = (el, role) => {
    if (el.disabled) return false;
    if (INTERACTIVE_ROLES.has(role)) return true;
    if (el.isContentEditable) return true;
    const tabindex = el.getAttribute("tabindex");
    return tabindex !== null && Number(tabindex) >= 0;
  };

  const round2 = (v) => Math.round(v * 100) / 100;
  const rectJson = (r) => ({ x: round2(r.x), y: round2(r.y), width: round2(r.width), height: round2(r.height) });
  // Where the element's own text is drawn (its text nodes' line fragments, CSS px like `box`):
  // contrast is measured there, not over the whole block. A very long text gets one rectangle.
  const MAX_TEXT_RECTS = 32;
  const range = document.createRange();
  const textRects = (el) => {
    const rects = [];
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) rects.push(r);
    }
    if (rects.length <= MAX_TEXT_RECTS) return rects.map(rectJson);
    const left = Math.min(...rects.map((r) => r.left)), top = Math.min(...rects.map((r) => r.top));
    const right = Math.max(...rects.map((r) => r.right)), bottom = Math.max(...rects.map((r) => r.bottom));
    return [rectJson({ x: left, y: top, width: right - left, height: bottom - top })];
  };

  // What paints under (or over) the text besides its own and its ancestors' backgrounds, which
  // are all the styles describe: positioned ::before/::after boxes of the element or an
  // ancestor (their boxes cannot be measured, so any may lie under the text), other elements
  // that paint at points inside the text (siblings, images), found by hit testing, and
  // painting elements hit testing cannot see (`pointer-events: none`: overlays, decorations)
  // whose boxes overlap the text's. Points outside the viewport are not hit-tested.
  const REPLACED = new Set(["IMG", "VIDEO", "CANVAS", "IFRAME", "OBJECT", "EMBED", "svg"]);
  const paints = (s) =>
    s.backgroundColor !== "rgba(0, 0, 0, 0)" || s.backgroundImage !== "none" || s.boxShadow !== "none";
  const pseudoCache = new Map();
  const paintingPseudos = (el) => {
    let found = pseudoCache.get(el);
    if (found === undefined) {
      found = [];
      for (const which of ["::before", "::after"]) {
        const s = getComputedStyle(el, which);
        if (s.content === "none" || s.content === "normal" || s.display === "none") continue;
        if (s.position === "static") continue; // in flow: beside the text, not under it
        if (paints(s) || s.content.includes("url(")) found.push(el.tagName.toLowerCase() + which);
      }
      pseudoCache.set(el, found);
    }
    return found;
  };
  const SAMPLES_PER_RECT = [0.25, 0.5, 0.75];
  const MAX_SAMPLED_RECTS = 8;
  const unhittable = []; // [element, its box] for painting elements with pointer-events: none
  const overlaps = (a, b) =>
    Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x) &&
    Math.min(a.y + a.height, b.y + b.height) > Math.max(a.y, b.y);
  const backdropOf = (el, rects) => {
    const found = new Set();
    for (let up = el; up; up = up.parentElement) for (const p of paintingPseudos(up)) found.add(p);
    for (const [other, box] of unhittable) {
      if (other === el || other.contains(el)) continue;
      if (rects.some((r) => overlaps(r, box))) found.add(other.tagName.toLowerCase());
    }
    for (const r of rects.slice(0, MAX_SAMPLED_RECTS)) {
      const y = r.y + r.height / 2;
      for (const share of SAMPLES_PER_RECT) {
        const x = r.x + r.width * share;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        for (const hit of document.elementsFromPoint(x, y)) {
          if (hit === el || hit.contains(el)) continue; // the element and its ancestors
          if (!hit.checkVisibility({ opacityProperty: true })) continue; // e.g. an opacity-0 input
          if (REPLACED.has(hit.tagName) || paints(getComputedStyle(hit)) || paintingPseudos(hit).length) {
            found.add(hit.tagName.toLowerCase());
          }
        }
      }
    }
    return Array.from(found);
  };

  // The canvas under the root's background. Chromium paints the Canvas colour of the root's
  // used color-scheme (its computed color-scheme, else <meta name="color-scheme">, matched
  // against the emulated preference): white for light, #121212 for dark.
  const canvasOf = (root) => {
    let schemes = getComputedStyle(root).colorScheme;
    if (schemes === "normal") {
      const meta = document.querySelector('meta[name="color-scheme"]');
      schemes = (meta && meta.getAttribute("content")) || "normal";
    }
    const offered = schemes.split(/\s+/).filter((word) => word === "light" || word === "dark");
    const preferred = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    const used = offered.includes(preferred) ? preferred : offered[0] || "light";
    return { color_scheme: used, canvas: used === "dark" ? "rgb(18, 18, 18)" : "rgb(255, 255, 255)" };
  };

  const elements = [];
  const indexOf = new Map();
  const root = document.documentElement;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => {
      if (SKIP.has(node.tagName)) return NodeFilter.FILTER_REJECT;
      // An SVG is one element: its shapes are drawing, not structure.
      if (node.parentElement && node.parentElement.closest("svg")) return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  // The fonts lookup's representatives: one element per (font-family, weight, style) with
  // visible text of its own, named by its child-index path for CDP's DOM.querySelector.
  const fontPicks = new Map();
  const withText = []; // [index, element, text rects]
  const pathOf = (el) => {
    const steps = [];
    for (let e = el; e !== root; e = e.parentElement) {
      let n = 1;
      for (let sib = e.previousElementSibling; sib; sib = sib.previousElementSibling) n++;
      steps.push(`:nth-child(${n})`);
    }
    return ["html", ...steps.reverse()].join(" > ");
  };
  for (let el = root; el; el = walker.nextNode()) {
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    const role = roleOf(el);
    const styles = {};
    for (const name of properties) styles[name] = style.getPropertyValue(name);
    const visible =
      rect.width > 0 && rect.height > 0 &&
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    let parent = null;
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (indexOf.has(up)) { parent = indexOf.get(up); break; }
    }
    indexOf.set(el, elements.length);
    const text = ownText(el);
    const rects = text && visible ? textRects(el) : [];
    if (rects.length) withText.push([elements.length, el, rects]);
    if (visible && style.pointerEvents === "none" &&
        (REPLACED.has(el.tagName) || paints(style) || paintingPseudos(el).length)) {
      unhittable.push([el, rect]);
    }
    if (text && visible && el !== root && !el.closest("svg")) {
      const key = [style.fontFamily, style.fontWeight, style.fontStyle].join("|");
      if (!fontPicks.has(key)) {
        fontPicks.set(key, { selector: pathOf(el), family: style.fontFamily,
                             weight: style.fontWeight, style: style.fontStyle });
      }
    }
    elements.push({
      index: elements.length,
      parent,
      tag: el.tagName.toLowerCase(),
      role,
      name: nameOf(el, role),
      id: el.id || "",
      testid: el.getAttribute("data-testid") || "",
      text,
      heading_level: headingLevel(el, role),
      box: rectJson(rect),
      text_rects: rects,
      backdrop: [], // filled in below, once every element has been seen
      visible,
      interactive: isInteractive(el, role),
      // Only on the element holding the keyboard focus (absent when nothing has it).
      ...(el === document.activeElement && el !== document.body && el !== root
        ? { focused: true } : {}),
      style: styles,
      ...(el === root ? canvasOf(el) : {}),
    });
  }
  for (const [index, el, rects] of withText) elements[index].backdrop = backdropOf(el, rects);
  const webfonts = [];
  document.fonts.forEach((f) => {
    if (f.status === "loaded") webfonts.push({ family: f.family, weight: f.weight, style: f.style });
  });
  return JSON.stringify({ elements, fonts: { picked: Array.from(fontPicks.values()), webfonts } });
}
