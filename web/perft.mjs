// `node web/perft.mjs DIR VARIANT DEPTH [--fen NOTATION] [--moves MOVES]`: the perft count (the
// leaves of the moves' tree DEPTH plies deep) from VARIANT's start, or from NOTATION, after
// MOVES, counted by the engine in the site DIR (built by `sh web/build.sh DIR`). Prints the
// count alone: `awari perft` prints it as its `total`.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { load } from "./engine.js";

const usage = "usage: node web/perft.mjs DIR VARIANT DEPTH [--fen NOTATION] [--moves MOVES]";
const [dir, variant, depth, ...rest] = process.argv.slice(2);
const request = { op: "perft", variant, depth: Number(depth) };
let wrong = !dir || !variant || !/^\d+$/.test(depth ?? "");
for (let i = 0; i < rest.length && !wrong; i += 2) {
  const value = rest[i + 1];
  if (value === undefined) wrong = true;
  else if (rest[i] === "--fen") request.start = value;
  else if (rest[i] === "--moves") request.moves = value;
  else wrong = true;
}
if (wrong) {
  console.error(usage);
  process.exit(2);
}
let engine;
try {
  engine = await load(await readFile(join(dir, "awari.wasm")));
} catch (e) {
  console.error(`error: ${join(dir, "awari.wasm")}: ${e.message}`);
  process.exit(1);
}
const answer = engine.request(request);
if (answer.error) {
  console.error(`error: ${answer.error}`);
  process.exit(2);
}
console.log(String(answer.nodes));
