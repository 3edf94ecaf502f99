// Records of many games, as a file or the load box holds them: split into games, a line at a
// time as they come (a file of any size is read as a stream), and a line for each in the
// list to choose from. It reads no moves: the server reads the game chosen.
"use strict";
window.AwariRecords = (function () {
  // Splits record text into games, a line at a time as it comes: PGN games (a tag line after
  // a game's moves begins the next) or JSON lines (a game each).
  function gameSplitter() {
    const games = [];
    let lines = [], moved = false, rest = "";
    const close = () => {
      if (lines.some((l) => l.trim())) games.push(lines.join("\n").trim() + "\n");
      lines = []; moved = false;
    };
    const line = (l) => {
      const t = l.trim();
      if (t.startsWith('{"') && !lines.some((x) => x.trim())) { games.push(t); return; }
      if (t.startsWith("[") && moved) close();
      if (t && !t.startsWith("[")) moved = true;
      lines.push(l);
    };
    return {
      feed(text) {
        const parts = (rest + text).split(/\r?\n/);
        rest = parts.pop();
        parts.forEach(line);
      },
      end() { line(rest); rest = ""; close(); return games; },
    };
  }
  function splitGames(text) {
    const s = gameSplitter();
    s.feed(text);
    return s.end();
  }
  // A file of any size, read as a stream: its games.
  async function readGames(file) {
    const s = gameSplitter();
    const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      s.feed(value.replace(/^\ufeff/, ""));
    }
    return s.end();
  }
  // One line for the list of games: the players, the result, the length and the opening.
  function gameSummary(text, i) {
    let south = "?", north = "?", result = "*", plies = "?", opening = "";
    if (text.startsWith("{")) {
      try {
        const r = JSON.parse(text);
        [south, north, result, plies, opening] = [r.south, r.north, r.result, r.plies, r.opening];
      } catch (e) { return `${i + 1}. (not a record: ${e.message})`; }
    } else {
      const tag = (k) => { const m = text.match(new RegExp(`^\\[${k}\\s+"((?:[^"\\\\]|\\\\.)*)"\\]`, "m")); return m ? m[1].replace(/\\(.)/g, "$1") : null; };
      south = tag("South") || "?"; north = tag("North") || "?"; result = tag("Result") || "*"; plies = tag("PlyCount") || "?";
      const o = text.match(/^\s*([A-Fa-f]+)\s*\{opening\}/m);
      opening = o ? o[1] : "";
    }
    return `${i + 1}. ${south} - ${north}, ${result}, ${plies} plies${opening ? `, opening ${opening}` : ""}`;
  }

  return { split: splitGames, read: readGames, summary: gameSummary };
})();
