// The review on `awari serve`'s page, as an analysis board shows one: the score graph (its
// axis in seeds; a click steps to that ply), the marks in the move list (?! inaccuracy,
// ? mistake, ?? blunder), the better move drawn as an arrow on the position before a marked
// move, and each side's accuracy. The server judges every move (src/serve/review.rs); this
// only draws what it sent. serve.js attaches it to its page and calls the hooks it returns.
"use strict";
window.AwariReview = (function () {
  const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  const HOUSES = "ABCDEFabcdef";
  // The graph: its size (the SVG's viewBox), its left margin for the axis, the seeds shown.
  const W = 600, H = 170, LEFT = 44, MID = 85, RANGE = 20, SCALE = 3.3;

  // What a marked move lost, both ways the mark is decided: the mover's chance of winning (as
  // lichess marks moves, so a large loss of seeds in a game already decided is no blunder)
  // and the seeds.
  const lost = (j) => `${(j.drop || 0).toFixed(1)} points of winning chance lost (${j.loss.toFixed(2)} seeds)`;

  // `p`: { page, board, el, step, viewing, render } from serve.js.
  function attach(p) {
    const $ = (id) => document.getElementById(id);
    const review = () => (p.page.state && p.page.state.review) || null;
    const judgedAt = (ply) => {
      const r = review();
      return r ? r.moves.find((j) => j.ply === ply) : undefined;
    };

    function draw() {
      const s = p.page.state, r = review();
      const graph = $("graph"), list = $("judged");
      graph.textContent = "";
      list.textContent = "";
      accuracy(r);
      if (!r) { $("review-at").textContent = ""; document.body.removeAttribute("data-review"); return; }
      const n = Math.max(1, s.moves.length);
      const y = (v) => MID - Math.max(-RANGE - 2, Math.min(RANGE + 2, v)) * SCALE;
      const x = (i) => LEFT + (i * (W - LEFT - 10)) / n;
      // The axis, in seeds from South's view: above the middle South is ahead.
      for (const v of [RANGE, RANGE / 2, 0, -RANGE / 2, -RANGE]) {
        AwariBoard.svg("line", { x1: LEFT, x2: W - 10, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }, graph);
        AwariBoard.svg("text", { x: LEFT - 4, y: y(v) + 3, "text-anchor": "end", class: "tick" }, graph,
          v > 0 ? `+${v}` : String(v));
      }
      AwariBoard.svg("text", { x: 2, y: 10, class: "unit" }, graph, "seeds");
      AwariBoard.svg("text", { x: W - 12, y: 10, "text-anchor": "end" }, graph, "South ahead");
      AwariBoard.svg("text", { x: W - 12, y: H - 3, "text-anchor": "end" }, graph, "North ahead");
      const points = r.evals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      AwariBoard.svg("polyline", { points, class: "line", "data-points": r.evals.length }, graph);
      // The cursor at the ply viewed; none for a variation's position, which the graph has not.
      const at = p.viewing();
      if (at !== null) AwariBoard.svg("line", { x1: x(at), x2: x(at), y1: 14, y2: H - 14, class: "cursor", "data-cursor": at }, graph);
      for (const j of r.moves) {
        if (!j.mark || r.evals[j.ply] === undefined) continue;
        const c = AwariBoard.svg("circle", { cx: x(j.ply), cy: y(r.evals[j.ply]), r: 5, class: j.mark, "data-ply": j.ply }, graph);
        AwariBoard.svg("title", {}, c, `${j.ply}. ${j.mv}${SYMBOL[j.mark]} ${j.mark}`);
        c.addEventListener("click", (e) => { e.stopPropagation(); p.step(j.ply - 1); });
        const side = j.side === "S" ? "South" : "North";
        const li = p.el("li", { class: j.mark, value: j.ply, "data-mark": j.mark }, list,
          `${j.mv} (${side}) ${SYMBOL[j.mark]} ${j.mark}: ${lost(j)}; better: ${j.best || "?"}`);
        li.addEventListener("click", () => p.step(j.ply - 1));
      }
      // A click anywhere on the graph steps to the nearest ply scored.
      graph.onclick = (e) => {
        const point = graph.createSVGPoint();
        point.x = e.clientX; point.y = e.clientY;
        const at = point.matrixTransform(graph.getScreenCTM().inverse());
        const ply = Math.round(((at.x - LEFT) * n) / (W - LEFT - 10));
        p.step(Math.max(0, Math.min(ply, r.evals.length - 1)));
      };
      const marked = r.moves.filter((j) => j.mark).length;
      $("review-at").textContent = r.done ? `done: ${marked} moves marked` : `${r.evals.length} of ${s.moves.length + 1} positions`;
      document.body.setAttribute("data-review", r.done ? "done" : "running");
    }

    function accuracy(r) {
      const box = $("accuracy");
      box.textContent = "";
      if (!r) return;
      const [south, north] = r.accuracy || [null, null];
      const shown = (v) => (v === null || v === undefined ? "-" : `${v.toFixed(1)}%`);
      box.textContent = `Accuracy: South ${shown(south)}, North ${shown(north)}`;
      box.setAttribute("data-south", south === null || south === undefined ? "" : String(south));
      box.setAttribute("data-north", north === null || north === undefined ? "" : String(north));
    }

    // A review event: one more position scored (and the move into it judged).
    function onReview(data) {
      const s = p.page.state;
      if (!s || !s.review || data.generation !== s.generation) return;
      if (s.review.evals.length === data.ply) {
        s.review.evals.push(data.eval);
        if (data.judged) s.review.moves.push(data.judged);
        if (data.accuracy) s.review.accuracy = data.accuracy;
        s.review.done = data.done;
      }
      draw();
      marks();
      // The position viewed is the one before the move just judged: its arrow.
      if (p.page.view && data.judged && data.judged.ply === p.page.view.ply + 1) p.render();
    }

    // The marks after the moves of the move list (serve.js draws it; its spans carry data-ply).
    function marks() {
      for (const span of document.querySelectorAll("#moves span.m")) {
        const j = judgedAt(+span.getAttribute("data-ply"));
        const old = span.querySelector(".mark");
        if (old) old.remove();
        span.removeAttribute("data-mark");
        if (j && j.opening) span.classList.add("opening");
        if (!j || !j.mark) continue;
        span.setAttribute("data-mark", j.mark);
        p.el("span", { class: `mark ${j.mark}`, title: `${j.mark}: better ${j.best || "?"}` }, span, SYMBOL[j.mark]);
      }
    }

    // The board shows position `ply`: before a marked move, the better move's arrow (from its
    // house to where its last seed falls) and the move played, ringed; the graph's cursor.
    function shown(ply) {
      marks();
      const cursor = document.querySelector("#graph [data-cursor]");
      if (cursor) draw();
      const j = judgedAt(ply + 1);
      if (!j || !j.mark || !j.best) return;
      const flip = !!p.page.flip;
      const from = HOUSES.indexOf(j.best);
      if (from < 0) return;
      const played = p.board.querySelector(`[data-house-cell="${HOUSES.indexOf(j.mv)}"]`);
      if (played) played.classList.add("played-" + j.mark);
      const a = AwariBoard.houseAt(from, flip);
      const to = j.best_to;
      const b = to === null || to === undefined || to === from ? null
        : to < 12 ? AwariBoard.houseAt(to, flip) : { x: AwariBoard.storeX(to - 12, flip) + 38, y: 130 };
      const defs = AwariBoard.svg("defs", {}, p.board);
      const marker = AwariBoard.svg("marker", { id: "best-head", viewBox: "0 0 10 10", refX: 5, refY: 5,
        markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
      AwariBoard.svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "best-head" }, marker);
      const attrs = { class: "best-arrow", "data-best-arrow": j.best, "data-to": to === null || to === undefined ? "" : to };
      if (b) {
        // From inside the house to the target's rim: long enough to see between neighbours.
        const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
        const cut = (r) => ({ x: (dx / len) * r, y: (dy / len) * r });
        const s0 = cut(14), s1 = cut(30);
        const x0 = a.x + s0.x, y0 = a.y + s0.y, x1 = b.x - s1.x, y1 = b.y - s1.y;
        // A sowing that comes round to its own row again is drawn bowed over the other row
        // (a quadratic curve whose middle is at the other row's height), as the seeds go.
        const ring = (i) => (i - from + 12) % 12;
        const toward = 260 - a.y > a.y ? 1 : -1;
        const round = to < 12 && (to < 6) === (from < 6) && ring(to) > 6;
        const d = round
          ? `M ${a.x} ${a.y + toward * 14} Q ${(a.x + b.x) / 2} ${2 * (260 - a.y) - a.y} ${b.x} ${b.y + toward * 30}`
          : `M ${x0} ${y0} L ${x1} ${y1}`;
        AwariBoard.svg("path", Object.assign(attrs, { d, fill: "none", "marker-end": "url(#best-head)" }), p.board);
      } else {
        AwariBoard.svg("circle", Object.assign(attrs, { cx: a.x, cy: a.y, r: 40, fill: "none" }), p.board);
      }
      const banner = $("banner");
      banner.textContent += ` Next: ${j.mv}${SYMBOL[j.mark]} (${j.mark}: ${lost(j)}); better: ${j.best}, the green arrow.`;
    }

    return { draw, onReview, marks, shown };
  }

  return { attach };
})();
