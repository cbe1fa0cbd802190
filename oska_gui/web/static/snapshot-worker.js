// Prepares a first visit's interpreter snapshot off the page's main thread: starting
// Python, importing the game and taking the snapshot keep a thread busy for seconds in
// one stretch, which the page must not spend (it would not paint, scroll or answer).
// The loader posts the Python archive's bytes and the name of the build's cache; the
// worker keeps the snapshot there under the name it is given, and answers with progress
// texts ({ say }), then the snapshot ({ snapshot }, handed over, not copied: copying tens
// of megabytes would cost the page a long task) or what went wrong ({ error }), and
// once the snapshot is kept (or could not be) { done }: the worker may end then.
import { unpack } from "./python-files.js";
import { startPyodide } from "./runtime.js";

self.addEventListener("message", async ({ data }) => {
  try {
    const pyodide = await startPyodide({ indexURL: "./pyodide/", _makeSnapshot: true });
    self.postMessage({ say: "Preparing the game…" });
    unpack(pyodide, data.archive);
    pyodide.pyimport("oska_gui.web.warm").prepare();
    const snapshot = pyodide.makeMemorySnapshot();
    const kept = new Response(snapshot);  // a copy of the bytes: the snapshot can go
    self.postMessage({ snapshot }, [snapshot.buffer]);
    try {
      // after handing the snapshot over: writing tens of megabytes must not hold up
      // the game, which starts from the snapshot meanwhile
      await (await caches.open(data.cache)).put(data.key, kept);
    } catch (error) {
      console.warn(`Oska: snapshot not kept (${error.message || error})`);
    }
    self.postMessage({ done: true });
  } catch (error) {
    self.postMessage({ error: String(error.message || error) });
  }
});
