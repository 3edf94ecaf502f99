// Loads the engine's WebAssembly module (engine/, built by build.sh) and drives it: one
// request at a time, a JSON object in and a JSON object out, each search report handed to a
// callback as it comes. The same file serves the page's worker and node (perft.mjs,
// bench.mjs), so it touches neither the page nor node's modules.
//
// The site's table files are `tables/VARIANT-NN.awtb`, layer NN (two digits) of VARIANT.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The engine of a compiled `awari_web.wasm` (a `WebAssembly.Module`, or its bytes). */
export async function load(module) {
  if (!(module instanceof WebAssembly.Module)) module = await WebAssembly.compile(module);
  let onReport = () => {};
  let memory = null;
  const text = (ptr, len) => decoder.decode(new Uint8Array(memory.buffer, ptr, len));
  const instance = await WebAssembly.instantiate(module, {
    env: {
      host_now: () => performance.now(),
      host_date: () => Date.now(),
      host_report: (ptr, len) => onReport(JSON.parse(text(ptr, len))),
    },
  });
  const wasm = instance.exports;
  memory = wasm.memory;
  // Copies `bytes` into the module's memory for the length of `use`.
  const lend = (bytes, use) => {
    const ptr = wasm.alloc(bytes.length);
    new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
    try { return use(ptr, bytes.length); } finally { wasm.free(ptr, bytes.length); }
  };
  return {
    /** Answers `request` (an object with `op`), calling `report` with each report. */
    request(request, report = () => {}) {
      onReport = report;
      try {
        const len = lend(encoder.encode(JSON.stringify(request)), (ptr, n) => wasm.request(ptr, n));
        return JSON.parse(text(wasm.answer(), len));
      } finally {
        onReport = () => {};
      }
    },
    /** Hands over an endgame table file (kind 0: a table, 1: a paths file) of layer `layer`. */
    tableFile(kind, layer, bytes) {
      return lend(bytes, (ptr, n) => wasm.table_file(kind, layer, ptr, n)) === 1;
    },
    /**
     * Puts `variant`'s table files to use, `layers[n]` the bytes of `VARIANT-NN.awtb`; returns
     * `{reach, layers, problems}` (a file that fails its checks is one of the problems).
     */
    useTables(variant, layers) {
      layers.forEach((bytes, n) => this.tableFile(0, n, bytes));
      return this.request({ op: "tables", variant });
    },
  };
}

/** The engine of the site at `base` (a URL next to its `awari.wasm`), fetched and loaded. */
export async function loadFrom(base) {
  const response = await fetch(new URL("awari.wasm", base));
  if (!response.ok) throw new Error(`awari.wasm: HTTP ${response.status}`);
  return load(await response.arrayBuffer());
}

/**
 * The table files of `variant` that the site at `base` lists in `tables/index.json`, fetched
 * and put to use: `{reach, layers, problems}`, `{error}` for a file that could not be fetched,
 * or null where the site has no tables of `variant`.
 */
export async function fetchTables(engine, base, variant) {
  const listed = await fetch(new URL("tables/index.json", base));
  const index = listed.ok ? await listed.json() : { seeds: 0, variants: [] };
  if (!index.variants.includes(variant)) return null;
  const layers = [];
  for (let n = 0; n <= index.seeds; n++) {
    const name = `tables/${variant}-${String(n).padStart(2, "0")}.awtb`;
    const response = await fetch(new URL(name, base));
    if (!response.ok) return { error: `${name}: HTTP ${response.status}` };
    layers.push(new Uint8Array(await response.arrayBuffer()));
  }
  return engine.useTables(variant, layers);
}
