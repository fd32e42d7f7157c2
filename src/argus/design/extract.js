// Runs in an isolated world (its own globals: the page cannot replace getComputedStyle or
// Array methods here). Returns one JSON string of raw measurements; Argus validates and fits
// them in Python. Nothing here writes anything or calls back into Argus.
(() => {
  const MAX_ELEMENTS = 5000;
  const px = (text) => {
    const m = /^(-?\d+(?:\.\d+)?)px$/.exec(String(text).trim());
    return m ? Number(m[1]) : null;
  };
  const visible = (el, cs) => {
    if (cs.display === "none" || cs.visibility === "hidden") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const ownText = (el) => {
    for (const node of el.childNodes) {
      if (node.nodeType === 3 && node.textContent.trim()) return true;
    }
    return false;
  };
  const recipe = (el, cs) => ({
    padding: ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].map((k) => px(cs[k])),
    radius: px(cs.borderTopLeftRadius),
    font_size: px(cs.fontSize),
    font_weight: Number(cs.fontWeight) || null,
    shadow: cs.boxShadow === "none" ? null : cs.boxShadow,
    // Chromium's own look for a control nobody styled (2px outset border, 1px 6px padding):
    // the browser's recipe, not the page's.
    browser_default: cs.borderTopStyle === "outset" && cs.borderTopWidth === "2px"
      && cs.paddingTop === "1px" && cs.paddingLeft === "6px",
  });
  const spacing = [];
  const fontSizes = [];
  const shadows = [];
  const components = { button: [], input: [], card: [] };
  const gaps = [];
  const maxWidths = [];
  let columns = null;
  const all = document.body ? document.body.querySelectorAll("*") : [];
  let seen = 0;
  for (const el of all) {
    if (seen >= MAX_ELEMENTS) break;
    const cs = getComputedStyle(el);
    if (!visible(el, cs)) continue;
    seen += 1;
    for (const k of ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft",
                     "marginTop", "marginRight", "marginBottom", "marginLeft",
                     "rowGap", "columnGap"]) {
      const v = px(cs[k]);
      if (v !== null && v > 0) spacing.push(v);
    }
    if (ownText(el)) {
      const size = px(cs.fontSize);
      if (size !== null) fontSizes.push(size);
    }
    if (cs.boxShadow && cs.boxShadow !== "none") shadows.push(cs.boxShadow);
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute("role");
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "button" || role === "button" || (tag === "input" && ["submit", "button"].includes(type))) {
      components.button.push(recipe(el, cs));
    } else if (tag === "textarea" || tag === "select" || (tag === "input" && !["hidden", "checkbox", "radio", "submit", "button"].includes(type))) {
      components.input.push(recipe(el, cs));
    } else if (/(^|[-_\s])card($|[-_\s])/i.test(el.className && el.className.baseVal === undefined ? el.className : "")) {
      components.card.push(recipe(el, cs));
    }
    if (cs.display.includes("grid") || cs.display.includes("flex")) {
      const g = px(cs.columnGap);
      if (g !== null && g > 0) gaps.push(g);
    }
    if (cs.display.includes("grid") && cs.gridTemplateColumns !== "none") {
      const tracks = cs.gridTemplateColumns.split(/\s+(?![^(]*\))/).length;
      columns = columns === null ? tracks : Math.max(columns, tracks);
    }
    const mw = px(cs.maxWidth);
    if (mw !== null) maxWidths.push(mw);
  }
  const rootSize = px(getComputedStyle(document.documentElement).fontSize) || 16;
  const bodySize = document.body ? px(getComputedStyle(document.body).fontSize) : null;
  const breakpoints = [];
  let unreadableSheets = 0;
  const visit = (rules) => {
    for (const rule of rules) {
      if (rule.media && rule.cssRules) {
        const text = rule.media.mediaText;
        const re = /(min|max)-width\s*:\s*(\d+(?:\.\d+)?)(px|em|rem)/g;
        let m;
        while ((m = re.exec(text)) !== null) {
          const value = Number(m[2]) * (m[3] === "px" ? 1 : rootSize);
          breakpoints.push(value);
        }
        visit(rule.cssRules);
      } else if (rule.cssRules) {
        visit(rule.cssRules);
      }
    }
  };
  for (const sheet of document.styleSheets) {
    try {
      visit(sheet.cssRules);
    } catch (e) {
      unreadableSheets += 1;
    }
  }
  return JSON.stringify({
    title: document.title,
    root_font_size: rootSize,
    body_font_size: bodySize,
    elements: seen,
    spacing, font_sizes: fontSizes, shadows, components, gaps,
    max_widths: maxWidths, columns, breakpoints, unreadable_sheets: unreadableSheets,
    viewport_width: window.innerWidth,
  });
})()
