// Argus review page: compare modes, zoom, boxes, keyboard, and the decisions (POST with the
// launch token). No framework, no build step. The token lives in sessionStorage only: it is
// read from the address's #token= fragment (never sent to the server in a URL) or pasted.
"use strict";

(function () {
  const KEY = "argus-ui-token";
  const FLASH = "argus-ui-flash";
  const MODES = ["side", "overlay", "split", "diff"];
  const ZOOMS = ["0", "1", "2", "4"];

  function token() {
    return sessionStorage.getItem(KEY) || "";
  }

  function takeTokenFromFragment() {
    const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (match) {
      sessionStorage.setItem(KEY, match[1]);
      history.replaceState(null, "", location.pathname + location.search);
    }
  }

  function showTokenState() {
    const state = document.getElementById("token-state");
    if (state) state.textContent = token() ? "token set" : "no token: decisions are refused";
  }

  function toast(text, bad) {
    const box = document.getElementById("toast");
    if (!box) return;
    box.textContent = text;
    box.className = bad ? "show bad" : "show";
  }

  // A decision reloads the page at once (it shows the new state) and says what was recorded
  // there: the message waits in sessionStorage across the reload.
  function reloadWith(message) {
    sessionStorage.setItem(FLASH, message);
    location.reload();
  }

  function showFlash() {
    const message = sessionStorage.getItem(FLASH);
    if (message) {
      sessionStorage.removeItem(FLASH);
      toast(message, false);
    }
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Argus-Token": token() },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    let data = {};
    try {
      data = await response.json();
    } catch (err) {
      data = { error: "HTTP " + response.status };
    }
    if (!response.ok || !data.ok) throw new Error(data.error || "HTTP " + response.status);
    return data;
  }

  async function decide(body, button) {
    if (button) button.disabled = true;
    try {
      const data = await post("/api/decide", body);
      reloadWith(data.message);
    } catch (err) {
      toast(err.message, true);
      if (button) button.disabled = false;
    }
  }

  // ---- compare ---------------------------------------------------------------------------
  const stage = document.querySelector(".compare");
  let mode = "side";

  function setMode(next) {
    if (!stage) return;
    const button = stage.querySelector(`[data-mode="${next}"]`);
    if (!button || button.disabled) return;
    mode = next;
    stage.dataset.mode = next;
    stage.querySelectorAll("[data-mode]").forEach((b) => {
      b.setAttribute("aria-pressed", String(b.dataset.mode === next));
    });
    stage.querySelectorAll("[data-show]").forEach((el) => {
      el.hidden = !el.dataset.show.split(" ").includes(next);
    });
    stage.querySelectorAll(".slider").forEach((el) => {
      el.hidden = el.dataset.for !== next;
    });
    applyLayers();
    drawMarks();
  }

  function applyLayers() {
    if (!stage) return;
    const over = stage.querySelector(".stack img.over");
    const handle = stage.querySelector(".stack .handle");
    if (!over) return;
    const opacity = Number(document.getElementById("opacity").value) / 100;
    const split = Number(document.getElementById("split").value);
    if (mode === "overlay") {
      over.style.opacity = String(opacity);
      over.style.clipPath = "none";
      if (handle) handle.hidden = true;
    } else {
      over.style.opacity = "1";
      over.style.clipPath = `inset(0 ${100 - split}% 0 0)`;
      if (handle) {
        handle.hidden = false;
        handle.style.left = split + "%";
      }
    }
  }

  function setZoom(value) {
    if (!stage) return;
    const width = Number(stage.dataset.width || 0);
    stage.querySelectorAll(".frame").forEach((frame) => {
      const img = frame.querySelector("img");
      const natural = width || (img && img.naturalWidth) || 0;
      if (value === "0" || !natural) {
        frame.style.width = "";
        frame.classList.remove("zoomed");
      } else {
        frame.style.width = natural * Number(value) / (window.devicePixelRatio || 1) + "px";
        frame.classList.add("zoomed");
      }
    });
  }

  function stepZoom(delta) {
    const select = document.getElementById("zoom");
    if (!select) return;
    const i = Math.min(ZOOMS.length - 1, Math.max(0, ZOOMS.indexOf(select.value) + delta));
    select.value = ZOOMS[i];
    setZoom(select.value);
  }

  // Scrolling one zoomed pane scrolls the others to the same place.
  function syncScroll() {
    if (!stage) return;
    const scrollers = Array.from(stage.querySelectorAll(".scroller"));
    let busy = false;
    scrollers.forEach((s) => {
      s.addEventListener("scroll", () => {
        if (busy) return;
        busy = true;
        scrollers.forEach((o) => {
          if (o !== s) {
            o.scrollLeft = s.scrollLeft;
            o.scrollTop = s.scrollTop;
          }
        });
        busy = false;
      });
    });
  }

  function marks() {
    try {
      return JSON.parse((stage && stage.dataset.marks) || "[]");
    } catch (err) {
      return [];
    }
  }

  function drawMarks() {
    if (!stage) return;
    stage.querySelectorAll(".box").forEach((b) => b.remove());
    const show = document.getElementById("show-marks");
    if (show && !show.checked) return;
    const list = marks();
    const frames = [];
    if (mode === "side") {
      const render = stage.querySelector('[data-pane="render"] .frame');
      if (render) frames.push(render);
    } else if (mode === "diff") {
      const frame = stage.querySelector(".diffpane .frame");
      if (frame) frames.push(frame);
    } else {
      const frame = stage.querySelector(".stack .frame");
      if (frame) frames.push(frame);
    }
    frames.forEach((frame) => {
      const img = frame.querySelector("img");
      const width = Number(stage.dataset.width) || (img && img.naturalWidth) || 0;
      const height = Number(stage.dataset.height) || (img && img.naturalHeight) || 0;
      if (!width || !height) return;
      list.forEach((m, i) => {
        if (mode === "diff" && m.source !== "snapshot") return;
        const box = document.createElement("div");
        box.className = "box" + (m.source === "snapshot" ? " changed" : " finding");
        box.dataset.index = String(i);
        box.title = m.source + ": " + m.label;
        box.style.left = (100 * m.x) / width + "%";
        box.style.top = (100 * m.y) / height + "%";
        box.style.width = (100 * m.w) / width + "%";
        box.style.height = (100 * m.h) / height + "%";
        frame.appendChild(box);
      });
    });
  }

  function dragSplit(event) {
    const frame = stage.querySelector(".stack .frame");
    const input = document.getElementById("split");
    if (!frame || !input || mode !== "split") return;
    const rect = frame.getBoundingClientRect();
    const move = (e) => {
      const x = Math.min(rect.width, Math.max(0, e.clientX - rect.left));
      input.value = String(Math.round((100 * x) / rect.width));
      applyLayers();
    };
    move(event);
    const stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", stop);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", stop);
  }

  // ---- actions -----------------------------------------------------------------------------
  function target(button) {
    return { feature: button.dataset.feature, slug: button.dataset.slug };
  }

  function acceptBaseline() {
    const b = document.getElementById("accept-baseline");
    if (!b) return false;
    const iteration = b.dataset.iteration ? Number(b.dataset.iteration) : null;
    decide({ action: "accept_baseline", iteration, ...target(b) }, b);
    return true;
  }

  function approveReference() {
    const b = document.getElementById("approve-reference");
    if (!b) return false;
    decide({ action: "approve_reference", ...target(b) }, b);
    return true;
  }

  function spotcheck(reject) {
    const b = document.getElementById(reject ? "reject-spotcheck" : "approve-spotcheck");
    if (!b) return false;
    const note = document.getElementById("spot-note").value;
    const body = { action: reject ? "reject_spotcheck" : "approve_spotcheck", note, ...target(b) };
    if (reject) body.dimension = document.getElementById("spot-dimension").value;
    decide(body, b);
    return true;
  }

  async function batchAccept(button) {
    let items = [];
    try {
      items = JSON.parse(button.dataset.items || "[]");
    } catch (err) {
      items = [];
    }
    button.disabled = true;
    try {
      const data = await post("/api/accept-baselines", { items });
      reloadWith(`accepted ${data.accepted} baseline(s)`);
    } catch (err) {
      toast(err.message, true);
      button.disabled = false;
    }
  }

  // ---- list keyboard -----------------------------------------------------------------------
  function rowLinks() {
    return Array.from(document.querySelectorAll("section.feature tbody th a"));
  }

  function moveRow(delta) {
    const links = rowLinks();
    if (!links.length) return;
    const at = links.indexOf(document.activeElement);
    const next = at < 0 ? 0 : Math.min(links.length - 1, Math.max(0, at + delta));
    links[next].focus();
  }

  function onKey(event) {
    const t = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // Typing in a text field is not a shortcut; a slider or a checkbox does not take letters.
    const typing = t && t.tagName === "INPUT" && !["range", "checkbox"].includes(t.type);
    if (typing || (t && (t.tagName === "TEXTAREA" || t.tagName === "SELECT"))) return;
    const key = event.key;
    if (key === "?") {
      toggleHelp();
    } else if (stage && (key === "j" || key === "k")) {
      const link = document.getElementById(key === "j" ? "next-view" : "prev-view");
      if (link) location.href = link.href;
    } else if (!stage && (key === "j" || key === "k")) {
      moveRow(key === "j" ? 1 : -1);
    } else if (stage && key === "m") {
      const enabled = MODES.filter((m) => !stage.querySelector(`[data-mode="${m}"]`).disabled);
      setMode(enabled[(enabled.indexOf(mode) + 1) % enabled.length]);
    } else if (stage && ["1", "2", "3", "4"].includes(key)) {
      setMode(MODES[Number(key) - 1]);
    } else if (stage && (key === "+" || key === "=")) {
      stepZoom(1);
    } else if (stage && key === "-") {
      stepZoom(-1);
    } else if (key === "a") {
      approveReference() || spotcheck(false) || acceptBaseline();
    } else if (key === "r") {
      spotcheck(true);
    } else {
      return;
    }
    event.preventDefault();
  }

  function toggleHelp() {
    const help = document.getElementById("help");
    const button = document.getElementById("help-button");
    if (!help) return;
    help.hidden = !help.hidden;
    if (button) button.setAttribute("aria-expanded", String(!help.hidden));
  }

  // ---- wiring ------------------------------------------------------------------------------
  document.addEventListener("DOMContentLoaded", () => {
    takeTokenFromFragment();
    showTokenState();
    showFlash();
    const form = document.getElementById("token-form");
    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const input = document.getElementById("token-input");
        sessionStorage.setItem(KEY, input.value.trim());
        input.value = "";
        showTokenState();
      });
    }
    const help = document.getElementById("help-button");
    if (help) help.addEventListener("click", toggleHelp);
    document.addEventListener("keydown", onKey);
    const batch = document.getElementById("batch-accept");
    if (batch) batch.addEventListener("click", () => batchAccept(batch));
    const bind = (id, fn) => {
      const el = document.getElementById(id);
      if (el) el.addEventListener("click", fn);
    };
    bind("accept-baseline", acceptBaseline);
    bind("approve-reference", approveReference);
    bind("approve-spotcheck", () => spotcheck(false));
    bind("reject-spotcheck", () => spotcheck(true));
    if (!stage) return;
    stage.querySelectorAll("[data-mode]").forEach((b) => {
      b.addEventListener("click", () => setMode(b.dataset.mode));
    });
    ["opacity", "split"].forEach((id) => {
      document.getElementById(id).addEventListener("input", applyLayers);
    });
    document.getElementById("zoom").addEventListener("change", (e) => setZoom(e.target.value));
    document.getElementById("show-marks").addEventListener("change", drawMarks);
    const frame = stage.querySelector(".stack .frame");
    if (frame) frame.addEventListener("pointerdown", dragSplit);
    document.querySelectorAll(".mark-link").forEach((b) => {
      b.addEventListener("click", () => {
        if (mode === "diff") setMode("side");
        drawMarks();
        const all = marks();
        const wanted = all[Number(b.dataset.mark)];
        stage.querySelectorAll(".box").forEach((box) => {
          const m = all[Number(box.dataset.index)];
          const on = m === wanted;
          box.classList.toggle("focus", on);
          if (on) box.scrollIntoView({ block: "center", inline: "center" });
        });
      });
    });
    stage.querySelectorAll("img").forEach((img) => img.addEventListener("load", drawMarks));
    setMode("side");
  });
})();
