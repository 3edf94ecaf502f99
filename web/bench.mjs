// `node web/bench.mjs DIR [DEPTH]`: `awari bench`'s positions searched by the engine in the
// site DIR (built by `sh web/build.sh DIR`), one thread, the same table size: a line per
// position as `awari bench` writes it, then the total, and last `nps N`, nodes per second.
import { answered, siteEngine } from "./site.mjs";

const [dir, depth] = process.argv.slice(2);
if (!dir || (depth !== undefined && !/^\d+$/.test(depth))) {
  console.error("usage: node web/bench.mjs DIR [DEPTH]");
  process.exit(2);
}
const engine = await siteEngine(dir);
const request = { op: "bench" };
if (depth !== undefined) request.depth = Number(depth);
const answer = answered(engine, request, (report) => {
  if (report.bench) console.log(report.bench);
});
console.log(`nps ${answer.nps}`);
