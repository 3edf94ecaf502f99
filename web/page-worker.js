// The page's server, in a Web Worker: the engine's module answers the page's API (the same
// requests and answers as `awari serve`'s) and runs the sessions' engines between them, so
// that the page never waits on a search. `transport.js` (the static site's) starts it.
//
// Messages in: `{id, method, url, body}` (an API request; `body` a string) and `{id, listen}`
// (send that session's events from its latest state on). Out: `{id, status, type, body, file}`
// (the answer to request `id`) and `{events: SESSION, text}` (server-sent event text).
//
// The module searches in bounded jobs (a move, a hint, a position of a review, a slice of the
// analysis): after each, the worker reads the page's messages before the next.
import { loadFrom, fetchTables } from "./engine.js";

const engine = loadFrom(import.meta.url);

// The tables of each rule set, fetched and put to use once (nothing where the site has none).
const tables = new Map();
function useTables(e, variant) {
  if (!tables.has(variant)) {
    tables.set(variant, fetchTables(e, import.meta.url, variant)
      .catch((error) => ({ error: String(error.message ?? error) })));
  }
  return tables.get(variant);
}

function deliver(answer) {
  for (const e of answer.events || []) postMessage({ events: e.id, text: e.text });
}

// The next step: at once after the page's messages (a channel's message, not a clamped
// timer), after a wait (the pace), or when the page next asks something.
const channel = new MessageChannel();
let timer = null;
let pending = false;
function schedule(next) {
  clearTimeout(timer);
  timer = null;
  if (next === "busy") {
    if (!pending) { pending = true; channel.port2.postMessage(0); }
  } else if (next && typeof next.wait === "number") timer = setTimeout(step, next.wait);
}
async function step() {
  try {
    const answer = (await engine).request({ op: "step" });
    deliver(answer);
    schedule(answer.next);
  } catch (error) {
    // The module failed in a job: nothing more runs until the page asks again.
    console.error("awari: the engine failed:", error);
  }
}
channel.port1.onmessage = () => { pending = false; step(); };

// One message after another, in order.
let queue = Promise.resolve();
onmessage = (event) => {
  const m = event.data;
  queue = queue.then(() => serve(m)).catch((error) => {
    // The module could not be loaded, or failed on this request: the page is told, and the
    // next message is still read.
    postMessage({ id: m.id, status: 500, type: "application/json", body: JSON.stringify({ error: `the engine: ${error.message ?? error}` }) });
  });
};

async function serve(m) {
  const e = await engine;
  if (m.listen !== undefined) {
    const answer = e.request({ op: "listen", id: m.listen });
    postMessage({ id: m.id, status: answer.error ? 404 : 200, type: "application/json", body: JSON.stringify(answer.error ? { error: answer.error } : {}) });
    deliver(answer);
    return;
  }
  // A new game of a rule set with tables: its tables first, so that its first positions
  // show their values and its engines play by them.
  if (m.method === "POST" && (m.url === "/api/session" || m.url === "/api/new")) {
    try {
      const variant = JSON.parse(m.body).variant;
      if (typeof variant === "string") await useTables(e, variant);
    } catch (error) { /* the API says what is wrong with the body */ }
  }
  const answer = e.request({ op: "page", method: m.method, url: m.url, body: m.body ?? "" });
  if (answer.error) {
    postMessage({ id: m.id, status: 500, type: "application/json", body: JSON.stringify({ error: answer.error }) });
    return;
  }
  postMessage({ id: m.id, status: answer.status, type: answer.type, body: answer.body, file: answer.file });
  deliver(answer);
  // Whatever was asked may give the engines work.
  schedule("busy");
}
