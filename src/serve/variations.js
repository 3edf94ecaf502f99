// Variations on the page: a move played from a position viewed that the tree does not hold
// yet becomes a variation (the game's own moves stay its main line); one can be made the main
// line or deleted. The tree is changed on a copy (tree.js) and sent whole: the server checks
// every move and keeps it (`POST /api/tree`), and its next state carries it back.
"use strict";
window.AwariVariations = (function () {
  // `p`: { page, el, api, say, go, viewedAt, viewedNode } from serve.js.
  function attach(p) {
    const { page, el, api, say, go, viewedAt, viewedNode } = p;
    const $ = (id) => document.getElementById(id);

    // A house clicked in a position viewed: the move's node, already in the tree or new.
    function fromView(letter) {
      const s = page.state, v = page.view, n = viewedNode();
      if (n && n.children.some((c) => c.mv === letter)) return go(v.at + letter);
      if (s.human[0] && s.human[1]) return branch(v.at, letter, false);
      ask(v, letter);
    }
    // The tree sent with a change made to a copy of it (`change` gets the copy).
    async function sendTree(change, analysis) {
      const tree = AwariTree.parse(page.treeText);
      if (!tree) return false;
      change(tree);
      const text = AwariTree.write(tree);
      try {
        await api("/api/tree", Object.assign({ id: page.id, tree: text }, analysis ? { analysis: true } : {}));
      } catch (e) { say(`Not changed: ${e.message}`); return false; }
      page.tree = tree;
      page.treeText = text;
      return true;
    }
    async function branch(at, letter, analysis) {
      if (await sendTree((t) => AwariTree.add(AwariTree.find(t, at), letter), analysis)) go(at + letter);
    }
    // Against an engine, a move from a position viewed: a variation (the game becomes an
    // analysis between persons), or the game taken back to there and played on (what
    // followed kept as a variation), when a person moves there.
    function ask(v, letter) {
      const s = page.state, side = v.pos.board.side === "S" ? 0 : 1;
      say(`${letter} from here: `);
      const button = (id, text, act) => el("button", { id, type: "button" }, $("notice"), text)
        .addEventListener("click", () => { say(""); act(); });
      button("branch-analysis", "Analyse it as a variation (the engines leave the game)", () => branch(v.at, letter, true));
      if (v.ply !== null && s.human[side]) {
        button("branch-takeback", `Take back to here and play ${letter}`, () =>
          api("/api/move", { id: page.id, move: letter, at: v.at }).then(() => go(v.at + letter), (e) => say(e.message)));
      }
    }
    // The line viewed made the game's; the position viewed and what follows it deleted.
    async function promote() {
      const at = viewedAt();
      if (await sendTree((t) => AwariTree.promote(AwariTree.find(t, at)))) go(at);
    }
    async function deleteFromHere() {
      const at = viewedAt();
      if (await sendTree((t) => AwariTree.remove(AwariTree.find(t, at)))) go(at.slice(0, -1));
    }

    return { fromView, promote, deleteFromHere };
  }

  return { attach };
})();
