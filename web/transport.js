// How the page reaches its engine on a site with no server: the same calls, by the same
// paths, as `awari serve`'s transport.js, answered by a Web Worker (page-worker.js) in which
// the engine's WebAssembly module holds the sessions and plays, analyses and reviews. The
// page is the server's own; only this file differs.
//
// - `post(path, body)`, `get(path)`: the answer's JSON; throws Error(its `error`, or
//   "HTTP <status>") when refused, the error's `status` then the answer's status.
// - `events(id, handlers)`: the session's events, each handed to `handlers[name]` parsed;
//   `open()` once listening, `error(true)` when the session is gone. Returns `{ close() }`.
// - `link(anchor, path)`: a click on the anchor saves what GET `path` answers, as a file.
// - `leave(id)`: nothing to do: the worker ends with the page.
// - `persistent`: false: a session ends with its page, so a reload replays the game.
"use strict";
window.AwariTransport = (function () {
  const worker = new Worker("page-worker.js", { type: "module" });
  const waiting = new Map();
  const listeners = new Map();
  let next = 1;

  // The worker's messages: an answer to a request, or a session's events as server-sent
  // event text (`event: K\nid: N\ndata: JSON\n\n` each).
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.events !== undefined) {
      const handlers = listeners.get(m.events);
      if (!handlers) return;
      for (const block of m.text.split("\n\n")) {
        let name = null, data = null;
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) name = line.slice(7);
          else if (line.startsWith("data: ")) data = line.slice(6);
        }
        if (name && data !== null && handlers[name]) handlers[name](JSON.parse(data));
      }
      return;
    }
    const done = waiting.get(m.id);
    if (done) { waiting.delete(m.id); done(m); }
  };
  // The worker failed (its module could not load, or it stopped): every call waiting fails.
  worker.onerror = (e) => {
    const why = { status: 500, type: "application/json", body: JSON.stringify({ error: `the page's engine: ${e.message || "it stopped"}` }) };
    for (const done of waiting.values()) done(why);
    waiting.clear();
  };

  function ask(message) {
    const id = next++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage(Object.assign({ id }, message));
    });
  }

  function answer(m) {
    let data;
    try { data = JSON.parse(m.body); } catch (e) { data = { error: `HTTP ${m.status}` }; }
    if (m.status < 200 || m.status > 299) {
      const e = new Error(data.error || `HTTP ${m.status}`);
      e.status = m.status;
      throw e;
    }
    return data;
  }

  async function post(path, body) {
    return answer(await ask({ method: "POST", url: path, body: JSON.stringify(body) }));
  }

  async function get(path) {
    return answer(await ask({ method: "GET", url: path }));
  }

  function events(id, handlers) {
    listeners.set(id, handlers);
    ask({ listen: id }).then((m) => {
      if (listeners.get(id) !== handlers) return;
      if (m.status === 200) { if (handlers.open) handlers.open(); }
      else if (handlers.error) handlers.error(true);
    });
    return { close: () => { if (listeners.get(id) === handlers) listeners.delete(id); } };
  }

  function link(anchor, path) {
    anchor.dataset.path = path;
    anchor.setAttribute("href", "#");
    if (anchor.dataset.linked) return;
    anchor.dataset.linked = "1";
    anchor.addEventListener("click", async (e) => {
      e.preventDefault();
      const m = await ask({ method: "GET", url: anchor.dataset.path });
      if (m.status !== 200) return;
      const url = URL.createObjectURL(new Blob([m.body], { type: m.type }));
      const save = document.createElement("a");
      save.href = url;
      save.download = m.file || "awari.txt";
      document.body.appendChild(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    });
  }

  function leave() {}

  return { persistent: false, post, get, events, link, leave };
})();
