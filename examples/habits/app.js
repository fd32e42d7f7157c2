// Habits: a small list app rendered from a fixture so every render is deterministic.
// URL parameters: argus_fixture=<name> loads fixtures/<name>.json (default "populated");
// argus_appearance=light|dark forces an appearance, otherwise prefers-color-scheme decides.
"use strict";

const params = new URLSearchParams(window.location.search);
const root = document.documentElement;
const summary = document.querySelector('[data-testid="habits.summary"]');
const list = document.querySelector('[data-testid="habits.list"]');
const empty = document.querySelector('[data-testid="habits.empty"]');
const form = document.querySelector('[data-testid="habits.form"]');
const nameInput = document.querySelector('[data-testid="habits.form.name"]');
const addButton = document.querySelector('[data-testid="habits.add"]');
const rowTemplate = document.getElementById("habit-row");

let habits = [];
let nextId = 1;

function applyAppearance() {
  const forced = params.get("argus_appearance");
  const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  const appearance = forced === "light" || forced === "dark" ? forced : dark ? "dark" : "light";
  root.dataset.appearance = appearance;
}

function streakText(habit) {
  const streak = habit.streak > 0 ? `${habit.streak}-day streak` : "No streak yet";
  return `${streak} · ${habit.cadence}`;
}

function renderRow(habit) {
  const row = rowTemplate.content.firstElementChild.cloneNode(true);
  row.dataset.testid = `row.habit.${habit.id}`;
  row.querySelector(".habit-name").textContent = habit.name;
  row.querySelector(".habit-meta").textContent = streakText(habit);
  const complete = row.querySelector(".complete");
  complete.dataset.testid = `row.habit.${habit.id}.complete`;
  complete.setAttribute("aria-label", `Complete ${habit.name}`);
  complete.setAttribute("aria-pressed", String(habit.done));
  complete.addEventListener("click", () => {
    habit.done = !habit.done;
    render();
  });
  const remove = row.querySelector(".delete");
  remove.dataset.testid = `row.habit.${habit.id}.delete`;
  remove.setAttribute("aria-label", `Delete ${habit.name}`);
  remove.addEventListener("click", () => {
    habits = habits.filter((other) => other !== habit);
    render();
  });
  return row;
}

function render() {
  list.replaceChildren(...habits.map(renderRow));
  const done = habits.filter((habit) => habit.done).length;
  summary.textContent = habits.length
    ? `${done} of ${habits.length} done today`
    : "Nothing to track yet";
  list.hidden = habits.length === 0;
  empty.hidden = habits.length !== 0;
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "habit";
}

addButton.addEventListener("click", () => {
  form.hidden = !form.hidden;
  addButton.setAttribute("aria-expanded", String(!form.hidden));
  if (!form.hidden) nameInput.focus();
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (!name) return;
  habits.push({ id: `${slug(name)}-${nextId++}`, name, cadence: "Daily", streak: 0, done: false });
  nameInput.value = "";
  form.hidden = true;
  addButton.setAttribute("aria-expanded", "false");
  render();
});

async function loadFixture() {
  const name = params.get("argus_fixture") || "populated";
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad fixture name ${JSON.stringify(name)}`);
  const response = await fetch(`fixtures/${name}.json`);
  if (!response.ok) throw new Error(`fixture ${name} answered ${response.status}`);
  const data = await response.json();
  return data.habits.map((habit) => ({ ...habit }));
}

applyAppearance();
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyAppearance);
addButton.setAttribute("aria-expanded", "false");
loadFixture()
  .then((loaded) => {
    habits = loaded;
    render();
  })
  .catch((error) => {
    console.error(`habits: cannot load the fixture: ${error.message}`);
  });
