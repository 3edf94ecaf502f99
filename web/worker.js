// The engine in a Web Worker, so that a page never waits on a search: `new Worker("worker.js",
// {type: "module"})` beside `awari.wasm`, `engine.js` and `tables/`. Each message is
// `{id, request}` (a request of engine.js) or `{id, tables: VARIANT}` (fetch that rule set's
// table files, listed in `tables/index.json`, and put them to use); the worker posts
// `{id, report}` for each report of a search and then `{id, answer}`, one message at a time in
// order. A module cannot be told anything while it searches: a page stops a search at once by
// ending the worker (`terminate()`) and starting another.
import { loadFrom, fetchTables } from "./engine.js";

const engine = loadFrom(import.meta.url);

/** The table files of `variant` the site lists, fetched and put to use. */
async function useTables(engine, variant) {
  return (await fetchTables(engine, import.meta.url, variant)) ?? { error: `no tables for ${variant} here` };
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
