// What node's tools (perft.mjs, bench.mjs) share: the engine of a built site, and a request's
// answer or its error, said the way the crate's commands say them.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { load } from "./engine.js";

/** The engine of the site `dir` (its `awari.wasm`); exits with status 1 if it cannot load. */
export async function siteEngine(dir) {
  const path = join(dir, "awari.wasm");
  try {
    return await load(await readFile(path));
  } catch (e) {
    console.error(`error: ${path}: ${e.message}`);
    process.exit(1);
  }
}

/** `engine`'s answer to `request`; a refused request is an `error:` line and exit status 2. */
export function answered(engine, request, report) {
  const answer = engine.request(request, report);
  if (answer.error) {
    console.error(`error: ${answer.error}`);
    process.exit(2);
  }
  return answer;
}
