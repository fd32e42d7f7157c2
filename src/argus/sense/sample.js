// Argus sampler: which elements of a huge page the probe dumps and axe checks (docs/sense.md,
// "Huge pages"). A function expression taking the budget {max_elements, per_shape, keep_ids}
// and returning a NodeFilter for a TreeWalker over document.documentElement, plus its stats.
// The probe (main world) and axe (its isolated world) each build one over the same DOM, so
// both see the same sample.
//
// Within the budget every element is accepted. Past it: every element of the a11y-id contract
// and its ancestors, everything on the first screen, and the first `per_shape` elements of each
// shape (tag, classes and the parent's shape) so repeated rows keep one representative set,
// until `max_elements` are kept. A sampled-out element is rejected with its whole subtree.
(budget) => {
  const SKIP = new Set(["HEAD", "SCRIPT", "STYLE", "META", "LINK", "NOSCRIPT", "TEMPLATE", "TITLE"]);
  const total = document.getElementsByTagName("*").length;
  const sampling = total > budget.max_elements;
  const forced = new Set();
  if (sampling) {
    for (const id of budget.keep_ids) {
      const hits = [document.getElementById(id), ...document.querySelectorAll(`[data-testid="${CSS.escape(id)}"]`)];
      for (const hit of hits) for (let up = hit; up; up = up.parentElement) forced.add(up);
    }
  }
  const shapeOf = new Map(); // element -> shape id
  const shapeIds = new Map(); // shape key -> id
  const shapeCount = new Map(); // shape id -> elements kept
  const belowFold = new Set(); // shapes past their quota with an element below the first screen
  const droppedRoots = [];
  let kept = 1; // the root
  const keep = (el) => {
    if (!sampling || el === document.body) return true;
    const parentShape = shapeOf.get(el.parentElement) ?? -1;
    const key = `${parentShape}>${el.tagName}.${el.getAttribute("class") || ""}`;
    let shape = shapeIds.get(key);
    if (shape === undefined) shapeIds.set(key, (shape = shapeIds.size));
    shapeOf.set(el, shape);
    if (forced.has(el)) return true;
    const count = shapeCount.get(shape) || 0;
    // Past its quota a shape is kept only on the first screen; once one of its elements lies
    // below it, the rest (later in document order) are taken to be too: no more layout reads.
    return kept < budget.max_elements && (
      count < budget.per_shape ||
      (!belowFold.has(shape) && (el.getBoundingClientRect().top < innerHeight || !belowFold.add(shape))));
  };
  const acceptNode = (node) => {
    if (SKIP.has(node.tagName)) return NodeFilter.FILTER_REJECT;
    // An SVG is one element: its shapes are drawing, not structure.
    if (node.parentElement && node.parentElement.closest("svg")) return NodeFilter.FILTER_REJECT;
    if (!keep(node)) {
      droppedRoots.push(node);
      return NodeFilter.FILTER_REJECT;
    }
    kept++;
    if (sampling) {
      const shape = shapeOf.get(node);
      if (shape !== undefined) shapeCount.set(shape, (shapeCount.get(shape) || 0) + 1);
    }
    return NodeFilter.FILTER_ACCEPT;
  };
  const stats = () => (sampling
    ? { total, kept, dropped_subtrees: droppedRoots.length,
        max_elements: budget.max_elements, per_shape: budget.per_shape }
    : null);
  return { acceptNode, droppedRoots, stats };
}
