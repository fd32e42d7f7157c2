// Argus graphics probe: inline SVG marks and text, the charts they belong to, their legends,
// and the canvases a page declares as charts (docs/sense.md, "Charts"). A factory the probe
// (probe.js) calls with its own helpers; it returns `collect(svgs, canvases)`, where `svgs` and
// `canvases` are [element index, element(, aria-hidden)] from the probe's walk, `indexOf` maps
// every dumped element to its index, and `collect` returns the probe.json `graphics` object. Counts are capped (MAX_*); what is left out is counted.
({ clean, rectJson, flatParent, nameOf }) => {
  const MAX_MARKS = 600;
  const MAX_CHARTS = 40;
  const MAX_LEGEND_ITEMS = 40;
  const MARKS = new Set(["rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text", "tspan"]);
  // Containers whose content is not painted where it stands (definitions, clip paths, masks).
  const UNPAINTED = "defs, clipPath, mask, marker, pattern, symbol, linearGradient, radialGradient, filter";
  const CHART_ROLES = new Set(["img", "graphics-document", "figure", "application", "document"]);
  const SERIES_CLASS = /(?:^|-)series-[\w-]+$/;
  const LEGEND_CLASS = /legend/i;

  const opacityCache = new Map();
  // Every group opacity from the element up to the root, multiplied.
  const opacityOf = (el) => {
    if (!el) return 1;
    let value = opacityCache.get(el);
    if (value === undefined) {
      const own = parseFloat(getComputedStyle(el).opacity);
      value = (Number.isFinite(own) ? own : 1) * opacityOf(flatParent(el));
      opacityCache.set(el, value);
    }
    return value;
  };
  const num = (v, dflt) => {
    const n = parseFloat(v);
    return Number.isFinite(n) ? n : dflt;
  };
  // Why a shape is decoration (hidden from assistive technology or marked so), "" when not.
  const decorationOf = (el, stop) => {
    for (let up = el; up; up = flatParent(up)) {
      if (up.getAttribute("aria-hidden") === "true") return "aria-hidden";
      const role = clean(up.getAttribute("role"));
      if (role === "presentation" || role === "none") return "role=" + role;
      if (up.hasAttribute("data-argus-decorative")) return "data-argus-decorative";
      if (up === stop) break;
    }
    return "";
  };
  // The series a shape draws: data-series on it or a group above it inside the SVG, else a
  // chart library's series class (Highcharts' highcharts-series-0, c3's c3-target-...).
  const seriesOf = (el, stop) => {
    for (let up = el; up && up !== stop; up = up.parentElement) {
      const named = up.getAttribute("data-series");
      if (named) return clean(named);
      const cls = Array.from(up.classList || []).find((c) => SERIES_CLASS.test(c));
      if (cls) return cls;
    }
    return "";
  };
  const stepOf = (el) => {
    let n = 1;
    for (let sib = el.previousElementSibling; sib; sib = sib.previousElementSibling) {
      if (sib.tagName === el.tagName) n++;
    }
    let more = false;
    for (let sib = el.nextElementSibling; sib && !more; sib = sib.nextElementSibling) {
      more = sib.tagName === el.tagName;
    }
    return n > 1 || more ? `${el.tagName}:nth-of-type(${n})` : el.tagName;
  };
  // A selector for the shape below its SVG (its own id first).
  const pathBelow = (el, svg) => {
    if (el.id) return "#" + el.id;
    const steps = [];
    for (let up = el; up && up !== svg; up = up.parentElement) {
      if (up.id) { steps.push("#" + up.id); break; }
      steps.push(stepOf(up));
    }
    return steps.reverse().join(" > ");
  };
  const markName = (el) => {
    const label = clean(el.getAttribute("aria-label"));
    if (label) return label;
    const ids = el.getAttribute("aria-labelledby");
    if (ids) {
      const text = clean(ids.split(/\s+/).map((id) => document.getElementById(id))
        .filter(Boolean).map((ref) => ref.textContent).join(" "));
      if (text) return text;
    }
    const title = Array.from(el.children).find((c) => c.tagName === "title");
    return title ? clean(title.textContent) : "";
  };
  const ownText = (el) =>
    clean(Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent).join(""));

  const marks = [];
  const markOf = new Map(); // SVG element -> mark index
  let total = 0;
  const readMark = (el, svg, svgIndex) => {
    const text = el.tagName === "text" || el.tagName === "tspan" ? ownText(el) : "";
    if ((el.tagName === "text" || el.tagName === "tspan") && !text) return;
    if (el.closest(UNPAINTED)) return;
    const rect = el.getBoundingClientRect();
    if (!(rect.width > 0 || rect.height > 0)) return;
    if (!el.checkVisibility({ visibilityProperty: true })) return;
    total++;
    if (marks.length >= MAX_MARKS) return;
    const s = getComputedStyle(el);
    const mark = {
      index: marks.length,
      svg: svgIndex,
      tag: el.tagName,
      path: pathBelow(el, svg),
      id: el.id || "",
      testid: el.getAttribute("data-testid") || "",
      role: clean(el.getAttribute("role")),
      name: markName(el),
      series: seriesOf(el, svg),
      decorative: decorationOf(el, svg) || (svgDecoration.get(svg) || ""),
      box: rectJson(rect),
      fill: s.fill,
      stroke: s.stroke,
      stroke_width: num(s.strokeWidth, 1),
      opacity: Math.round(opacityOf(el) * 1000) / 1000,
      fill_opacity: num(s.fillOpacity, 1),
      stroke_opacity: num(s.strokeOpacity, 1),
    };
    if (text) {
      Object.assign(mark, { text, font_size: s.fontSize, font_weight: s.fontWeight });
    }
    markOf.set(el, mark.index);
    marks.push(mark);
  };
  const svgDecoration = new Map();

  const chartName = (svg, role) => clean(nameOf(svg, role));
  const charts = [];
  let chartsTotal = 0;

  // A legend's items: elements naming a series (data-series, a series class) or list items,
  // each with its label and the colour of its swatch (an SVG shape's paint, or an HTML box's
  // background or border).
  const swatchOf = (item) => {
    const candidates = [item, ...item.querySelectorAll("*")];
    for (const c of candidates) {
      if (markOf.has(c) && !marks[markOf.get(c)].text) {
        const m = marks[markOf.get(c)];
        return { kind: "mark", mark: m.index, color: m.fill !== "none" ? m.fill : m.stroke, box: m.box };
      }
      if (c instanceof SVGElement) continue;
      const s = getComputedStyle(c);
      const r = c.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0 || r.width > 48 || r.height > 48) continue;
      if (s.backgroundColor !== "rgba(0, 0, 0, 0)") {
        return { kind: "box", element: elementIndex.get(c) ?? null, color: s.backgroundColor, box: rectJson(r) };
      }
      if (px(s.borderTopWidth) >= 2 && s.borderTopColor !== "rgba(0, 0, 0, 0)" && !ownText(c)) {
        return { kind: "box", element: elementIndex.get(c) ?? null, color: s.borderTopColor, box: rectJson(r) };
      }
    }
    return null;
  };
  const px = (v) => parseFloat(v) || 0;
  const readLegend = (node, source, svg) => {
    let items = Array.from(node.querySelectorAll("[data-series]"));
    if (!items.length) items = Array.from(node.querySelectorAll('[role="listitem"], li'));
    if (!items.length) {
      items = Array.from(node.querySelectorAll("*")).filter((c) =>
        Array.from(c.classList || []).some((k) => /legend-?item/i.test(k) || SERIES_CLASS.test(k)));
    }
    const out = [];
    for (const item of items.slice(0, MAX_LEGEND_ITEMS)) {
      const label = clean(item.getAttribute("aria-label")) || clean(item.textContent);
      const series = clean(item.getAttribute("data-series")) || seriesOf(item, node.parentElement) || label;
      out.push({ series, label, swatch: swatchOf(item) });
    }
    return { source, items: out, items_total: items.length };
  };
  // Where a chart's legend is: inside the SVG (a group with role list or legend, a
  // data-argus-legend element, a legend class), or outside it: an element with
  // data-argus-legend naming the SVG's id, else the nearest legend sharing a container
  // with this chart alone.
  const legendNodeOf = (svg, svgs) => {
    const inside = svg.querySelector('[data-argus-legend], [role="legend"], g[role="list"]');
    if (inside) return [inside, inside.hasAttribute("data-argus-legend") ? "data-argus-legend" : "role"];
    if (svg.id) {
      const named = document.querySelector(`[data-argus-legend="${CSS.escape(svg.id)}"]`);
      if (named) return [named, "data-argus-legend"];
    }
    const classed = Array.from(svg.querySelectorAll("g[class]")).find((g) => LEGEND_CLASS.test(g.getAttribute("class")));
    if (classed) return [classed, "class"];
    for (let up = svg.parentElement; up && up !== document.body; up = up.parentElement) {
      if (svgs.filter(([, other]) => up.contains(other) && CHART_ROLES.has(chartRole(other))).length > 1) break;
      const marked = up.querySelector('[data-argus-legend=""]');
      if (marked) return [marked, "data-argus-legend"];
      const listed = Array.from(up.querySelectorAll('[role="list"], ul, ol, div[class]')).find((n) =>
        !svg.contains(n) && LEGEND_CLASS.test((n.getAttribute("aria-label") || "") + " " + (n.getAttribute("class") || "")));
      if (listed) return [listed, "class"];
    }
    return [null, ""];
  };
  const chartRole = (svg) => {
    const role = clean(svg.getAttribute("role")).split(" ")[0];
    if (role) return role;
    const named = svg.hasAttribute("aria-label") || svg.hasAttribute("aria-labelledby") ||
      Array.from(svg.children).some((c) => c.tagName === "title");
    return named ? "img" : "";
  };
  let elementIndex = new Map();

  const collect = (svgs, canvases, indexOf) => {
    elementIndex = indexOf;
    for (const [index, svg, hidden] of svgs) {
      if (svg.parentElement && svg.parentElement.closest("svg")) continue; // nested: the outer reads it
      if (hidden) svgDecoration.set(svg, "aria-hidden");
      if (total >= MAX_MARKS) {
        total += svg.querySelectorAll(Array.from(MARKS).join(", ")).length; // counted, not read
        continue;
      }
      for (const el of svg.querySelectorAll("*")) {
        if (MARKS.has(el.tagName)) readMark(el, svg, index);
      }
    }
    for (const [index, svg, hidden] of svgs) {
      const role = chartRole(svg);
      if (hidden || !CHART_ROLES.has(role)) continue;
      chartsTotal++;
      if (charts.length >= MAX_CHARTS) continue;
      const [node, source] = legendNodeOf(svg, svgs);
      charts.push({
        svg: index,
        role,
        name: chartName(svg, role),
        legend: node ? readLegend(node, source, svg) : null,
      });
    }
    const declared = [];
    let undeclared = 0;
    for (const [index, el] of canvases) {
      const role = clean(el.getAttribute("role")).split(" ")[0];
      const name = clean(nameOf(el, role || "img"));
      const marked = el.hasAttribute("data-argus-chart");
      if (!marked && !(el.tagName === "CANVAS" && role === "img" && name)) {
        undeclared++;
        continue;
      }
      declared.push({ element: index, tag: el.tagName.toLowerCase(), name,
                      how: marked ? "data-argus-chart" : "role=img", box: rectJson(el.getBoundingClientRect()) });
    }
    return {
      marks,
      marks_total: total,
      charts,
      charts_total: chartsTotal,
      canvases: declared.slice(0, MAX_CHARTS),
      canvases_total: declared.length,
      canvases_undeclared: undeclared,
      limits: { marks: MAX_MARKS, charts: MAX_CHARTS, legend_items: MAX_LEGEND_ITEMS },
    };
  };
  return collect;
}
