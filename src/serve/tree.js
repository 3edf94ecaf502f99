// The game's tree on the page: the game's moves (the main line) with the variations tried
// beside them, as the server sends it (`tree` in the state: PGN movetext with nothing between
// the words, `EaB(Cb$2{a try})bC`). This reads it into nodes, writes it back after a change
// (a move added, a variation promoted or deleted), and draws it as the moves list, the
// variations inline in parentheses. It knows no rules: the server checks every move of a
// tree it is sent, and sends each position's legal moves.
"use strict";
window.AwariTree = (function () {
  // A node: the move that leads to it (`mv`, null at the root), what follows it (`children`:
  // the first is the line's own continuation, the others its alternatives), its annotations
  // (`nags`), a comment after it and one before it (`comment`, `pre`), and its `parent`.
  const node = (mv, parent) => ({ mv, parent, children: [], nags: [], comment: null, pre: null });

  // The tree of `text`, or null when it is not one.
  function parse(text) {
    const root = node(null, null);
    let i = 0;
    // A line from `from`: its moves follow one another; a `(` opens an alternative to the
    // line's last move, read from that move's parent.
    function line(from) {
      let at = from, last = null, pre = null;
      while (i < text.length) {
        const c = text[i];
        if (c === ")") return true;
        if (c === "(") {
          if (!last) return false;
          i++;
          if (!line(last.parent) || text[i] !== ")") return false;
          i++;
        } else if (c === "{") {
          const end = text.indexOf("}", i);
          if (end < 0) return false;
          const said = text.slice(i + 1, end);
          if (last) last.comment = last.comment ? `${last.comment} ${said}` : said; else pre = said;
          i = end + 1;
        } else if (c === "$") {
          const m = /^\$(\d+)/.exec(text.slice(i));
          if (!m || !last) return false;
          last.nags.push(+m[1]);
          i += m[0].length;
        } else if (/[A-Fa-f]/.test(c)) {
          const n = node(c, at);
          if (pre !== null) { n.pre = pre; pre = null; }
          at.children.push(n);
          at = last = n;
          i++;
        } else if (/\s/.test(c)) i++;
        else return false;
      }
      return true;
    }
    return line(root) && i === text.length ? root : null;
  }

  function step(n) {
    return (n.pre !== null ? `{${n.pre}}` : "") + n.mv + n.nags.map((x) => `$${x}`).join("") +
      (n.comment !== null ? `{${n.comment}}` : "");
  }
  // The text of the line that goes on from `from`, with every variation on the way.
  function write(from) {
    let text = "";
    for (let p = from; p.children.length; p = p.children[0]) {
      const [main, ...others] = p.children;
      text += step(main);
      for (const o of others) text += `(${step(o)}${write(o)})`;
    }
    return text;
  }

  // The moves from the start to `n`.
  function path(n) {
    let text = "";
    for (let p = n; p && p.mv; p = p.parent) text = p.mv + text;
    return text;
  }
  // The node the moves `at` lead to (the first of equal moves), or null.
  function find(root, at) {
    let n = root;
    for (const mv of at) {
      n = n.children.find((c) => c.mv === mv);
      if (!n) return null;
    }
    return n;
  }
  // Whether `n` is on the main line (every move on the way a first child).
  function onMain(n) {
    for (let p = n; p.parent; p = p.parent) if (p.parent.children[0] !== p) return false;
    return true;
  }
  // Where the line through `n` ends, its own continuation followed.
  function lineEnd(n) {
    let p = n;
    while (p.children.length) p = p.children[0];
    return p;
  }
  // The child of `n` that plays `mv`, added as the last alternative when there is none.
  function add(n, mv) {
    return n.children.find((c) => c.mv === mv) || (n.children.push(node(mv, n)), n.children[n.children.length - 1]);
  }
  // The line through `n` made the main line: each move on the way put first of its siblings.
  function promote(n) {
    for (let p = n; p.parent; p = p.parent) {
      const siblings = p.parent.children;
      siblings.splice(siblings.indexOf(p), 1);
      siblings.unshift(p);
    }
  }
  // `n` and all that follows it taken out of the tree.
  function remove(n) {
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
  }

  // The symbols of the first NAGs, as PGN readers show them.
  const SYMBOLS = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!" };

  // The moves list: the main line's moves numbered by ply (`data-ply`, which the review's marks
  // read), each variation inline in parentheses after the move it is an alternative to, each
  // move a span (`data-at`: the moves to it) that `go` views; `now`: the node viewed.
  function draw(box, root, now, go, el) {
    box.textContent = "";
    const move = (parent, n, ply, number, main) => {
      if (number) el("span", { class: "n" }, parent, String(ply));
      const side = n.mv === n.mv.toUpperCase() ? "S" : "N";
      const attrs = { class: `m ${side}${n === now ? " now" : ""}`, "data-at": path(n) };
      if (main) attrs["data-ply"] = ply;
      if (n.pre !== null) el("span", { class: "comment" }, parent, n.pre);
      const span = el("span", attrs, parent, n.mv + n.nags.map((x) => SYMBOLS[x] || ` $${x}`).join(""));
      span.addEventListener("click", () => go(path(n)));
      if (n.comment !== null) el("span", { class: "comment" }, parent, n.comment);
    };
    const line = (parent, from, ply, main) => {
      let first = !main;
      for (let p = from; p.children.length; p = p.children[0]) {
        const [next, ...others] = p.children;
        ply++;
        move(parent, next, ply, main || first, main);
        first = false;
        for (const o of others) {
          const v = el("span", { class: "variation", "data-variation": path(o) }, parent);
          move(v, o, ply, true, false);
          line(v, o, ply, false);
          // After a variation the line's next move says its number again.
          first = true;
        }
      }
    };
    line(box, root, 0, true);
  }

  return { parse, write, path, find, onMain, lineEnd, add, promote, remove, draw };
})();
