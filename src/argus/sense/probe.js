// Argus probe: one pass over the rendered DOM, returned as ONE JSON string (returning objects
// through the protocol is about ten times slower): the elements, and the representatives the
// fonts lookup (fonts.py) asks Chromium about, and the boxes of the view's snapshot masks. Runs
// as `page.evaluate(source, args)`, so it is an arrow function expression taking {properties,
// budget: {max_elements, per_shape, keep_ids}, masks: {selectors, full_page} (absent: none
// asked)}, the sampler's factory (sample.js) and the graphics reader's (graphics.js); probe.py
// joins them.
({ properties, budget, masks }, makeSampler, makeGraphics) => {
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

  // The nodes rendered as an element's children (the flat tree): a shadow host's shadow root,
  // a slot's assigned nodes (else its fallback content), or the plain children.
  const flatChildren = (el) => {
    if (el.shadowRoot) return Array.from(el.shadowRoot.childNodes);
    if (el.tagName === "SLOT") {
      const assigned = el.assignedNodes({ flatten: true });
      return assigned.length ? assigned : Array.from(el.childNodes);
    }
    return Array.from(el.childNodes);
  };
  const flatParent = (node) =>
    node.assignedSlot || (node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentElement);
  const isFlatAncestor = (up, el) => {
    for (let n = el; n; n = flatParent(n)) if (n === up) return true;
    return false;
  };

  const ownTextNodes = (el) =>
    el.tagName === "TEXTAREA" ? [] : flatChildren(el).filter((n) => n.nodeType === Node.TEXT_NODE);
  const ownText = (el) => clean(ownTextNodes(el).map((n) => n.textContent).join(""));

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
  const textRects = (el, clip) => {
    const rects = [];
    for (const node of ownTextNodes(el)) {
      if (!node.textContent.trim()) continue;
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        const shown = intersect(r, clip);
        if (shown && shown.width > 1 && shown.height > 1) rects.push(shown);
      }
    }
    return mergeRects(rects);
  };
  const mergeRects = (rects) => {
    if (rects.length <= MAX_TEXT_RECTS) return rects.map(rectJson);
    const left = Math.min(...rects.map((r) => r.left)), top = Math.min(...rects.map((r) => r.top));
    const right = Math.max(...rects.map((r) => r.right)), bottom = Math.max(...rects.map((r) => r.bottom));
    return [rectJson({ x: left, y: top, width: right - left, height: bottom - top })];
  };

  // Where content can be seen at all: the document's scrollable area, cut by every ancestor
  // that clips its overflow (its padding box), `clip` on an absolutely positioned element and an
  // `inset()` clip-path. Text whose rectangles fall wholly outside is hidden from everyone
  // (off-screen, the visually-hidden patterns) and is not measured.
  const intersect = (r, c) => {
    if (!c) return { x: r.x, y: r.y, width: r.width, height: r.height };
    const x = Math.max(r.x, c.x), y = Math.max(r.y, c.y);
    const right = Math.min(r.x + r.width, c.x + c.width), bottom = Math.min(r.y + r.height, c.y + c.height);
    return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
  };
  const EMPTY = { x: 0, y: 0, width: 0, height: 0 };
  const px = (v) => parseFloat(v) || 0;
  const insetOf = (value, rect) => {
    // inset(<top> <right>? <bottom>? <left>? [round ...]?) with px or % lengths
    const match = /^inset\(([^)]*?)(?:\s+round\b[^)]*)?\)$/.exec(value.trim());
    if (!match) return null;
    const parts = match[1].trim().split(/\s+/);
    const [t, r = t, b = t, l = r] = parts;
    const len = (v, size) => (v.endsWith("%") ? (parseFloat(v) / 100) * size : px(v));
    const x = rect.x + len(l, rect.width), y = rect.y + len(t, rect.height);
    const width = rect.width - len(l, rect.width) - len(r, rect.width);
    const height = rect.height - len(t, rect.height) - len(b, rect.height);
    return width > 0 && height > 0 ? { x, y, width, height } : EMPTY;
  };
  const clipRectOf = (value, rect) => {
    const match = /^rect\(([^)]*)\)$/.exec(value.trim());
    if (!match) return null;
    const [t, r, b, l] = match[1].split(/[\s,]+/).map((v) => (v === "auto" ? null : px(v)));
    const x = rect.x + (l ?? 0), y = rect.y + (t ?? 0);
    const width = (r ?? rect.width) - (l ?? 0), height = (b ?? rect.height) - (t ?? 0);
    return width > 0 && height > 0 ? { x, y, width, height } : EMPTY;
  };
  // The clip an element imposes on its own content (null: none).
  const ownClip = (el, style, rect) => {
    let clip = null;
    const cut = (c) => { clip = clip ? intersect(clip, c) || EMPTY : c; };
    // Only hidden/clip cut content off for good; a scroll container's content can be scrolled to.
    const hidesX = style.overflowX === "hidden" || style.overflowX === "clip";
    const hidesY = style.overflowY === "hidden" || style.overflowY === "clip";
    // The root's overflow, and the body's when the root's is visible, belong to the viewport.
    const toViewport = el === root ||
      (el === document.body && rootStyle.overflowX === "visible" && rootStyle.overflowY === "visible");
    if (!toViewport && (hidesX || hidesY)) {
      const bl = px(style.borderLeftWidth), bt = px(style.borderTopWidth);
      cut({
        x: hidesX ? rect.x + bl : -1e9,
        y: hidesY ? rect.y + bt : -1e9,
        width: hidesX ? Math.max(0, rect.width - bl - px(style.borderRightWidth)) : 2e9,
        height: hidesY ? Math.max(0, rect.height - bt - px(style.borderBottomWidth)) : 2e9,
      });
    }
    if ((style.position === "absolute" || style.position === "fixed") && style.clip && style.clip !== "auto") {
      const c = clipRectOf(style.clip, rect);
      if (c) cut(c);
    }
    if (style.clipPath && style.clipPath !== "none") {
      const c = insetOf(style.clipPath, rect);
      if (c) cut(c);
    }
    return clip;
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
    const roots = [document];
    for (let up = el; up; up = flatParent(up)) {
      for (const p of paintingPseudos(up)) found.add(p);
      const home = up.getRootNode();
      if (home instanceof ShadowRoot && !roots.includes(home)) roots.push(home);
    }
    for (const [other, box] of unhittable) {
      if (isFlatAncestor(other, el)) continue;
      if (rects.some((r) => overlaps(r, box))) found.add(other.tagName.toLowerCase());
    }
    for (const r of rects.slice(0, MAX_SAMPLED_RECTS)) {
      const y = r.y + r.height / 2;
      for (const share of SAMPLES_PER_RECT) {
        const x = r.x + r.width * share;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        const hits = new Set(roots.flatMap((r) => r.elementsFromPoint(x, y)));
        for (const hit of hits) {
          if (isFlatAncestor(hit, el)) continue; // the element and its ancestors
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

  // Text cut short where it is drawn: clipped by overflow (an ellipsis or a plain clip) or
  // by -webkit-line-clamp, seen as content wider or taller than the box that shows it.
  const truncationOf = (el, style) => {
    const clamp = style.webkitLineClamp && style.webkitLineClamp !== "none";
    const clips = clamp || style.overflowX !== "visible" || style.overflowY !== "visible";
    if (!clips) return {};
    const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
    if (!wide && !tall) return {};
    const how = clamp ? "line-clamp" : wide && style.textOverflow === "ellipsis" ? "ellipsis" : "clip";
    return { truncated: how };
  };

  // Text WCAG 1.4.3 calls incidental because its component is inactive: a disabled control,
  // anything inside a disabled fieldset or under aria-disabled="true", and the labels of a
  // disabled control (<label> or aria-labelledby).
  const disabledControl = (c) => c.matches(":disabled") || c.getAttribute("aria-disabled") === "true";
  const labelsOfDisabled = new Set();
  for (const c of document.querySelectorAll("[aria-labelledby]")) {
    if (!disabledControl(c)) continue;
    for (const id of c.getAttribute("aria-labelledby").split(/\s+/)) {
      const ref = id && document.getElementById(id);
      if (ref) labelsOfDisabled.add(ref);
    }
  }
  const inactiveOf = (el, inherited) => {
    if (inherited) return inherited;
    if (el.getAttribute("aria-disabled") === "true") return "aria-disabled";
    if (el.tagName === "FIELDSET" && el.disabled) return "disabled fieldset";
    if (el.matches(":disabled")) return "disabled";
    if (el.tagName === "LABEL" && el.control && disabledControl(el.control)) return "label of a disabled control";
    if (labelsOfDisabled.has(el)) return "label of a disabled control";
    return "";
  };

  // The text a form field draws itself (no text node): an input's or textarea's value, else its
  // placeholder, a submit/reset/button input's label, a select's chosen option.
  const TEXT_INPUTS = new Set(["", "text", "search", "email", "url", "tel", "password", "number",
    "date", "time", "datetime-local", "month", "week"]);
  const fieldText = (el, style, rect) => {
    let kind = "";
    if (el.tagName === "INPUT" && ["submit", "reset", "button"].includes(el.type)) {
      if (el.value || el.type !== "button") kind = "label";
    } else if ((el.tagName === "INPUT" && TEXT_INPUTS.has(el.type)) || el.tagName === "TEXTAREA") {
      if (el.value) kind = "value";
      else if (clean(el.getAttribute("placeholder"))) kind = "placeholder";
    } else if (el.tagName === "SELECT" && !el.multiple && el.size <= 1) {
      const chosen = el.options[el.selectedIndex];
      if (chosen && clean(chosen.text)) kind = "value";
    }
    if (!kind) return null;
    const bl = px(style.borderLeftWidth) + px(style.paddingLeft);
    const bt = px(style.borderTopWidth) + px(style.paddingTop);
    const content = {
      x: rect.x + bl, y: rect.y + bt,
      width: rect.width - bl - px(style.borderRightWidth) - px(style.paddingRight),
      height: rect.height - bt - px(style.borderBottomWidth) - px(style.paddingBottom),
    };
    const shown = content.width > 1 && content.height > 1 ? content : rect;
    const placeholder = kind === "placeholder" ? getComputedStyle(el, "::placeholder") : null;
    return {
      kind,
      color: placeholder ? placeholder.color : style.color,
      opacity: placeholder ? placeholder.opacity : "1",
      rects: [rectJson(shown)],
    };
  };

  // A control whose visible text is a glyph or two ("×", "X", "+") and its accessible name:
  // the gate decides whether the glyph is the name's text (argus.gates.rendered_contrast).
  const GLYPH_CONTROLS = new Set(["button", "link", "menuitem", "tab", "switch", "option"]);
  const MAX_GLYPH_CHARS = 3;
  const controlCache = new Map();
  const glyphControlOf = (el) => {
    for (let up = el; up && up !== root; up = flatParent(up)) {
      if (up.nodeType !== Node.ELEMENT_NODE) continue;
      const role = roleOf(up);
      if (!GLYPH_CONTROLS.has(role)) continue;
      if (!controlCache.has(up)) {
        const shown = clean(up.innerText);
        controlCache.set(up, shown.length <= MAX_GLYPH_CHARS ? { name: nameOf(up, role), text: shown } : null);
      }
      return controlCache.get(up);
    }
    return null;
  };

  const elements = [];
  const root = document.documentElement;
  // Which elements: all of them, or a sample of a huge page (sample.js); the sampler also
  // leaves out what is never rendered content (head, scripts, templates).
  const sampler = makeSampler(budget);
  const accept = (node) =>
    node.nodeType === Node.ELEMENT_NODE && sampler.acceptNode(node) === NodeFilter.FILTER_ACCEPT;
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
  // The document's reachable area; a root that hides its horizontal overflow shows one viewport.
  const rootStyle = getComputedStyle(root);
  const bodyStyle = document.body ? getComputedStyle(document.body) : rootStyle;
  const clipsX = [rootStyle.overflowX, bodyStyle.overflowX].some((o) => o === "hidden" || o === "clip");
  const page = {
    x: 0, y: 0,
    width: clipsX ? innerWidth : Math.max(root.scrollWidth, innerWidth),
    height: Math.max(root.scrollHeight, innerHeight),
  };
  // Depth-first over the flat tree (open shadow roots and slots included), in document order.
  // Each entry: [element, parent index, inherited context].
  const svgs = [], canvases = [], indexOf = new Map();
  const stack = [[root, null, { clip: page, positionedClip: page, inactive: "", ariaHidden: false }]];
  while (stack.length) {
    const [el, parent, ctx] = stack.pop();
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    const role = roleOf(el);
    const styles = {};
    for (const name of properties) styles[name] = style.getPropertyValue(name);
    const visible =
      rect.width > 0 && rect.height > 0 &&
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    // The clip this element's content inherits: an absolutely positioned element escapes the
    // clips of its non-positioned ancestors, a fixed one all of them.
    const inherited =
      style.position === "fixed" ? page : style.position === "absolute" ? ctx.positionedClip : ctx.clip;
    const own = ownClip(el, style, rect);
    const clip = own ? intersect(inherited, own) || EMPTY : inherited;
    const inactive = inactiveOf(el, ctx.inactive);
    const ariaHidden = ctx.ariaHidden || el.getAttribute("aria-hidden") === "true";
    const index = elements.length;
    const text = ownText(el);
    const rects = text && visible ? textRects(el, clip) : [];
    if (rects.length) withText.push([index, el, rects]);
    if (visible && style.pointerEvents === "none" &&
        (REPLACED.has(el.tagName) || paints(style) || paintingPseudos(el).length)) {
      unhittable.push([el, rect]);
    }
    if (text && visible && el !== root && !el.closest("svg") && el.getRootNode() === document) {
      const key = [style.fontFamily, style.fontWeight, style.fontStyle].join("|");
      if (!fontPicks.has(key)) {
        fontPicks.set(key, { selector: pathOf(el), family: style.fontFamily,
                             weight: style.fontWeight, style: style.fontStyle });
      }
    }
    const field = visible ? fieldText(el, style, rect) : null;
    if (field) {
      const shown = intersect(field.rects[0], clip);
      field.rects = shown && shown.width > 1 && shown.height > 1 ? [rectJson(shown)] : [];
    }
    elements.push({
      index,
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
      text_hidden: Boolean(text && visible && !rects.length),
      backdrop: [], // filled in below, once every element has been seen
      visible,
      interactive: isInteractive(el, role),
      // Only on the element holding the keyboard focus (absent when nothing has it).
      ...(el === document.activeElement && el !== document.body && el !== root
        ? { focused: true } : {}),
      inactive,
      aria_hidden: ariaHidden,
      ...(field ? { field_text: field } : {}),
      ...(rects.length && glyphControlOf(el) ? { control: glyphControlOf(el) } : {}),
      ...(el.getRootNode() instanceof ShadowRoot ? { in_shadow_root: true } : {}),
      disabled: disabledControl(el) || Boolean(el.closest("fieldset:disabled")),
      ...(text && visible ? truncationOf(el, style) : {}),
      style: styles,
      ...(el === root ? canvasOf(el) : {}),
    });
    indexOf.set(el, index);
    if (visible && (el.tagName === "CANVAS" || el.hasAttribute("data-argus-chart"))) {
      canvases.push([index, el]);
    }
    if (el.tagName === "svg") {
      // An SVG is one element here: its shapes and text are read by graphics.js.
      if (visible) svgs.push([index, el, ariaHidden]);
      continue;
    }
    const positionedClip = style.position !== "static" || style.transform !== "none" ? clip : ctx.positionedClip;
    const next = { clip, positionedClip: style.position === "fixed" ? clip : positionedClip, inactive, ariaHidden };
    const children = flatChildren(el).filter(accept);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], index, next]);
  }
  for (const [index, el, rects] of withText) elements[index].backdrop = backdropOf(el, rects);
  const webfonts = [];
  document.fonts.forEach((f) => {
    if (f.status === "loaded") webfonts.push({ family: f.family, weight: f.weight, style: f.style });
  });
  const fonts = { picked: Array.from(fontPicks.values()), webfonts };
  const graphics = makeGraphics({ clean, rectJson, flatParent, nameOf })(svgs, canvases, indexOf);
  // The view's snapshot masks (argus.diff.masks), any CSS selector: every match in the document
  // and in each open shadow root (searched on its own, as querySelectorAll searches), on the
  // render the screenshots beside this probe show. Boxes are in the render's CSS pixels: the
  // viewport's, or the document's for a full-page render (the viewport's plus the scroll). A
  // match that is not drawn gives no box, as for `visible` above: display: none, zero size,
  // visibility: hidden, opacity 0 (Gradio keeps an idle status tracker over its whole component
  // at opacity 0). A selector the browser cannot parse is named in `mask_errors`. One reading
  // is Argus's, not CSS's, as masks were always read: a bare word (`clock`) names the elements
  // whose id or data-testid it is, and only failing those the elements of that tag.
  const WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;
  const maskBoxesOf = ({ selectors, full_page }) => {
    if (!selectors.length) return { masks: {} };
    const roots = [];
    const collect = (top) => {
      roots.push(top);
      const walker = document.createTreeWalker(top, NodeFilter.SHOW_ELEMENT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.shadowRoot) collect(node.shadowRoot);
      }
    };
    collect(document);
    const dx = full_page ? scrollX : 0, dy = full_page ? scrollY : 0;
    const all = (css) => roots.flatMap((top) => Array.from(top.querySelectorAll(css)));
    const matchesOf = (selector) => {
      const word = selector.trim();
      const named = WORD.test(word) ? all(`[id="${word}"], [data-testid="${word}"]`) : [];
      return named.length ? named : all(selector);
    };
    const found = new Map(), errors = new Map();
    for (const selector of selectors) {
      if (found.has(selector) || errors.has(selector)) continue;
      const boxes = [];
      try {
        for (const el of matchesOf(selector)) {
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.height > 0 &&
              el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
            boxes.push(rectJson({ x: r.x + dx, y: r.y + dy, width: r.width, height: r.height }));
          }
        }
      } catch (err) {
        errors.set(selector, clean(err && err.message ? err.message : String(err)));
        continue;
      }
      found.set(selector, boxes);
    }
    // Object.fromEntries: a selector such as "__proto__" stays a key like any other.
    const out = { masks: Object.fromEntries(found) };
    if (errors.size) out.mask_errors = Object.fromEntries(errors);
    return out;
  };
  const dumped = { elements, fonts, graphics, sampling: sampler.stats() };
  if (masks) Object.assign(dumped, maskBoxesOf(masks));
  return JSON.stringify(dumped);
}
