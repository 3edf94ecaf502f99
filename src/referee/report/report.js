// The report page's script: it draws the plots and the game viewer from the data the referee
// wrote into the page (src/referee/report/data.rs). It knows no rules: every position it
// draws was computed by the referee's rules and stored per ply; this script only decodes and
// draws them.
"use strict";
(function () {
  const errors = [];
  window.addEventListener("error", (e) => errors.push(String(e.message || e)));
  const consoleError = console.error;
  console.error = function (...args) {
    errors.push(args.map(String).join(" "));
    consoleError.apply(console, args);
  };

  const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  const NONE = ".";
  const MATE = 1000000;
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#2f6fb3", "#c8553d"];
  const DATA = JSON.parse(document.getElementById("data").textContent);

  function svg(tag, attrs, parent, text) {
    const node = document.createElementNS(SVG, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, attrs, parent, text) {
    const node = document.createElement(tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  const finite = (v) => typeof v === "number" && isFinite(v);

  // Round tick steps (1, 2, 5 times a power of ten) covering lo..hi in about `count` steps.
  function ticks(lo, hi, count) {
    const raw = (hi - lo) / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toFixed(10));
    return out;
  }

  // A line or dot plot of series over x = 0..n-1. Each series is one path; a null value
  // breaks a line. The path's vertices are the points drawn (the browser test counts them).
  function plot(parent, o) {
    const W = 440, H = o.height || 220, L = 50, R = 12, T = 24, B = 30;
    const root = svg("svg", { class: "plot", viewBox: `0 0 ${W} ${H}`, "data-name": o.name, "data-n": o.n }, parent);
    svg("text", { x: L, y: 15, class: "title" }, root, o.title);
    let values = [];
    for (const s of o.series) values = values.concat(s.values.filter(finite));
    if (o.band) values = values.concat(o.band.lo.filter(finite), o.band.hi.filter(finite));
    for (const h of o.hlines || []) values.push(h.y);
    if (o.n === 0 || values.length === 0) {
      svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle" }, root, o.empty || "nothing to draw yet");
      for (const s of o.series) svg("path", { d: "", "data-label": s.label, class: "series" }, root);
      return root;
    }
    let lo = Infinity, hi = -Infinity;
    for (const v of values) { if (v < lo) lo = v; if (v > hi) hi = v; }
    if (o.zero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.05;
    lo -= pad; hi += pad;
    const x = (i) => L + (o.n <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (o.n - 1));
    const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
    for (const t of ticks(lo, hi, 5)) {
      svg("line", { x1: L, x2: W - R, y1: y(t), y2: y(t), class: "grid" }, root);
      svg("text", { x: L - 4, y: y(t) + 4, "text-anchor": "end" }, root, String(+t.toFixed(3)));
    }
    svg("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }, root);
    svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }, root);
    const xt = o.n <= 1 ? [0] : ticks(0, o.n - 1, 6).filter((t) => Number.isInteger(t));
    for (const t of xt) {
      svg("text", { x: x(t), y: H - B + 14, "text-anchor": "middle" }, root, String(o.xlabel ? o.xlabel(t) : t + 1));
    }
    svg("text", { x: W - R, y: H - 4, "text-anchor": "end" }, root, o.xname || "game");
    if (o.band) {
      // The interval as one polygon per run of defined values.
      let d = "", run = [];
      const flush = () => {
        if (run.length) {
          d += "M" + run.map((i) => `${x(i).toFixed(1)},${y(o.band.hi[i]).toFixed(1)}`).join("L");
          d += "L" + run.slice().reverse().map((i) => `${x(i).toFixed(1)},${y(o.band.lo[i]).toFixed(1)}`).join("L") + "Z";
        }
        run = [];
      };
      for (let i = 0; i < o.n; i++) (finite(o.band.hi[i]) && finite(o.band.lo[i]) ? run.push(i) : flush());
      flush();
      svg("path", { d, fill: o.band.color, "fill-opacity": 0.18, stroke: "none", class: "band" }, root);
    }
    for (const h of o.hlines || []) {
      svg("line", { x1: L, x2: W - R, y1: y(h.y), y2: y(h.y), class: "bound" }, root);
      svg("text", { x: W - R - 2, y: y(h.y) - 3, "text-anchor": "end" }, root, h.label);
    }
    o.series.forEach((s, k) => {
      const parts = [];
      let pen = false;
      for (let i = 0; i < s.values.length; i++) {
        const v = s.values[i];
        if (!finite(v)) { pen = false; continue; }
        const p = `${x(i).toFixed(1)},${y(v).toFixed(1)}`;
        parts.push(s.dots ? `M${p}h0` : (pen ? "L" : "M") + p);
        pen = true;
      }
      svg("path", {
        d: parts.join(""), fill: "none", stroke: s.color, "stroke-width": s.dots ? (o.n > 2000 ? 2 : 3.2) : 1.6,
        "stroke-linecap": "round", "stroke-linejoin": "round", "data-label": s.label, class: "series",
      }, root);
      // The legend, along the bottom.
      svg("rect", { x: 4 + 90 * k, y: H - 12, width: 8, height: 8, fill: s.color }, root);
      svg("text", { x: 16 + 90 * k, y: H - 4, fill: s.color }, root, s.label);
    });
    if (o.marker !== undefined) svg("line", { x1: x(o.marker), x2: x(o.marker), y1: T, y2: H - B, class: "marker" }, root);
    if (o.pick) {
      // A click picks the nearest x: a game to view, or a ply to show.
      root.style.cursor = "pointer";
      svg("title", {}, root, o.pickTitle);
      root.addEventListener("click", (e) => {
        const m = root.getScreenCTM();
        if (!m) return;
        const px = (e.clientX - m.e) / m.a;
        const i = o.n <= 1 ? 0 : Math.round(((px - L) * (o.n - 1)) / (W - L - R));
        if (i >= 0 && i < o.n) o.pick(i);
      });
    }
    return root;
  }

  // ---- the match plots ----
  function matchPlots(m, container, index) {
    const s = m.series, names = m.summary.names, n = s.rounds.length;
    const round = (i) => s.rounds[Math.min(i, n - 1)];
    const pick = (i) => {
      if (document.getElementById("pick-match")) document.getElementById("pick-match").value = index;
      selectGame(index, i);
      document.getElementById("viewer").scrollIntoView();
    };
    const pickTitle = "click: view the game";
    plot(container, {
      name: "elo", title: `Elo of ${names[0]} after each game, with its 95% interval`, n, zero: true,
      series: [{ values: s.elo.map((e) => (e ? e[0] : null)), color: COLORS[0], label: "Elo" }],
      band: { lo: s.elo.map((e) => (e ? e[0] - e[1] : null)), hi: s.elo.map((e) => (e ? e[0] + e[1] : null)), color: COLORS[0] },
      xlabel: round, xname: "round", empty: "no finite Elo yet: one engine has scored every point", pick, pickTitle,
    });
    const bounds = s.llr_bounds;
    plot(container, {
      name: "llr", title: bounds ? "SPRT: LLR after each game pair, with its bounds" : "SPRT: none in this match",
      n: s.llr.length, series: [{ values: s.llr, color: "#6b4c9a", label: "LLR" }],
      hlines: bounds ? [{ y: bounds[0], label: "H0 " + bounds[0].toFixed(2) }, { y: bounds[1], label: "H1 " + bounds[1].toFixed(2) }] : [],
      xname: "pair", empty: bounds ? "no complete pair yet" : "the match ran no SPRT (referee report --sprt ... adds one)",
    });
    const by = (p) => s.plies.map((v, i) => (s.points[i] === p ? v : null));
    plot(container, {
      name: "plies", title: "Game length (plies), by result", n,
      series: [
        { values: by(2), color: COLORS[0], dots: true, label: names[0] + " won" },
        { values: by(1), color: "#888", dots: true, label: "draw" },
        { values: by(0), color: COLORS[1], dots: true, label: names[1] + " won" },
        { values: by(null), color: "#000", dots: true, label: "no contest" },
      ],
      xlabel: round, xname: "round", pick, pickTitle,
    });
    plot(container, {
      name: "ms", title: "Time used per move (ms, mean of each game)", n, zero: true,
      series: [0, 1].map((e) => ({ values: s.ms[e], color: COLORS[e], dots: true, label: names[e] })),
      xlabel: round, xname: "round", pick, pickTitle,
    });
    plot(container, {
      name: "depth", title: "Depth reached per move (mean of each game)", n, zero: true,
      series: [0, 1].map((e) => ({ values: s.depth[e], color: COLORS[e], dots: true, label: names[e] })),
      xlabel: round, xname: "round", pick, pickTitle,
    });
  }

  // ---- the game viewer ----
  const view = { match: 0, index: 0, ply: 0 };

  function decode(game) {
    const w = game.width, size = 14 * w + 3, count = game.boards.length / size;
    return {
      count,
      at(p) {
        const o = p * size, value = (c) => DIGITS.indexOf(c);
        const num = (i) => { let v = 0; for (let k = 0; k < w; k++) v = v * 64 + value(game.boards[o + i * w + k]); return v; };
        const houses = []; for (let i = 0; i < 12; i++) houses.push(num(i));
        const state = value(game.boards[o + 14 * w]);
        const place = (c) => (c === NONE ? null : value(c));
        return {
          houses, stores: [num(12), num(13)], side: state & 1 ? "N" : "S", bonus: (state & 2) !== 0,
          last: place(game.boards[o + 14 * w + 1]), end: place(game.boards[o + 14 * w + 2]),
        };
      },
    };
  }

  // The board itself is drawn by board.js, shared with `awari serve`'s page.
  function drawBoard(variant, b, names, over) {
    window.AwariBoard.draw(document.getElementById("board"), variant, b, names, over);
  }

  function currentGame() {
    const m = DATA.matches[view.match];
    return { m, game: m.games[view.index] };
  }

  function gameNames(game, m) {
    const [a, b] = m.summary.names;
    return game.a_south ? [a, b] : [b, a];
  }

  function show() {
    const { m, game } = currentGame();
    if (!game) {
      document.getElementById("game-title").textContent = "no games in this match yet";
      return;
    }
    const boards = decode(game);
    view.ply = Math.max(0, Math.min(view.ply, boards.count - 1));
    const b = boards.at(view.ply);
    const names = gameNames(game, m);
    const over = view.ply === boards.count - 1 ? game.result : null;
    drawBoard(m.summary.variant, b, names, over);
    const letters = game.opening + game.moves;
    document.getElementById("ply-at").textContent =
      `ply ${view.ply} of ${boards.count - 1}` + (view.ply > 0 ? `: ${letters[view.ply - 1]}` : ": start");
    for (const node of document.querySelectorAll("#moves .now")) node.classList.remove("now");
    const now = document.querySelector(`#moves [data-ply="${view.ply}"]`);
    if (now) now.classList.add("now");
    const graphs = document.getElementById("game-graphs");
    for (const line of graphs.querySelectorAll(".marker")) {
      const n = +line.parentNode.getAttribute("data-n"), L = 50, R = 12, W = 440;
      const x = L + (n <= 1 ? (W - L - R) / 2 : (view.ply * (W - L - R)) / (n - 1));
      line.setAttribute("x1", x); line.setAttribute("x2", x);
    }
  }

  function selectGame(match, index) {
    view.match = match; view.index = index; view.ply = 0;
    const { m, game } = currentGame();
    const title = document.getElementById("game-title");
    const moves = document.getElementById("moves");
    const graphs = document.getElementById("game-graphs");
    moves.textContent = ""; graphs.textContent = "";
    if (!game) { show(); return; }
    document.getElementById("pick-game").value = game.round;
    const names = gameNames(game, m);
    title.textContent = `round ${game.round}: ${names[0]} (South) - ${names[1]} (North), ${game.result}, ` +
      `${game.termination}; stores ${game.stores[0]}-${game.stores[1]}`;
    const boards = decode(game), letters = game.opening + game.moves, open = game.opening.length;
    const start = html("span", { "data-ply": 0 }, moves, "start");
    start.onclick = () => { view.ply = 0; show(); };
    for (let p = 1; p < boards.count; p++) {
      const mover = boards.at(p - 1).side;
      html("span", { class: "n" }, moves, String(p));
      const node = html("span", { "data-ply": p, class: mover + (p <= open ? " opening" : ""), title: p <= open ? "opening" : "" }, moves, letters[p - 1]);
      node.onclick = () => { view.ply = p; show(); };
    }
    // Each engine's score (South's side: positive is good for South) and depth, at the ply
    // its move led to.
    const n = boards.count;
    const score = [new Array(n).fill(null), new Array(n).fill(null)];
    const depth = [new Array(n).fill(null), new Array(n).fill(null)];
    game.score.forEach((v, i) => {
      const mover = boards.at(open + i).side;
      const engine = (mover === "S") === game.a_south ? 0 : 1;
      let cp = v;
      if (finite(v) && Math.abs(v) > MATE / 2) cp = Math.sign(v) * 2000;
      if (finite(cp)) score[engine][open + i + 1] = Math.max(-2000, Math.min(2000, mover === "S" ? cp : -cp));
      if (finite(game.depth[i])) depth[engine][open + i + 1] = game.depth[i];
    });
    const engines = m.summary.names;
    plot(graphs, {
      name: "game-score", title: "Scores, South's side (cp; a mate or the tables' proven win = 2000)", n, zero: true,
      series: [0, 1].map((e) => ({ values: score[e], color: COLORS[e], dots: true, label: engines[e] })),
      xlabel: (t) => t, xname: "ply", marker: 0, height: 150,
      pick: (p) => { view.ply = p; show(); }, pickTitle: "click: show this ply",
    });
    plot(graphs, {
      name: "game-depth", title: "Depths", n, zero: true,
      series: [0, 1].map((e) => ({ values: depth[e], color: COLORS[e], dots: true, label: engines[e] })),
      xlabel: (t) => t, xname: "ply", marker: 0, height: 150,
      pick: (p) => { view.ply = p; show(); }, pickTitle: "click: show this ply",
    });
    table(Math.floor(index / PAGE));
    show();
  }

  // ---- the list of games, a page at a time ----
  const PAGE = 25;
  let page = 0;
  function table(at) {
    const { m } = currentGame();
    const pages = Math.max(1, Math.ceil(m.games.length / PAGE));
    page = Math.max(0, Math.min(at, pages - 1));
    const box = document.getElementById("games-table");
    box.textContent = "";
    const t = html("table", {}, box);
    const head = html("tr", {}, html("thead", {}, t));
    for (const h of ["round", "South", "North", "result", "plies", "ended", "opening"]) html("th", {}, head, h);
    const body = html("tbody", {}, t);
    m.games.slice(page * PAGE, (page + 1) * PAGE).forEach((g, k) => {
      const i = page * PAGE + k, names = gameNames(g, m);
      const row = html("tr", { class: i === view.index ? "now" : "" }, body);
      for (const c of [g.round, names[0], names[1], g.result, g.opening.length + g.moves.length, g.termination, g.opening]) {
        html("td", { title: String(c) }, row, String(c));
      }
      row.onclick = () => selectGame(view.match, i);
    });
    const pager = html("div", { class: "pager" }, box);
    const prev = html("button", {}, pager, "‹ page"); prev.onclick = () => table(page - 1);
    html("span", {}, pager, `page ${page + 1} of ${pages} (${m.games.length} games)`);
    const next = html("button", {}, pager, "page ›"); next.onclick = () => table(page + 1);
  }

  function step(delta) { view.ply += delta; show(); }

  function wire() {
    document.getElementById("ply-first").onclick = () => { view.ply = 0; show(); };
    document.getElementById("ply-last").onclick = () => { view.ply = 1e9; show(); };
    document.getElementById("ply-prev").onclick = () => step(-1);
    document.getElementById("ply-next").onclick = () => step(1);
    const games = () => DATA.matches[view.match].games;
    document.getElementById("game-prev").onclick = () => selectGame(view.match, Math.max(0, view.index - 1));
    document.getElementById("game-next").onclick = () => selectGame(view.match, Math.min(games().length - 1, view.index + 1));
    document.getElementById("pick-game").onchange = (e) => {
      const i = games().findIndex((g) => g.round === +e.target.value);
      if (i >= 0) selectGame(view.match, i);
    };
    const pick = document.getElementById("pick-match");
    if (pick) pick.onchange = (e) => selectGame(+e.target.value, 0);
    document.addEventListener("keydown", (e) => {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -1e9, End: 1e9 };
      if (e.key in moves) { e.preventDefault(); step(moves[e.key]); }
    });
  }

  // ---- the browser test's hook: #test=match:M;game:ROUND;plies:0,5,17[;only:ID] ----
  // Steps the viewer to each ply and writes what the page drew (read back from the SVG), the
  // plots' points and the errors seen, as JSON into <pre id="test-out">.
  function testHook() {
    const spec = /(?:^|[#&])test=([^&]*)/.exec(decodeURIComponent(location.hash));
    if (!spec) return;
    const args = {};
    for (const part of spec[1].split(";")) {
      const [k, v] = part.split(":");
      args[k] = v;
    }
    const match = +(args.match || 0);
    const out = { games: DATA.matches.map((m) => m.games.length), pairs: DATA.matches.map((m) => m.series.llr.length), plies: [] };
    const games = DATA.matches[match] ? DATA.matches[match].games : [];
    const index = games.findIndex((g) => g.round === +(args.game || 1));
    if (args.plies !== undefined && index >= 0) {
      if (document.getElementById("pick-match")) document.getElementById("pick-match").value = match;
      selectGame(match, index);
      view.ply = 0; show();
      for (const p of args.plies.split(",").map(Number)) {
        // Step there the way a user does: the arrow keys, ply by ply.
        const key = p < view.ply ? "ArrowLeft" : "ArrowRight";
        for (let k = Math.abs(p - view.ply); k > 0; k--) document.dispatchEvent(new KeyboardEvent("keydown", { key }));
        const board = document.getElementById("board");
        const read = (sel) => +board.querySelector(sel).textContent;
        const marked = (cls) => { const c = board.querySelector(`circle.${cls}`); return c ? +c.getAttribute("data-house-cell") : null; };
        out.plies.push({
          ply: p, at: view.ply,
          houses: [...Array(12).keys()].map((i) => read(`[data-house="${i}"]`)),
          stores: [read('[data-store="0"]'), read('[data-store="1"]')],
          side: board.querySelector("[data-side]").getAttribute("data-side"),
          last: marked("last"), end: marked("end"),
        });
      }
    }
    out.plots = [...document.querySelectorAll("svg.plot")].map((s) => ({
      name: s.getAttribute("data-name"), n: +s.getAttribute("data-n"),
      match: s.closest("[data-match]") ? +s.closest("[data-match]").getAttribute("data-match") : null,
      series: [...s.querySelectorAll("path.series")].map((p) => ({
        label: p.getAttribute("data-label"), points: (p.getAttribute("d").match(/M/g) || []).length +
          (p.getAttribute("d").match(/L/g) || []).length,
      })),
    }));
    // click:K clicks the game-length plot of the match at its K-th game (from 0): the viewer
    // then shows that game.
    if (args.click !== undefined) {
      const plot = document.querySelector(`.plots[data-match="${match}"] svg[data-name="plies"]`);
      const n = +plot.getAttribute("data-n"), m = plot.getScreenCTM(), k = +args.click;
      const x = 50 + (n <= 1 ? (440 - 62) / 2 : (k * (440 - 62)) / (n - 1));
      plot.dispatchEvent(new MouseEvent("click", { clientX: m.a * x + m.e, clientY: m.f + 100, bubbles: true }));
      out.clicked = { match: view.match, round: DATA.matches[view.match].games[view.index].round };
    }
    // only:ID shows that section alone (a screenshot of the viewer, which a headless browser
    // cannot scroll to).
    if (args.only) for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== args.only;
    out.errors = errors;
    const pre = document.getElementById("test-out");
    pre.textContent = JSON.stringify(out);
  }

  try {
    document.querySelectorAll(".plots").forEach((box) => {
      const index = +box.getAttribute("data-match");
      matchPlots(DATA.matches[index], box, index);
    });
    if (DATA.matches.length > 0) {
      wire();
      selectGame(0, 0);
    } else {
      // A match's page before its first game.
      document.getElementById("viewer").hidden = true;
    }
    document.documentElement.setAttribute("data-script-ms", performance.now().toFixed(0));
    testHook();
  } catch (e) {
    errors.push(String(e && e.stack ? e.stack : e));
    document.getElementById("test-out").textContent = JSON.stringify({ errors });
  }
  requestAnimationFrame(() => requestAnimationFrame(() =>
    document.documentElement.setAttribute("data-paint-ms", performance.now().toFixed(0))));
})();
