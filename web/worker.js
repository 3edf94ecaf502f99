// The engine in a Web Worker, so that a page never waits on a search: `new Worker("worker.js",
// {type: "module"})` beside `awari.wasm`, `engine.js` and `tables/`. Each message is
// `{id, request}` (a request of engine.js) or `{id, tables: VARIANT}` (fetch that rule set's
// table files, listed in `tables/index.json`, and put them to use); the worker posts
// `{id, report}` for each report of a search and then `{id, answer}`, one message at a time in
// order. A module cannot be told anything while it searches: a page stops a search at once by
// ending the worker (`terminate()`) and starting another.
import { load } from "./engine.js";

const here = (name) => new URL(name, import.meta.url);
const engine = fetch(here("awari.wasm"))
  .then((response) => {
    if (!response.ok) throw new Error(`awari.wasm: HTTP ${response.status}`);
    return response.arrayBuffer();
  })
  .then(load);

/** The table files of `variant` the site lists, fetched and put to use. */
async function useTables(engine, variant) {
  const index = await (await fetch(here("tables/index.json"))).json();
  if (!index.variants.includes(variant)) return { error: `no tables for ${variant} here` };
  const layers = [];
  for (let n = 0; n <= index.seeds; n++) {
    const name = `tables/${variant}-${String(n).padStart(2, "0")}.awtb`;
    const response = await fetch(here(name));
    if (!response.ok) return { error: `${name}: HTTP ${response.status}` };
    layers.push(new Uint8Array(await response.arrayBuffer()));
  }
  return engine.useTables(variant, layers);
}

// One message after another: a request waits for the one before it.
let queue = Promise.resolve();
onmessage = (event) => {
  const { id, request, tables } = event.data;
  queue = queue.then(async () => {
    let answer;
    try {
      const e = await engine;
      answer = tables !== undefined
        ? await useTables(e, tables)
        : e.request(request, (report) => postMessage({ id, report }));
    } catch (error) {
      answer = { error: String(error.message ?? error) };
    }
    postMessage({ id, answer });
  });
};
