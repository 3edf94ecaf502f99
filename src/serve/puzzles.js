// `awari serve`'s puzzle mode: a position after a mistake, where one move alone keeps the
// result the endgame tables prove. The server poses each puzzle (its position and legal moves)
// and judges the move played (right or wrong, the answer, every move's value); this page only
// draws them and counts the first try at each puzzle. Text from the server goes in as
// textContent, never as markup.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const state = { n: 0, count: 0, puzzle: null, tried: new Set(), right: 0, done: 0, flip: false };

  function el(tag, attrs, parent, text) {
    const node = document.createElement(tag);
    for (const k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  async function get(path) {
    const response = await fetch(path);
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    return data;
  }

  // The mode's own section, made once: the board, the task, the verdict, every move's value,
  // the score and the buttons.
  function section() {
    let s = $("puzzles");
    if (s) return s;
    s = el("section", { id: "puzzles", hidden: "" }, document.querySelector("main"));
    el("h2", {}, s, "Puzzles");
    el("div", { id: "puzzle-task", class: "puzzle-task", role: "status" }, s);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("id", "puzzle-board");
    svg.setAttribute("class", "board");
    svg.setAttribute("viewBox", "0 0 800 260");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "the puzzle's board");
    s.appendChild(svg);
    el("div", { id: "puzzle-verdict", class: "puzzle-verdict", role: "status" }, s);
    el("div", { id: "puzzle-line", class: "notice" }, s);
    el("ul", { id: "puzzle-moves", class: "puzzle-moves" }, s);
    const controls = el("div", { class: "controls" }, s);
    el("button", { id: "puzzle-next" }, controls, "Next puzzle").addEventListener("click", () => load(state.n + 1));
    el("button", { id: "puzzle-leave" }, controls, "Back to the game").addEventListener("click", leave);
    el("span", { id: "puzzle-score", class: "puzzle-score" }, controls);
    el("div", { id: "puzzle-error", class: "error", hidden: "" }, s);
    el("div", { id: "puzzle-source", class: "notice" }, s);
    return s;
  }

  function showError(message) {
    const e = $("puzzle-error");
    e.hidden = !message;
    e.textContent = message || "";
  }

  function score() {
    $("puzzle-score").textContent = `score: ${state.right} of ${state.done}`;
    document.body.setAttribute("data-puzzle-score", `${state.right}/${state.done}`);
  }

  function draw(answered) {
    const p = state.puzzle;
    const svg = $("puzzle-board");
    state.flip = p.board.side === "N";
    const names = p.board.side === "S" ? ["you", "the tables"] : ["the tables", "you"];
    AwariBoard.draw(svg, p.variant, { houses: p.board.houses, stores: p.board.stores, side: p.board.side,
      bonus: p.board.bonus, last: null, end: null }, names, null, { flip: state.flip });
    if (answered) return;
    for (const letter of p.legal) {
      const i = "ABCDEFabcdef".indexOf(letter);
      const c = svg.querySelector(`[data-house-cell="${i}"]`);
      c.classList.add("legal");
      c.setAttribute("data-legal", letter);
      c.addEventListener("click", () => play(letter));
    }
  }

  async function load(n) {
    showError("");
    try {
      const p = await get(`/api/puzzles/puzzle?n=${state.count ? n % state.count : n}`);
      state.n = p.n;
      state.count = p.count;
      state.puzzle = p;
      $("puzzle-task").textContent = `Puzzle ${p.n + 1} of ${p.count}: ${p.task}.`;
      $("puzzle-verdict").textContent = "";
      $("puzzle-verdict").className = "puzzle-verdict";
      $("puzzle-line").textContent = "";
      $("puzzle-moves").textContent = "";
      $("puzzle-source").textContent = `from ${p.source}`;
      draw(false);
      document.body.setAttribute("data-puzzle", p.id);
      document.body.setAttribute("data-puzzle-verdict", "");
    } catch (e) {
      showError(e.message);
    }
  }

  async function play(letter) {
    const p = state.puzzle;
    showError("");
    let r;
    try {
      r = await get(`/api/puzzles/answer?n=${p.n}&move=${encodeURIComponent(letter)}`);
    } catch (e) {
      return showError(e.message);
    }
    if (!state.tried.has(p.id)) {
      state.tried.add(p.id);
      state.done += 1;
      if (r.right) state.right += 1;
    }
    draw(true);
    const svg = $("puzzle-board");
    const mark = (m, cls) => svg.querySelector(`[data-house-cell="${"ABCDEFabcdef".indexOf(m)}"]`).classList.add(cls);
    mark(r.answer, "puzzle-answer");
    if (!r.right) mark(r.move, "puzzle-wrong");
    const v = $("puzzle-verdict");
    v.textContent = r.verdict;
    v.className = `puzzle-verdict ${r.right ? "right" : "wrong"}`;
    $("puzzle-line").textContent = r.line;
    const list = $("puzzle-moves");
    list.textContent = "";
    for (const m of r.moves) {
      el("li", { class: m.answer ? "answer" : "" }, list, `${m.move}: ends with ${m.value} seeds${m.answer ? " (the answer)" : ""}`);
    }
    score();
    document.body.setAttribute("data-puzzle-verdict", r.right ? "right" : "wrong");
  }

  // The game's sections are hidden while puzzles are shown, and shown again after.
  function enter() {
    section().hidden = false;
    $("setup").hidden = true;
    $("play").hidden = true;
    score();
    if (!state.puzzle) load(0);
  }

  function leave() {
    section().hidden = true;
    $("setup").hidden = false;
    $("play").hidden = false;
  }

  document.addEventListener("DOMContentLoaded", () => {
    const open = $("puzzles-open");
    if (open) open.addEventListener("click", enter);
  });
})();
