// Sales overview: a small dashboard rendered from a fixture so every render is deterministic.
// URL parameters: argus_fixture=<name> loads fixtures/<name>.json (default "populated");
// argus_appearance=light|dark forces an appearance, otherwise prefers-color-scheme decides.
"use strict";

const params = new URLSearchParams(window.location.search);
const root = document.documentElement;
const byTestid = (id) => document.querySelector(`[data-testid="${id}"]`);
const summary = byTestid("dash.summary");
const rows = byTestid("orders.rows");
const table = byTestid("orders");
const empty = byTestid("orders.empty");
const chart = byTestid("chart.revenue");
const legend = byTestid("chart.legend");
const wizardStep = byTestid("wizard.step");
const wizardNext = byTestid("wizard.next");
const rowTemplate = document.getElementById("order-row");
const SVG = "http://www.w3.org/2000/svg";
// Each region's series colour is a palette token.
const SERIES = [
  { region: "North", token: "chart-1" },
  { region: "South", token: "chart-2" },
  { region: "West", token: "chart-3" },
];

let period = "";
let orders = [];
let step = 1;

function applyAppearance() {
  const forced = params.get("argus_appearance");
  const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  root.dataset.appearance = forced === "light" || forced === "dark" ? forced : dark ? "dark" : "light";
}

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const count = new Intl.NumberFormat("en-US");

function formatDate(iso) {
  return iso;
}

function byDateDescending(a, b) {
  return b.date.localeCompare(a.date);
}

function removeOrder(order) {
  orders = orders.filter((other) => other !== order);
  render();
}

function renderRow(order) {
  const row = rowTemplate.content.firstElementChild.cloneNode(true);
  row.dataset.testid = `orders.row.${order.id}`;
  row.querySelector(".date").textContent = formatDate(order.date);
  row.querySelector(".customer").textContent = order.customer;
  row.querySelector(".region").textContent = order.region;
  row.querySelector(".amount").textContent = money.format(order.amount);
  row.querySelector(".units").textContent = count.format(order.units);
  const remove = row.querySelector(".remove");
  remove.dataset.testid = `orders.row.${order.id}.remove`;
  remove.querySelector(".visually-hidden").textContent = ` ${order.customer}`;
  remove.addEventListener("click", () => removeOrder(order));
  return row;
}

function renderKpis() {
  const revenue = orders.reduce((sum, order) => sum + order.amount, 0);
  byTestid("kpi.revenue").textContent = money.format(revenue);
  byTestid("kpi.orders").textContent = count.format(orders.length);
  byTestid("kpi.average").textContent = money.format(orders.length ? revenue / orders.length : 0);
}

function renderChart() {
  const totals = SERIES.map((series) => ({
    ...series,
    total: orders.filter((o) => o.region === series.region).reduce((s, o) => s + o.amount, 0),
  }));
  const top = Math.max(1, ...totals.map((t) => t.total));
  const marks = [];
  totals.forEach((series, i) => {
    const height = Math.round((series.total / top) * 112);
    const bar = document.createElementNS(SVG, "rect");
    bar.setAttribute("class", "bar");
    bar.dataset.series = series.region;
    bar.setAttribute("x", String(48 + i * 144));
    bar.setAttribute("y", String(128 - height));
    bar.setAttribute("width", "96");
    bar.setAttribute("height", String(height));
    bar.style.fill = `var(--color-${series.token})`;
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("class", "axis-label");
    label.setAttribute("x", String(96 + i * 144));
    label.setAttribute("y", "152");
    label.setAttribute("text-anchor", "middle");
    label.textContent = series.region;
    marks.push(bar, label);
  });
  const axis = document.createElementNS(SVG, "line");
  axis.setAttribute("class", "axis");
  axis.setAttribute("x1", "32");
  axis.setAttribute("x2", "464");
  axis.setAttribute("y1", "128");
  axis.setAttribute("y2", "128");
  chart.replaceChildren(...marks, axis);
  chart.setAttribute(
    "aria-label",
    `Revenue by region: ${totals.map((t) => `${t.region} ${money.format(t.total)}`).join(", ")}`,
  );
  legend.replaceChildren(
    ...totals.map((series) => {
      const item = document.createElement("li");
      item.className = "legend-item";
      item.dataset.series = series.region;
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.backgroundColor = `var(--color-${series.token})`;
      item.append(swatch, series.region);
      return item;
    }),
  );
}

function render() {
  const sorted = [...orders].sort(byDateDescending);
  rows.replaceChildren(...sorted.map(renderRow));
  summary.textContent = `${period} · ${orders.length} ${orders.length === 1 ? "order" : "orders"}`;
  table.hidden = orders.length === 0;
  empty.hidden = orders.length !== 0;
  renderKpis();
  renderChart();
}

function showStep(next) {
  step = next;
  for (const field of document.querySelectorAll("[data-step]")) {
    field.hidden = field.dataset.step !== String(step);
  }
  wizardStep.textContent = `Step ${step} of 2`;
  wizardNext.textContent = step === 1 ? "Next" : "Create report";
}

wizardNext.addEventListener("click", () => {
  showStep(step === 1 ? 2 : 1);
});

async function loadFixture() {
  const name = params.get("argus_fixture") || "populated";
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad fixture name ${JSON.stringify(name)}`);
  const response = await fetch(`fixtures/${name}.json`);
  if (!response.ok) throw new Error(`fixture ${name} answered ${response.status}`);
  return response.json();
}

applyAppearance();
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyAppearance);
loadFixture()
  .then((data) => {
    period = data.period;
    orders = data.orders.map((order) => ({ ...order }));
    render();
  })
  .catch((error) => {
    console.error(`dashboard: cannot load the fixture: ${error.message}`);
  });
