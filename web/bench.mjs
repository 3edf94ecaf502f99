// `node web/bench.mjs DIR [DEPTH]`: `awari bench`'s positions searched by the engine in the
// site DIR (built by `sh web/build.sh DIR`), one thread, the same table size: a line per
// position as `awari bench` writes it, then the total, and last `nps N`, nodes per second.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { load } from "./engine.js";

const [dir, depth] = process.argv.slice(2);
if (!dir || (depth !== undefined && !/^\d+$/.test(depth))) {
  console.error("usage: node web/bench.mjs DIR [DEPTH]");
  process.exit(2);
}
let engine;
try {
  engine = await load(await readFile(join(dir, "awari.wasm")));
} catch (e) {
  console.error(`error: ${join(dir, "awari.wasm")}: ${e.message}`);
  process.exit(1);
}
const request = { op: "bench" };
if (depth !== undefined) request.depth = Number(depth);
const answer = engine.request(request, (report) => {
  if (report.bench) console.log(report.bench);
});
if (answer.error) {
  console.error(`error: ${answer.error}`);
  process.exit(2);
}
console.log(`nps ${answer.nps}`);
