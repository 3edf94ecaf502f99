// The engine's lines as the page writes them: a score in words (South's view), a share of
// the evaluation bar, and a line's moves, a move after which the same side moves again
// (ahl's bonus, kalah's extra move) marked "+". Text only: what is searched is the server's.
"use strict";
window.AwariLines = (function () {
  const side = (m) => (m === m.toUpperCase() ? "S" : "N");
  const again = (pv, i) => i + 1 < pv.length && side(pv[i + 1]) === side(pv[i]);

  function score(s) {
    if (!s) return "";
    if (s.mate !== undefined) return s.mate > 0 ? `South wins in ${s.mate}` : `North wins in ${-s.mate}`;
    if (s.tables !== undefined) {
      const t = s.tables;
      return t > 0 ? `South wins by ${t} (tables)` : t < 0 ? `North wins by ${-t} (tables)` : "a draw (tables)";
    }
    const v = s.cp / 100;
    return (v > 0 ? "+" : "") + v.toFixed(2);
  }

  // South's part of the evaluation bar: a proven result fills it or empties it (half for a
  // draw); an estimate is a logistic of its centi-seeds.
  function share(s) {
    return s.mate !== undefined ? (s.mate > 0 ? 1 : 0)
      : s.tables !== undefined ? (s.tables > 0 ? 1 : s.tables < 0 ? 0 : 0.5)
      : 1 / (1 + Math.exp(-s.cp / 400));
  }

  // The line's moves into `td`, one span each (`el` from serve.js), the "+" added by the
  // style sheet, so that the text stays the moves.
  function into(td, pv, el) {
    [...pv].forEach((m, i) => el("span", again(pv, i) ? { class: "again" } : {}, td, m));
  }
  // The line as text, with its "+" marks.
  const text = (pv) => [...pv].map((m, i) => (again(pv, i) ? `${m}+` : m)).join("");

  return { score, share, into, text };
})();
