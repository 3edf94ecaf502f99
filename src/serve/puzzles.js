// `awari serve`'s puzzle mode: a position after a mistake, where one move alone keeps the
// result the endgame tables prove. The server poses each puzzle (its position and legal moves)
// and judges the move played (right or wrong, the answer, every move's value); this page only
// draws them, counts the first try at each puzzle, offers a retry (or the answer) after a
// wrong one, and keeps each person's own order of the puzzles. Text from the server goes in
// as textContent, never as markup.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const state = { at: 0, seed: 0, order: null, puzzle: null, answered: null, tried: new Set(), right: 0, done: 0, flip: false };

  // Each person's own order: a shuffle from a seed drawn once and kept in the browser's
  // storage with how far they have come, so that a person goes on where they left off and two
  // people (two browsers) meet the puzzles in different orders.
  const KEY = "awari-puzzles";
  function restore() {
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(KEY)); } catch (e) { /* storage off */ }
    const fresh = !kept || !Number.isInteger(kept.seed) || !Number.isInteger(kept.at);
    state.seed = fresh ? Math.floor(Math.random() * 4294967296) : kept.seed;
    state.at = fresh ? 0 : kept.at;
    keep();
  }
  function keep() {
    try { localStorage.setItem(KEY, JSON.stringify({ seed: state.seed, at: state.at })); } catch (e) { /* storage off */ }
  }
  // 0 to count-1 shuffled (Fisher-Yates) by mulberry32 from `seed`.
  function shuffled(seed, count) {
    let a = seed >>> 0;
    const random = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const order = [...Array(count).keys()];
    for (let i = count - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  function el(tag, attrs, parent, text) {
    const node = document.createElement(tag);
    for (const k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // Through transport.js, as every call to the server.
  const get = (path) => window.AwariTransport.get(path);

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
    const again = el("div", { id: "puzzle-again", class: "controls", hidden: "" }, s);
    el("button", { id: "puzzle-retry" }, again, "Try again").addEventListener("click", () => pose(state.puzzle));
    el("button", { id: "puzzle-show" }, again, "Show the answer").addEventListener("click", () => reveal(state.answered));
    el("div", { id: "puzzle-line", class: "notice" }, s);
    el("ul", { id: "puzzle-moves", class: "puzzle-moves" }, s);
    const controls = el("div", { class: "controls" }, s);
    el("button", { id: "puzzle-next" }, controls, "Next puzzle").addEventListener("click", () => load(state.at + 1));
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

  // The puzzle at place `at` of this person's order (the count is learnt from the first).
  async function load(at) {
    showError("");
    try {
      if (!state.order) state.order = shuffled(state.seed, (await get("/api/puzzles/puzzle?n=0")).count);
      const count = state.order.length;
      const p = await get(`/api/puzzles/puzzle?n=${state.order[at % count]}`);
      state.at = at % count;
      keep();
      $("puzzle-task").textContent = `Puzzle ${state.at + 1} of ${count} (no. ${p.n + 1}): ${p.task}.`;
      $("puzzle-source").textContent = `from ${p.source}`;
      pose(p);
    } catch (e) {
      showError(e.message);
    }
  }

  // The puzzle on the board, waiting for a move (again, after a wrong one).
  function pose(p) {
    state.puzzle = p;
    state.answered = null;
    $("puzzle-verdict").textContent = "";
    $("puzzle-verdict").className = "puzzle-verdict";
    $("puzzle-again").hidden = true;
    $("puzzle-line").textContent = "";
    $("puzzle-moves").textContent = "";
    draw(false);
    document.body.setAttribute("data-puzzle", p.id);
    document.body.setAttribute("data-puzzle-verdict", "");
  }

  // The answer, its line and every move's value.
  function reveal(r) {
    if (!r) return;
    $("puzzle-again").hidden = true;
    const svg = $("puzzle-board");
    svg.querySelector(`[data-house-cell="${"ABCDEFabcdef".indexOf(r.answer)}"]`).classList.add("puzzle-answer");
    if (!r.right) $("puzzle-verdict").textContent = `${r.verdict} The move was ${r.answer}.`;
    $("puzzle-line").textContent = r.line;
    const list = $("puzzle-moves");
    list.textContent = "";
    for (const m of r.moves) {
      el("li", { class: m.answer ? "answer" : "" }, list, `${m.move}: ends with ${m.value} seeds${m.answer ? " (the answer)" : ""}`);
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
    state.answered = r;
    const v = $("puzzle-verdict");
    v.textContent = r.verdict;
    v.className = `puzzle-verdict ${r.right ? "right" : "wrong"}`;
    if (r.right) reveal(r);
    else {
      $("puzzle-board").querySelector(`[data-house-cell="${"ABCDEFabcdef".indexOf(r.move)}"]`).classList.add("puzzle-wrong");
      $("puzzle-again").hidden = false;
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
    if (!state.puzzle) {
      restore();
      load(state.at);
    }
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
