// The endgame tables on the board: within the tables' reach, the server sends each legal
// move's value for its mover (`table_values` in the state); this writes each on its house,
// under the seed count, and marks the best in green. The "tables on the board" box hides
// them by a class on the board, so that no redraw is needed and a redraw keeps the choice.
// It decides nothing: the values and the best moves are the server's.
"use strict";
window.AwariTables = (function () {
  const on = () => document.getElementById("tables-on");

  // Writes the values of state `s` on the board `root` just drawn from it (`flip`: turned
  // half a turn). Called by the page after each drawing of the game's position, never of a
  // past one, a sowing under way or a line's end.
  function draw(root, s, flip) {
    const t = s.table_values;
    document.getElementById("tables-choice").hidden = !t;
    root.classList.toggle("tables-hidden", !on().checked);
    if (!t) return;
    for (const m of t.moves) {
      const i = "ABCDEFabcdef".indexOf(m.mv);
      if (i < 0) continue;
      const p = AwariBoard.houseAt(i, flip);
      const g = AwariBoard.svg("g", {
        class: "table-value" + (m.best ? " best" : ""),
        "data-table-value": m.mv, "data-best": m.best ? "1" : "0",
      }, root);
      const w = 10 + 8 * m.value.length;
      AwariBoard.svg("rect", { x: p.x - w / 2, y: p.y + 14, width: w, height: 17, rx: 8.5 }, g);
      AwariBoard.svg("text", { x: p.x, y: p.y + 22.5 }, g, m.value);
      // The label lets clicks through to its house (see serve.css); the house says it in full.
      const house = root.querySelector(`[data-house-cell="${i}"]`);
      if (house && !house.querySelector("title")) {
        const who = t.side === "S" ? "South" : "North";
        AwariBoard.svg("title", {}, house, `${m.mv}: ${who} ends with ${m.value} of the ${t.seeds} ` +
          `seeds on the board${m.best ? " (a best move)" : ""}, as the endgame tables say`);
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    on().addEventListener("change", () => {
      document.getElementById("board").classList.toggle("tables-hidden", !on().checked);
    });
  });

  return { draw };
})();
