// The game's Web Worker: Python (Pyodide) and the whole game run here, never on the
// page's main thread, which stays free to paint and answer. The loader posts the
// interpreter snapshot (or "kept": the one in the cache it names; or null), the Python
// archive's bytes, the page's canvas (an
// OffscreenCanvas, drawn on here: drawing.js) and what the page knows
// (oska_gui.web.page.start's argument); from then on the page's messages go to the
// game's front end (oska_gui.web.page.WorkerFrontEnd.receive), which answers by its own.
// For tests (recordTexts), the worker notes every text drawn and its font, and sends
// them when asked ({ kind: "drawn" }).
// Before that the worker says what it does ({ kind: "say" }), whether the snapshot could
// be used ({ kind: "snapshot-failed" } when not) or why the game cannot start
// ({ kind: "failed" }).
import { Drawing } from "./drawing.js";
import { unpack } from "./python-files.js";
import { startPyodide } from "./runtime.js";

const INDEX_URL = "./pyodide/";

// Restore the snapshot, or start Python afresh without one or if it fails (e.g. a
// snapshot larger than the runtime's first heap: Pyodide 314 says "offset is out of
// bounds"); the page then keeps none.
async function startPython(snapshot) {
  if (snapshot) {
    try {
      return await startPyodide({ indexURL: INDEX_URL, _loadSnapshot: snapshot });
    } catch (error) {
      self.postMessage({ kind: "snapshot-failed", message: String(error.message || error) });
    }
  }
  return startPyodide({ indexURL: INDEX_URL });
}

// Note every text drawn on any canvas here, with its font; returns the list.
function recordTexts() {
  const drawn = [];
  const fillText = OffscreenCanvasRenderingContext2D.prototype.fillText;
  OffscreenCanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    drawn.push([String(text), this.font]);
    return fillText.call(this, text, ...rest);
  };
  return drawn;
}

// The snapshot kept in the cache `cache` under `key` (null if it has gone).
async function keptSnapshot({ cache, key }) {
  const kept = await (await caches.open(cache)).match(key);
  return kept ? new Uint8Array(await kept.arrayBuffer()) : null;
}

self.addEventListener("message", async ({ data }) => {
  try {
    const snapshot = data.snapshot === "kept" ? await keptSnapshot(data.kept) : data.snapshot;
    const pyodide = await startPython(snapshot);
    self.postMessage({ kind: "say", text: "Starting the game…" });
    unpack(pyodide, data.archive);  // a snapshot keeps memory, not files
    const drawing = new Drawing(data.canvas, () => new OffscreenCanvas(1, 1));
    const drawn = data.page.recordTexts ? recordTexts() : null;
    const frontEnd = pyodide.pyimport("oska_gui.web.page").start(
      data.page, (text, width, height) => drawing.show(text, width, height));
    self.addEventListener("message", ({ data: message }) => {
      if (message.kind === "drawn") {
        self.postMessage({ kind: "drawn", texts: drawn.splice(0) });
      } else {
        frontEnd.receive(message);
      }
    });
  } catch (error) {
    self.postMessage({ kind: "failed", message: String(error.message || error) });
  }
}, { once: true });
