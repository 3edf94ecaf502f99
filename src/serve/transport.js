// How the page reaches `awari serve`: every call the page makes goes through here, by the
// server's own paths (`/api/...`). This one speaks HTTP to the server that sent the page; a
// page without a server (the engine in a Web Worker) is given another with the same names.
//
// - `post(path, body)`: the answer's JSON; throws Error(its `error`, or "HTTP <status>") when
//   refused, the error's `status` then the answer's status.
// - `get(path)`: the same for a GET.
// - `events(id, handlers)`: the session's events, each handed to `handlers[name]` parsed
//   (`state`, `info`, `hint`, `review`, `notice`); `open()` when connected, `error(closed)`
//   when not (`closed`: it will not reconnect by itself). Returns `{ close() }`.
// - `link(anchor, path)`: the anchor downloads what GET `path` answers.
// - `leave(id)`: the page is going; the session kept a while for a reload.
// - `persistent`: whether a session outlives the page (a reload can reattach to it).
"use strict";
window.AwariTransport = (function () {
  async function answer(response) {
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) {
      const e = new Error(data.error || `HTTP ${response.status}`);
      e.status = response.status;
      throw e;
    }
    return data;
  }

  async function post(path, body) {
    return answer(await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }));
  }

  async function get(path) {
    return answer(await fetch(path));
  }

  const NAMES = ["state", "info", "hint", "review", "notice"];

  function events(id, handlers) {
    const source = new EventSource(`/api/events?id=${encodeURIComponent(id)}`);
    for (const name of NAMES) {
      if (handlers[name]) source.addEventListener(name, (e) => handlers[name](JSON.parse(e.data)));
    }
    if (handlers.open) source.addEventListener("open", () => handlers.open());
    if (handlers.error) source.addEventListener("error", () => handlers.error(source.readyState === EventSource.CLOSED));
    return { close: () => source.close() };
  }

  function link(anchor, path) {
    anchor.setAttribute("href", path);
  }

  function leave(id) {
    fetch("/api/close", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id, later: true }) });
  }

  return { persistent: true, post, get, events, link, leave };
})();
