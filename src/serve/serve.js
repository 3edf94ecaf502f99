// `awari serve`'s page: it draws what the server sends (positions, legal moves and why the
// other houses are not, sowing paths, analysis lines) and sends clicks back. It knows no
// rules. Everything it shows from the server goes in as text (textContent), never as markup.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const page = { id: null, config: null, state: null, latest: null, flip: false, lines: [], hint: null, anim: null, why: "", view: null, queue: [], sentAt: null, tree: null, treeText: null, going: 0 };

  function el(tag, attrs, parent, text) {
    const node = document.createElement(tag);
    for (const k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // Every call to the server goes through transport.js.
  const server = window.AwariTransport;
  const api = server.post;
  // A call's failure: null when the server refused it (its answer's status), else thrown on.
  const refused = (e) => { if (e.status) return null; throw e; };

  // The notice line. `page.hintSaid` is true only while it shows a hint, so that leaving the
  // hint's position clears the hint and never a notice said since (a late state of a new game
  // would otherwise wipe the offer to bring the game before back).
  function say(text) { $("notice").textContent = text; page.hintSaid = false; }

  // ---- the board ----
  const houseIndex = (letter) => "ABCDEFabcdef".indexOf(letter);

  function drawn(b, extra) {
    return Object.assign({ houses: b.houses, stores: b.stores, side: b.side, bonus: b.bonus, last: null, end: null }, extra || {});
  }

  function render() {
    const s = page.state;
    if (!s) return;
    document.body.setAttribute("data-tree", s.tree);
    if (page.view && page.view.at !== s.moves) return renderView();
    if (page.view) unview();
    $("ply-at").textContent = `ply ${s.moves.length} (the game)`;
    const last = s.last ? houseIndex(s.last.mv) : null;
    // At the end, the rows' seeds that the result counts are drawn in their stores.
    AwariBoard.draw(board, s.variant, drawn(s.over ? s.over.end.board : s.board, { last }), s.players,
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
    if (page.hint && page.hint.generation === s.generation && !page.hint.at) {
      const h = houseIndex(page.hint.move);
      if (h >= 0) cell(h).classList.add("hint");
    }
    banner();
    moves();
    review.shown(s.moves.length);
    // The controls say what the server said last, not what the board is still catching up on.
    paceControls(page.latest || s);
    saveAddress();
    $("variation-controls").hidden = true;
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

  // A position of the tree that is not the game's: a past one of the game or a variation's.
  // A person plays on from it: between persons, a move not yet in the tree starts a variation;
  // against an engine, the page asks first (`ask`).
  function renderView() {
    const s = page.state, v = page.view, pos = v.pos;
    const last = v.at.length ? houseIndex(v.at[v.at.length - 1]) : null;
    AwariBoard.draw(board, s.variant, drawn(pos.over ? pos.over.end.board : pos.board, { last }), s.players,
      pos.over ? pos.over.text : null, { flip: page.flip });
    for (const letter of pos.legal) {
      const c = cell(houseIndex(letter));
      c.classList.add("legal");
      c.setAttribute("data-legal", letter);
      c.addEventListener("click", () => fromView(letter));
    }
    if (window.AwariTables) AwariTables.draw(board, pos, page.flip);
    if (page.hint && page.hint.generation === s.generation && page.hint.at === v.at) {
      const h = houseIndex(page.hint.move);
      if (h >= 0) cell(h).classList.add("hint");
    }
    const b = $("banner");
    b.className = "";
    b.textContent = v.ply !== null
      ? `Viewing ply ${v.ply} of ${s.moves.length}: \u00bb goes back to the game.`
      : `Viewing a variation, ply ${v.at.length} (${v.at}): play on from here, or \u00bb to its end.`;
    $("ply-at").textContent = v.ply !== null ? `ply ${v.ply} of ${s.moves.length}` : `variation, ply ${v.at.length}`;
    moves();
    review.shown(v.ply === null ? -1 : v.ply);
    $("variation-controls").hidden = v.ply !== null;
    $("hint").disabled = !pos.legal.length;
    saveAddress();
    document.body.setAttribute("data-view", String(v.at.length));
    document.body.setAttribute("data-view-at", v.at);
    document.body.setAttribute("data-view-fen", pos.board.fen);
    document.body.setAttribute("data-busy", "0");
  }

  // Views the position after the moves `at` from the start (the game's own: its live board).
  async function go(at) {
    const s = page.state;
    if (!s) return;
    skip();
    const mine = ++page.going;
    if (at === s.moves) {
      unview();
      render();
      follow();
      return;
    }
    const pos = await server.get(`/api/position?id=${encodeURIComponent(page.id)}&at=${encodeURIComponent(at)}`).catch(refused);
    if (!pos || mine !== page.going || !page.state) return;
    page.view = { at, ply: page.state.moves.startsWith(at) ? at.length : null, pos };
    render();
    follow();
  }
  // Back to the game's own position.
  function unview() {
    page.view = null;
    for (const a of ["data-view", "data-view-at", "data-view-fen"]) document.body.removeAttribute(a);
  }
  // Views ply `to` of the game (clamped to it).
  function step(to) {
    const s = page.state;
    if (s) go(s.moves.slice(0, Math.max(0, Math.min(to, s.moves.length))));
  }
  const viewedAt = () => (page.view ? page.view.at : page.state ? page.state.moves : "");
  const viewedNode = () => (page.tree ? AwariTree.find(page.tree, viewedAt()) : null);
  // Back a move (-1) or to the start (-2); on a move (1) or to the line's end (2).
  function stepBy(d) {
    const at = viewedAt(), n = viewedNode();
    if (d < 0) go(d < -1 ? "" : at.slice(0, -1));
    else if (n && d > 1) go(AwariTree.path(AwariTree.lineEnd(n)));
    else if (n && n.children.length) go(at + n.children[0].mv);
  }

  // ---- variations: variations.js makes them ----
  const variations = AwariVariations.attach({ page, el, api, say, go, viewedAt, viewedNode });
  const fromView = variations.fromView;

  // The analysis searches the position viewed: the server is told of each step.
  const analysedAt = () => (page.view ? page.view.at : null);
  function follow() {
    const at = analysedAt();
    if (!page.state || !page.state.analyse || page.sentAt === at) return;
    page.sentAt = at;
    page.lines = [];
    drawLines();
    analyse();
  }
  function analyse() {
    page.sentAt = analysedAt();
    const body = { id: page.id, on: $("analyse").checked, lines: +$("lines-n").value || 1 };
    if (page.sentAt !== null) body.at = page.sentAt;
    return api("/api/analyse", body).catch((x) => say(x.message));
  }
  // The ply viewed, for the review's graph: null for a variation's position.
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
    } else if (s.pace.paused && !s.human[0] && !s.human[1]) {
      b.textContent = "Paused: Step plays one move, Resume goes on.";
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
    if (page.tree) AwariTree.draw($("moves"), page.tree, viewedNode(), go, el);
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

  // The end: the seeds left in the rows that the result counts go into their stores, a
  // house at a time (the server says which, `over.end`).
  function gather(s, done) {
    const end = s.over.end;
    const b = { houses: s.board.houses.slice(), stores: s.board.stores.slice() };
    let k = 0;
    document.body.setAttribute("data-busy", "1");
    const tick = () => {
      if (!page.anim) return;
      const g = end.gathered[k++];
      if (!g) { page.anim = null; done(); return; }
      const [house, side] = g;
      b.stores[side] += b.houses[house];
      b.houses[house] = 0;
      AwariBoard.draw(board, s.variant, drawn({ houses: b.houses, stores: b.stores, side: s.board.side, bonus: false }),
        s.players, s.over.text, { flip: page.flip });
      cell(house).classList.add("sowing");
      board.querySelector(`[data-store-cell="${side}"]`).classList.add("sowing");
      $("banner").textContent = "The game is over: the seeds left in the rows go to their stores.";
      page.anim = setTimeout(tick, 260);
    };
    page.anim = setTimeout(tick, 200);
  }

  function skip() {
    if (page.anim) { clearTimeout(page.anim); page.anim = null; render(); drain(); }
  }

  // States that came while a move was being sown, when the page watches engines at a pace:
  // shown in turn, so that every position is seen.
  function drain() {
    while (!page.anim && page.queue.length) onState(page.queue.shift(), true);
  }
  const watching = (s) => !s.human[0] && !s.human[1] && s.pace.delay_ms > 0;

  // The board at once where the game is (the last state the server sent), the moves still to
  // be sown skipped: on a pause.
  function catchUp() {
    if (!page.latest || (!page.anim && !page.queue.length)) return;
    if (page.anim) { clearTimeout(page.anim); page.anim = null; }
    page.queue = [];
    onState(page.latest, true, true);
  }

  // `s`: a state from the server, or (`queued`) one held back while a move was being sown;
  // `still`: drawn without sowing its move.
  function onState(s, queued, still) {
    if (!queued) page.latest = s;
    const latest = page.latest;
    if (latest.pace.paused && (page.anim || page.queue.length)) return catchUp();
    if (page.anim && page.state && watching(s) && page.queue.length < 32) {
      const prev = page.queue.length ? page.queue[page.queue.length - 1] : page.state;
      if (s.generation === prev.generation || (s.moves.length === prev.moves.length + 1 && s.moves.startsWith(prev.moves))) {
        page.queue.push(s);
        return;
      }
    }
    const before = page.state;
    page.state = s;
    if (before && (before.generation !== s.generation || before.lines_wanted !== s.lines_wanted)) {
      page.lines = [];
      drawLines();
      $("why").textContent = "";
      // A hint is for one position.
      if (page.hintSaid) say("");
    }
    // Another game (a new one, a loaded one, a take-back): nothing said of the last one stays.
    const fresh = before && s.generation !== before.generation &&
      (before.start !== s.start || s.moves.length <= before.moves.length || !s.moves.startsWith(before.moves));
    if (fresh || s.over) $("thinking").textContent = "";
    if (fresh) { page.hint = null; page.queue = []; }
    // The game's tree, read again when it changed (a move, a variation added or deleted).
    if (s.tree !== page.treeText) {
      page.tree = AwariTree.parse(s.tree) || AwariTree.parse(s.moves);
      page.treeText = s.tree;
    }
    // The position viewed stays while the tree holds it; another game (a new or loaded one)
    // or a take-back past it ends the viewing.
    if (page.view && before && (before.start !== s.start || !AwariTree.find(page.tree, page.view.at))) unview();
    if (page.view) page.view.ply = s.moves.startsWith(page.view.at) ? page.view.at.length : null;
    const newMove = !page.view && !still && s.last && (!before || before.moves.length + 1 === s.moves.length) && s.moves !== (before && before.moves);
    if (page.anim) { clearTimeout(page.anim); page.anim = null; }
    const atEnd = () => (s.over && s.over.end.gathered.length > 0 ? gather(s, finish) : finish());
    const finish = () => { render(); drain(); };
    if (newMove && $("animate").checked && s.last.shown.steps.length > 0) animate(s, atEnd);
    else if (newMove && s.over && $("animate").checked) { render(); atEnd(); }
    else render();
    if (!latest.analyse) page.sentAt = null;
    else if (page.sentAt !== analysedAt()) follow();
    if (page.goTo !== undefined) { const at = page.goTo; page.goTo = undefined; go(at); }
    $("analyse").checked = latest.analyse;
    analysing();
    linesChoice(latest);
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
  // The number of lines, offered once the analysis engine has said how many it gives.
  function linesChoice(s) {
    const select = $("lines-n"), max = s.lines_max || 1;
    $("lines-choice").hidden = max < 2 || !s.analyse;
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
      el("td", {}, tr, AwariLines.score(l.score));
      const pv = el("td", { class: "pv", title: "+ : the same side moves again" }, tr);
      AwariLines.into(pv, l.pv, el);
      pv.addEventListener("mouseenter", () => {
        if (page.anim || !page.state) return;
        AwariBoard.draw(board, page.state.variant, drawn(l.end), page.state.players,
          `after ${l.pv} (the line's end)`, { flip: page.flip });
      });
      pv.addEventListener("mouseleave", () => { if (!page.anim) render(); });
    }
    const best = page.lines[0];
    $("evalfill").style.width = `${(100 * (best ? AwariLines.share(best.score) : 0.5)).toFixed(1)}%`;
    // With no line to show, no bar: an even bar would say "level" of a position not searched.
    $("evalbar").hidden = !best;
    $("evaltext").textContent = best ? (best.score.cp === undefined ? AwariLines.score(best.score) : `${AwariLines.score(best.score)} (South's view)`) : "";
    analysing();
  }

  // Which position the analysis searches, as the server says.
  function analysing() {
    const st = page.latest || page.state;
    const at = st && st.analysing;
    $("analysing").textContent = !st || !st.analyse ? "" :
      !at ? "" : at.at === null ? "Analysing the game's position."
        : at.ply !== null ? `Analysing the position after ply ${at.ply} (the one viewed).`
          : `Analysing the variation's position after ${at.at} (the one viewed).`;
  }

  function onInfo(data) {
    if (!page.state || data.generation !== page.state.generation) return;
    const l = data.line;
    if (data.analysis && (data.at === undefined ? null : data.at) !== analysedAt()) return;
    if (data.analysis) {
      const i = page.lines.findIndex((x) => x.multipv === l.multipv);
      if (i >= 0) page.lines[i] = l; else page.lines.push(l);
      page.lines.sort((a, b) => a.multipv - b.multipv);
      drawLines();
    } else {
      $("thinking").textContent = `${data.side === "S" ? "South" : "North"}: depth ${l.depth}, ${AwariLines.score(l.score)} (South's view), ${AwariLines.text(l.pv)}`;
    }
  }

  // ---- setup ----
  function seatOptions(select, chosen) {
    el("option", { value: "human" }, select, "a person");
    for (const e of page.config.engines) el("option", { value: e.id }, select, `${e.label} (${e.limit})`);
    select.value = chosen;
    // An engine not offered (a page with its own engine offers it at a few strengths): the first.
    if (select.selectedIndex < 0) select.selectedIndex = Math.min(1, select.options.length - 1);
  }

  function settings() {
    return {
      variant: $("variant").value, south: $("south").value, north: $("north").value,
      fen: $("fen").value.trim(), moves: $("moves-in").value.trim(), delay_ms: +$("pace").value,
    };
  }

  async function newGame() {
    try {
      page.hint = null;
      const before = gameOf(page.state);
      const answer = await api(page.id ? "/api/new" : "/api/session", Object.assign(page.id ? { id: page.id } : {}, settings()));
      if (!page.id) attach(answer.id);
      unview();
      replaced(before, "");
    } catch (e) {
      say(`Not started: ${e.message}`);
    }
  }

  // ---- records of many games (records.js reads them) ----
  // Games read from a file or the box: one goes into the box; several are listed to choose.
  function offerGames(games, from) {
    page.games = games;
    const pick = $("record-pick"), select = $("record-games");
    select.textContent = "";
    pick.hidden = games.length < 2;
    if (!games.length) { say(`No game in ${from}.`); return; }
    if (games.length > 1) games.forEach((g, i) => el("option", { value: i }, select, AwariRecords.summary(g, i)));
    chooseGame(0);
    say(games.length > 1 ? `${games.length} games in ${from}: choose one, then Load.` : `One game in ${from}: press Load.`);
  }
  function chooseGame(i) {
    if (!page.games || !page.games[i]) return;
    $("record-games").value = String(i);
    $("record-in").value = page.games[i];
  }

  // ---- nothing thrown away ----
  // A game that held moves, as `replay` takes it; null for one with nothing to lose.
  function gameOf(s) {
    if (!s || !s.moves.length) return null;
    return { variant: s.variant, south: s.seats[0], north: s.seats[1], start: s.start, moves: s.moves, delay: s.pace.delay_ms, tree: s.tree };
  }

  // Says `text`, and when the game just replaced held moves, offers it back (once).
  function replaced(before, text) {
    say(text);
    if (!before) return;
    const back = el("button", { id: "undo-replace", type: "button" }, $("notice"), "Bring back the game before");
    back.addEventListener("click", async () => {
      back.disabled = true;
      try {
        $("variant").value = before.variant; $("south").value = before.south; $("north").value = before.north;
        await api("/api/new", { id: page.id, variant: before.variant, south: before.south, north: before.north, fen: before.start, moves: before.moves, delay_ms: +(before.delay || 0) });
        if (before.tree !== before.moves) await api("/api/tree", { id: page.id, tree: before.tree });
        unview();
        say("The game before is back.");
      } catch (e) { back.disabled = false; say(`Not brought back: ${e.message}`); }
    });
  }

  function listen() {
    const source = server.events(page.id, {
      state: (s) => onState(s),
      info: (info) => onInfo(info),
      hint: (hint) => {
        // A hint for a position already left is no hint.
        if (!page.state || hint.generation !== page.state.generation) return;
        page.hint = hint;
        if (!page.anim) render();
        say(`Hint: ${page.hint.move}`);
        page.hintSaid = true;
      },
      review: (r) => review.onReview(r),
      notice: (n) => say(n.text),
      open: () => { $("status").textContent = "connected"; },
      error: (closed) => {
        if (closed) { recover(source); return; }
        $("status").textContent = "the server is not answering: reconnecting...";
      },
    });
    page.source = source;
  }

  // ---- a reload, a server restarted ----
  // The game lives in the address (after `#`: rules, seats, start, moves, pace, the tree of
  // variations when there are any, the position viewed when it is not the game's), the
  // session's id in the tab's storage. A reload reattaches to the session when it is still
  // there with the same game, else replays the game into a new one.
  function saveAddress() {
    const s = page.state;
    const h = new URLSearchParams({ variant: s.variant, south: s.seats[0], north: s.seats[1], start: s.start, moves: s.moves, delay: String(s.pace.delay_ms) });
    if (s.tree !== s.moves) h.set("tree", s.tree);
    if (page.view) h.set("at", page.view.at);
    history.replaceState(null, "", `${location.pathname}${location.search}#${h}`);
    try { sessionStorage.setItem("awari-session", page.id); } catch (e) { /* storage off: a reload replays */ }
  }

  function attach(id) {
    page.id = id;
    document.body.setAttribute("data-session", id);
    listen();
    const q = encodeURIComponent(id);
    server.link($("pgn"), `/api/record?id=${q}&format=pgn`);
    server.link($("jsonl"), `/api/record?id=${q}&format=json`);
  }

  // The game `g` ({variant, south, north, start, moves, delay, tree?}) into a new session.
  async function replay(g, why) {
    $("variant").value = g.variant; $("south").value = g.south; $("north").value = g.north;
    if (g.delay !== undefined) $("pace").value = String(g.delay);
    const answer = await api("/api/session", { variant: g.variant, south: g.south, north: g.north, fen: g.start, moves: g.moves, delay_ms: +(g.delay || 0) });
    // The variations, before the page reads the session's first state.
    if (g.tree && g.tree !== g.moves) {
      await api("/api/tree", { id: answer.id, tree: g.tree }).catch((e) => { why = `${why || ""} The variations were not kept: ${e.message}`.trim(); });
    }
    page.state = null;
    page.latest = null;
    attach(answer.id);
    if (why) say(why);
    document.body.setAttribute("data-replayed", "1");
  }

  // A server that keeps no session across a reload (the engine in the page): replayed, unsaid.
  async function restore(g) {
    let id = null;
    if (server.persistent) {
      try { id = sessionStorage.getItem("awari-session"); } catch (e) { /* none */ }
    }
    if (id) {
      const s = await server.get(`/api/state?id=${encodeURIComponent(id)}`).catch(refused);
      if (s) {
        if (s.variant === g.variant && s.start === g.start && s.moves.startsWith(g.moves) && s.seats[0] === g.south && s.seats[1] === g.north) {
          $("variant").value = g.variant; $("south").value = g.south; $("north").value = g.north;
          if (g.delay !== undefined) $("pace").value = String(g.delay);
          attach(id);
          document.body.setAttribute("data-reattached", "1");
          return;
        }
      }
    }
    await replay(g, id ? "This game's session had ended (the server restarted, or the page was away too long): the game was replayed into a new one." : "");
  }

  // The event stream was refused: the session is gone. A server that restarted has lost it.
  async function recover(source) {
    if (page.source !== source || !page.state) return;
    const there = await server.get(`/api/state?id=${encodeURIComponent(page.id)}`).then(() => true, () => false);
    if (there) { listen(); return; }
    const s = page.state;
    const restarted = server.persistent;
    $("status").textContent = restarted ? "the server restarted" : "the session ended";
    try {
      await replay({ variant: s.variant, south: s.seats[0], north: s.seats[1], start: s.start, moves: s.moves, delay: s.pace.delay_ms, tree: s.tree },
        restarted ? "The server restarted and lost this game's session: the game was replayed into a new one (its engines start afresh)."
          : "This game's session ended: the game was replayed into a new one (its engines start afresh).");
    } catch (e) { say(`${restarted ? "The server restarted and the game" : "The game"} could not be replayed: ${e.message}`); }
  }

  // ---- the pace, when engines play both sides ----
  function paceControls(s) {
    $("pace-controls").hidden = s.human[0] || s.human[1];
    $("pause").textContent = s.pace.paused ? "Resume" : "Pause";
    $("step").disabled = !s.pace.paused || !!s.over;
    document.body.setAttribute("data-paused", s.pace.paused ? "1" : "0");
    document.body.setAttribute("data-held", s.pace.held ? "1" : "0");
  }

  async function start() {
    page.config = await server.get("/api/config");
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
    $("hint").addEventListener("click", () => { say("Thinking of a hint..."); api("/api/hint", Object.assign({ id: page.id }, page.view ? { at: page.view.at } : {})).catch((e) => say(e.message)); });
    $("analyse").addEventListener("change", analyse);
    $("lines-n").addEventListener("change", analyse);
    window.addEventListener("pagehide", () => {
      // Later: a reload comes back to it.
      if (page.id) server.leave(page.id);
    });
    $("review").addEventListener("click", () =>
      api("/api/review", { id: page.id, ms: +$("review-ms").value }).catch((e) => say(e.message)));
    $("load").addEventListener("click", async () => {
      const record = $("record-in").value.trim();
      if (!record) { say("Nothing to load: paste a record (PGN or a JSON line) into the box, or choose a file."); return; }
      const several = AwariRecords.split(record);
      if (several.length > 1) { offerGames(several, "the box"); return; }
      const before = gameOf(page.state);
      try {
        await api("/api/new", Object.assign({ id: page.id }, settings(), { record, south: "human", north: "human" }));
        // The loaded game is shown from its end, whichever past position was viewed.
        unview();
        $("south").value = "human"; $("north").value = "human";
        render();
        replaced(before, "Loaded: step through it with the arrows, or review it. ");
      } catch (e) { render(); say(`Not loaded: ${e.message}`); }
    });
    $("record-file").addEventListener("change", async (e) => {
      const file = e.target.files && e.target.files[0];
      if (!file) return;
      try {
        offerGames(await AwariRecords.read(file), file.name);
      } catch (err) { say(`Not read: ${err.message}`); }
    });
    $("record-games").addEventListener("change", () => chooseGame(+$("record-games").value));
    $("ply-first").addEventListener("click", () => step(0));
    $("ply-prev").addEventListener("click", () => stepBy(-1));
    $("ply-next").addEventListener("click", () => stepBy(1));
    $("ply-last").addEventListener("click", () => stepBy(2));
    $("promote").addEventListener("click", variations.promote);
    $("delete-from-here").addEventListener("click", variations.deleteFromHere);
    document.addEventListener("keydown", (e) => {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -2, End: 2 };
      if (e.key in moves) { e.preventDefault(); stepBy(moves[e.key]); }
    });
    $("pace").addEventListener("change", () => api("/api/pace", { id: page.id, delay_ms: +$("pace").value }).catch((e) => say(e.message)));
    $("pause").addEventListener("click", () => {
      const pausing = !(page.latest && page.latest.pace.paused);
      if (pausing) catchUp();
      api("/api/pace", { id: page.id, paused: pausing }).catch((e) => say(e.message));
    });
    $("step").addEventListener("click", () => api("/api/pace", { id: page.id, step: true }).catch((e) => say(e.message)));
    const saved = new URLSearchParams(location.hash.slice(1));
    if (saved.has("variant") && saved.has("start")) {
      const g = {};
      for (const k of ["variant", "south", "north", "start", "moves", "delay", "tree"]) g[k] = saved.get(k) || "";
      // The position viewed before the reload, once the game's first state is in.
      if (saved.has("at")) page.goTo = saved.get("at");
      await restore(g).catch((e) => { say(`The game could not be restored: ${e.message}`); return newGame(); });
    } else await newGame();
  }

  start().catch((e) => { $("status").textContent = `error: ${e.message}`; });
})();
