// The game's Web Worker: Python (Pyodide) and the whole game run here, never on the
// page's main thread, which stays free to paint and answer. The loader posts the
// interpreter snapshot (or null), the Python archive's bytes and what the page knows
// (oska_gui.web.page.start's argument); from then on the page's messages go to the
// game's front end (oska_gui.web.page.WorkerFrontEnd.receive), which answers by its own.
// Before that the worker says what it does ({ kind: "say" }), whether the snapshot could
// be used ({ kind: "snapshot-failed" } when not) or why the game cannot start
// ({ kind: "failed" }).
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { unpack } from "./python-files.js";

const INDEX_URL = "./pyodide/";

// Restore the snapshot, or start Python afresh without one or if it fails (e.g. a
// snapshot larger than the runtime's first heap: Pyodide 314 says "offset is out of
// bounds"); the page then keeps none.
async function startPython(snapshot) {
  if (snapshot) {
    try {
      return await loadPyodide({ indexURL: INDEX_URL, _loadSnapshot: snapshot });
    } catch (error) {
      self.postMessage({ kind: "snapshot-failed", message: String(error.message || error) });
    }
  }
  return loadPyodide({ indexURL: INDEX_URL });
}

self.addEventListener("message", async ({ data }) => {
  try {
    const pyodide = await startPython(data.snapshot);
    self.postMessage({ kind: "say", text: "Starting the game…" });
    unpack(pyodide, data.archive);  // a snapshot keeps memory, not files
    const frontEnd = pyodide.pyimport("oska_gui.web.page").start(data.page);
    self.addEventListener("message", ({ data: message }) => frontEnd.receive(message));
  } catch (error) {
    self.postMessage({ kind: "failed", message: String(error.message || error) });
  }
}, { once: true });
