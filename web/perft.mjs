// `node web/perft.mjs DIR VARIANT DEPTH [--fen NOTATION] [--moves MOVES]`: the perft count (the
// leaves of the moves' tree DEPTH plies deep) from VARIANT's start, or from NOTATION, after
// MOVES, counted by the engine in the site DIR (built by `sh web/build.sh DIR`). Prints the
// count alone: `awari perft` prints it as its `total`.
import { answered, siteEngine } from "./site.mjs";

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
const engine = await siteEngine(dir);
console.log(String(answered(engine, request).nodes));
