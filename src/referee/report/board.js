// The board drawing that the referee's report page and `awari serve`'s page share: one SVG
// of the twelve houses and two stores, the counts as text (never markup), the side to move.
// It knows no rules: it draws the board it is given.
"use strict";
window.AwariBoard = (function () {
  const SVG = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, parent, text) {
    const node = document.createElementNS(SVG, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // Where house i is drawn: South's A-F left to right below, North's a-f right to left above,
  // so that sowing runs counter-clockwise; North's store on the left, South's on the right.
  // Flipped, the board is turned half a turn: North below.
  function houseAt(i, flip) {
    const p = i < 6 ? { x: 150 + 100 * i, y: 172 } : { x: 150 + 100 * (11 - i), y: 88 };
    return flip ? { x: 800 - p.x, y: 260 - p.y } : p;
  }
  // Store side (0 South, 1 North): its left edge.
  function storeX(side, flip) {
    return (side === 1) !== !!flip ? 12 : 712;
  }

  // Draws board `b` ({houses, stores, side, bonus, last, end}) into the SVG `root`. `over`:
  // the game's result, when nobody moves any more. `opts.flip` turns the board.
  function draw(root, variant, b, names, over, opts) {
    const flip = !!(opts && opts.flip);
    root.textContent = "";
    const onPath = variant === "ahl" || variant === "kalah" || variant === "kalah-empty";
    svg("rect", { x: 4, y: 30, width: 792, height: 200, rx: 30, class: "wood" }, root);
    [1, 0].forEach((side) => {
      const x = storeX(side, flip);
      svg("rect", { x, y: 46, width: 76, height: 168, rx: 34, class: "store" + (onPath ? "" : " aside"), "data-store-cell": side }, root);
      svg("text", { x: x + 38, y: 130, class: "count", "data-store": side }, root, String(b.stores[side]));
      svg("text", { x: x + 38, y: 246, class: "label" }, root, (side ? "North" : "South") + (onPath ? " store" : " captured"));
    });
    const southBelow = !flip;
    for (let i = 0; i < 12; i++) {
      const p = houseAt(i, flip);
      let cls = "house";
      if (b.last === i) cls += " last";
      if (b.end === i) cls += " end";
      svg("circle", { cx: p.x, cy: p.y, r: 36, class: cls, "data-house-cell": i }, root);
      svg("text", { x: p.x, y: p.y, class: "count", "data-house": i }, root, String(b.houses[i]));
      const letter = i < 6 ? "ABCDEF"[i] : "abcdef"[i - 6];
      const below = (i < 6) === southBelow;
      svg("text", { x: p.x, y: below ? 224 : 46, class: "label" + ((i < 6) === (b.side === "S") ? " tomove" : "") }, root, letter);
    }
    const who = b.side === "S" ? "South" : "North";
    const name = names[b.side === "S" ? 0 : 1];
    const moverBelow = (b.side === "S") === southBelow;
    svg("text", { x: 400, y: moverBelow ? 252 : 20, "text-anchor": "middle", class: "turn", "data-side": b.side },
      root, over ? `game over: ${over}` : `${who} (${name}) to move${b.bonus ? ", bonus move" : ""}`);
    const marks = [];
    if (b.last !== null && b.last !== undefined) marks.push("blue ring: the house the last move sowed from");
    if (b.end !== null && b.end !== undefined) marks.push("red dashes: where its relay ended");
    svg("text", { x: 400, y: moverBelow ? 20 : 252, "text-anchor": "middle", class: "label", "data-marks": "" }, root, marks.join("; "));
  }

  return { draw, houseAt, storeX, svg };
})();
