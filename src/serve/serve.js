// `awari serve`'s page: it draws what the server sends (positions, legal moves and why the
// other houses are not, sowing paths, analysis lines) and sends clicks back. It knows no
// rules. Everything it shows from the server goes in as text (textContent), never as markup.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const page = { id: null, config: null, state: null, flip: false, lines: [], hint: null, anim: null, why: "", view: null };

  function el(tag, attrs, parent, text) {
    const node = document.createElement(tag);
    for (const k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  async function api(path, body) {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    return data;
  }

  function say(text) { $("notice").textContent = text; }

  // ---- the board ----
  const houseIndex = (letter) => "ABCDEFabcdef".indexOf(letter);

  function drawn(b, extra) {
    return Object.assign({ houses: b.houses, stores: b.stores, side: b.side, bonus: b.bonus, last: null, end: null }, extra || {});
  }

  function render() {
    const s = page.state;
    if (!s) return;
    if (page.view !== null && page.view.ply < s.moves.length) return renderPly();
    page.view = null;
    $("ply-at").textContent = `ply ${s.moves.length} (the game)`;
    const last = s.last ? houseIndex(s.last.mv) : null;
    AwariBoard.draw(board, s.variant, drawn(s.board, { last }), s.players,
      s.over ? s.over.text : null, { flip: page.flip });
    if (s.last && s.last.shown) {
      for (const h of s.last.shown.captured) cell(h).classList.add("captured");
    }
    const legal = new Set(s.legal.split(""));
    const mine = s.human[s.board.side === "S" ? 0 : 1] && !s.over && !s.error;
    if (mine) {
      for (const letter of legal) {
        const c = cell(houseIndex(letter));
        c.classList.add("legal");
        c.setAttribute("data-legal", letter);
        c.addEventListener("click", () => move(letter));
      }
      for (const ill of s.illegal) {
        const c = cell(houseIndex(ill.house));
        c.classList.add("illegal");
        c.setAttribute("data-illegal", ill.reason);
        AwariBoard.svg("title", {}, c, ill.text);
        c.addEventListener("click", () => { $("why").textContent = `${ill.house}: ${ill.text}`; });
      }
    }
    if (window.AwariTables) AwariTables.draw(board, s, page.flip);
    if (page.hint && page.hint.generation === s.generation) {
      const h = houseIndex(page.hint.move);
      if (h >= 0) cell(h).classList.add("hint");
    }
    banner();
    moves();
    review.shown(s.moves.length);
    $("takeback").disabled = !s.can_take_back;
    $("hint").disabled = !mine;
    const err = $("error");
    err.hidden = !s.error;
    err.textContent = s.error || "";
    document.body.setAttribute("data-generation", String(s.generation));
    document.body.setAttribute("data-moves", s.moves);
    document.body.setAttribute("data-fen", s.board.fen);
    document.body.setAttribute("data-over", s.over ? s.over.reason : "");
    document.body.setAttribute("data-busy", "0");
    if (!document.documentElement.hasAttribute("data-first-board-ms")) {
      document.documentElement.setAttribute("data-first-board-ms", performance.now().toFixed(0));
    }
  }

  // A past position, read-only: the game goes on from the last one.
  function renderPly() {
    const s = page.state, v = page.view;
    const last = v.ply > 0 ? houseIndex(s.moves[v.ply - 1]) : null;
    AwariBoard.draw(board, s.variant, drawn(v.board, { last }), s.players, null, { flip: page.flip });
    $("banner").className = "";
    $("banner").textContent = `Viewing ply ${v.ply} of ${s.moves.length}: \u00bb goes back to the game.`;
    $("ply-at").textContent = `ply ${v.ply} of ${s.moves.length}`;
    moves();
    review.shown(v.ply);
    document.body.setAttribute("data-view", String(v.ply));
    document.body.setAttribute("data-busy", "0");
  }

  async function step(to) {
    const s = page.state;
    if (!s) return;
    const ply = Math.max(0, Math.min(to, s.moves.length));
    skip();
    if (ply === s.moves.length) { page.view = null; document.body.removeAttribute("data-view"); render(); return; }
    const response = await fetch(`/api/ply?id=${encodeURIComponent(page.id)}&ply=${ply}`);
    if (!response.ok) return;
    page.view = { ply, board: await response.json() };
    render();
  }
  const viewing = () => (page.view ? page.view.ply : page.state ? page.state.moves.length : 0);

  function cell(i) { return board.querySelector(`[data-house-cell="${i}"]`); }

  function banner() {
    const s = page.state, b = $("banner");
    b.className = "";
    if (s.over) {
      b.className = "over";
      b.textContent = `Game over: ${s.over.text}. Final stores: South ${s.over.stores[0]}, North ${s.over.stores[1]}.`;
    } else if (s.last && s.last.again) {
      const who = s.last.side === "S" ? "South" : "North";
      b.className = "again";
      b.textContent = `AGAIN? ${who} moves again: the last seed fell in its own store.`;
    } else if (s.thinking) {
      b.textContent = `${s.thinking === "S" ? "South" : "North"} is thinking...`;
    } else if (s.human[s.board.side === "S" ? 0 : 1]) {
      b.textContent = "Your move: click a house.";
    } else {
      b.textContent = "";
    }
    if (s.last && s.last.shown && s.last.shown.captured.length > 0 && !s.over) {
      b.textContent += ` ${s.last.mv} captured from ${s.last.shown.captured.map((h) => "ABCDEFabcdef"[h]).join(", ")}.`;
    }
  }

  function moves() {
    const s = page.state, box = $("moves");
    box.textContent = "";
    let side = s.start.endsWith("N") ? "N" : "S";
    // The sides of the moves come from the positions the server sent: a move's letter says
    // whose house it was.
    const at = viewing();
    [...s.moves].forEach((m, i) => {
      el("span", { class: "n" }, box, String(i + 1));
      side = m === m.toUpperCase() ? "S" : "N";
      const span = el("span", { class: `m ${side}${i + 1 === at ? " now" : ""}`, "data-ply": i + 1 }, box, m);
      span.addEventListener("click", () => step(i + 1));
    });
  }

  // ---- the review: review.js draws it ----
  const review = AwariReview.attach({ page, board, el, step, viewing, render: () => render() });

  // ---- the sowing, seed by seed ----
  function animate(s, done) {
    const shown = s.last.shown;
    const b = { houses: s.last.before.houses.slice(), stores: s.last.before.stores.slice() };
    let k = 0, laps = 0;
    const variant = s.variant;
    document.body.setAttribute("data-busy", "1");
    const tick = () => {
      if (!page.anim) return;
      const step = shown.steps[k++];
      if (!step) { page.anim = null; done(); return; }
      if (step.step === "lift") {
        if (k > 1) laps++;
        b.houses[step.place] = 0;
      } else if (step.place < 12) b.houses[step.place]++;
      else b.stores[step.place - 12]++;
      AwariBoard.draw(board, variant, drawn({ houses: b.houses, stores: b.stores, side: s.last.side, bonus: false },
        { last: houseIndex(s.last.mv) }), s.players, null, { flip: page.flip });
      if (step.place < 12) cell(step.place).classList.add("sowing");
      $("banner").textContent = `${s.last.side === "S" ? "South" : "North"} sows ${s.last.mv}` + (laps > 0 ? `: relay lap ${laps}` : "");
      page.anim = setTimeout(tick, step.step === "lift" ? 220 : 110);
    };
    page.anim = setTimeout(tick, 0);
  }

  function skip() {
    if (page.anim) { clearTimeout(page.anim); page.anim = null; render(); }
  }

  function onState(s) {
    const before = page.state;
    page.state = s;
    if (before && (before.generation !== s.generation || before.lines_wanted !== s.lines_wanted)) {
      page.lines = [];
      drawLines();
      $("why").textContent = "";
    }
    // A game that is not the one viewed grown by moves (a new or loaded game, a take-back)
    // ends the viewing of a past position.
    if (page.view && before && (before.start !== s.start || !s.moves.startsWith(before.moves))) {
      page.view = null;
      document.body.removeAttribute("data-view");
    }
    const newMove = s.last && (!before || before.moves.length + 1 === s.moves.length) && s.moves !== (before && before.moves);
    if (page.anim) { clearTimeout(page.anim); page.anim = null; }
    if (newMove && $("animate").checked && s.last.shown.steps.length > 0) animate(s, render);
    else render();
    $("analyse").checked = s.analyse;
    linesChoice(s);
    $("tables").textContent = s.tables.length ? `Endgame tables: ${s.tables.join("; ")}` : "";
    review.draw();
  }

  async function move(letter) {
    try {
      document.body.setAttribute("data-busy", "1");
      await api("/api/move", { id: page.id, move: letter });
    } catch (e) {
      $("why").textContent = e.message;
      document.body.setAttribute("data-busy", "0");
    }
  }

  // ---- analysis ----
  function scoreText(score) {
    if (!score) return "";
    if (score.mate !== undefined) return score.mate > 0 ? `South wins in ${score.mate}` : `North wins in ${-score.mate}`;
    const v = score.cp / 100;
    return (v > 0 ? "+" : "") + v.toFixed(2);
  }

  // The number of lines, offered once the analysis engine has said how many it gives.
  function linesChoice(s) {
    const select = $("lines-n"), max = s.lines_max || 1;
    $("lines-choice").hidden = max < 2;
    if (select.options.length !== max) {
      select.textContent = "";
      for (let n = 1; n <= max; n++) el("option", { value: n }, select, String(n));
    }
    select.value = String(Math.min(s.lines_wanted, max));
  }

  function drawLines() {
    const body = $("lines").querySelector("tbody");
    body.textContent = "";
    const wanted = page.state ? page.state.lines_wanted : 1;
    for (const l of page.lines.filter((x) => x.multipv <= wanted)) {
      const tr = el("tr", { "data-multipv": l.multipv }, body);
      el("td", {}, tr, String(l.multipv));
      el("td", {}, tr, String(l.depth));
      el("td", {}, tr, scoreText(l.score));
      const pv = el("td", { class: "pv" }, tr, l.pv);
      pv.addEventListener("mouseenter", () => {
        if (page.anim || !page.state) return;
        AwariBoard.draw(board, page.state.variant, drawn(l.end), page.state.players,
          `after ${l.pv} (the line's end)`, { flip: page.flip });
      });
      pv.addEventListener("mouseleave", () => { if (!page.anim) render(); });
    }
    const best = page.lines[0];
    let share = 0.5;
    if (best) {
      share = best.score.mate !== undefined ? (best.score.mate > 0 ? 1 : 0) : 1 / (1 + Math.exp(-best.score.cp / 400));
    }
    $("evalfill").style.width = `${(100 * share).toFixed(1)}%`;
    $("evaltext").textContent = best ? `South ${scoreText(best.score)}` : "";
  }

  function onInfo(data) {
    if (!page.state || data.generation !== page.state.generation) return;
    const l = data.line;
    if (data.analysis) {
      const i = page.lines.findIndex((x) => x.multipv === l.multipv);
      if (i >= 0) page.lines[i] = l; else page.lines.push(l);
      page.lines.sort((a, b) => a.multipv - b.multipv);
      drawLines();
    } else {
      $("thinking").textContent = `${data.side === "S" ? "South" : "North"}: depth ${l.depth}, ${scoreText(l.score)} (South's view), ${l.pv}`;
    }
  }

  // ---- setup ----
  function seatOptions(select, chosen) {
    el("option", { value: "human" }, select, "a person");
    for (const e of page.config.engines) el("option", { value: e.id }, select, `${e.label} (${e.limit})`);
    select.value = chosen;
  }

  function settings() {
    return {
      variant: $("variant").value, south: $("south").value, north: $("north").value,
      fen: $("fen").value.trim(), moves: $("moves-in").value.trim(),
    };
  }

  async function newGame() {
    try {
      page.hint = null;
      const answer = await api(page.id ? "/api/new" : "/api/session", Object.assign(page.id ? { id: page.id } : {}, settings()));
      if (!page.id) {
        page.id = answer.id;
        document.body.setAttribute("data-session", page.id);
        listen();
        const q = encodeURIComponent(page.id);
        $("pgn").setAttribute("href", `/api/record?id=${q}&format=pgn`);
        $("jsonl").setAttribute("href", `/api/record?id=${q}&format=json`);
      }
      page.view = null;
      say("");
    } catch (e) {
      say(`Not started: ${e.message}`);
    }
  }

  function listen() {
    const source = new EventSource(`/api/events?id=${encodeURIComponent(page.id)}`);
    source.addEventListener("state", (e) => onState(JSON.parse(e.data)));
    source.addEventListener("info", (e) => onInfo(JSON.parse(e.data)));
    source.addEventListener("hint", (e) => {
      page.hint = JSON.parse(e.data);
      if (!page.anim) render();
      say(`Hint: ${page.hint.move}`);
    });
    source.addEventListener("review", (e) => review.onReview(JSON.parse(e.data)));
    source.addEventListener("notice", (e) => say(JSON.parse(e.data).text));
    source.addEventListener("open", () => { $("status").textContent = "connected"; });
    source.addEventListener("error", () => { $("status").textContent = "reconnecting..."; });
  }

  async function start() {
    const response = await fetch("/api/config");
    page.config = await response.json();
    for (const v of page.config.variants) el("option", { value: v.name }, $("variant"), v.name);
    seatOptions($("south"), "human");
    seatOptions($("north"), "greedy");
    const params = new URLSearchParams(location.search);
    for (const key of ["variant", "south", "north", "fen"]) {
      if (params.has(key)) $(key).value = params.get(key);
    }
    if (params.has("moves")) $("moves-in").value = params.get("moves");
    $("new").addEventListener("click", newGame);
    $("takeback").addEventListener("click", () => api("/api/takeback", { id: page.id }).catch((e) => say(e.message)));
    $("flip").addEventListener("click", () => { page.flip = !page.flip; if (!page.anim) render(); });
    $("skip").addEventListener("click", skip);
    board.addEventListener("dblclick", skip);
    $("hint").addEventListener("click", () => { say("Thinking of a hint..."); api("/api/hint", { id: page.id }).catch((e) => say(e.message)); });
    const analyse = () => api("/api/analyse", { id: page.id, on: $("analyse").checked, lines: +$("lines-n").value || 1 }).catch((x) => say(x.message));
    $("analyse").addEventListener("change", analyse);
    $("lines-n").addEventListener("change", analyse);
    window.addEventListener("pagehide", () => {
      if (page.id) fetch("/api/close", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id: page.id }) });
    });
    $("review").addEventListener("click", () =>
      api("/api/review", { id: page.id, ms: +$("review-ms").value }).catch((e) => say(e.message)));
    $("load").addEventListener("click", async () => {
      try {
        // The loaded game is shown from its end, whichever past position was viewed.
        page.view = null;
        document.body.removeAttribute("data-view");
        await api("/api/new", Object.assign({ id: page.id }, settings(), { record: $("record-in").value.trim(), south: "human", north: "human" }));
        $("south").value = "human"; $("north").value = "human";
        render();
        say("Loaded: step through it with the arrows, or review it.");
      } catch (e) { render(); say(`Not loaded: ${e.message}`); }
    });
    $("record-file").addEventListener("change", async (e) => {
      const file = e.target.files && e.target.files[0];
      if (!file) return;
      if (file.size > 60000) { say("Not loaded: the file is over 60 KB (one game, please)."); return; }
      $("record-in").value = await file.text();
    });
    $("ply-first").addEventListener("click", () => step(0));
    $("ply-prev").addEventListener("click", () => step(viewing() - 1));
    $("ply-next").addEventListener("click", () => step(viewing() + 1));
    $("ply-last").addEventListener("click", () => step(1e9));
    document.addEventListener("keydown", (e) => {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -1e9, End: 1e9 };
      if (e.key in moves) { e.preventDefault(); step(viewing() + moves[e.key]); }
    });
    await newGame();
  }

  start().catch((e) => { $("status").textContent = `error: ${e.message}`; });
})();
