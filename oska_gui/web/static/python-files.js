// The project's Python files in a Pyodide interpreter: shared by the page's loader and
// the worker that prepares a first visit's interpreter snapshot (snapshot-worker.js).
const APP_DIR = "/home/pyodide/oska";

// Unpack the project's Python archive (the zip file's bytes) and make it importable.
export function unpack(pyodide, archive) {
  pyodide.unpackArchive(archive, "zip", { extractDir: APP_DIR });
  pyodide.runPython(`import sys
if ${JSON.stringify(APP_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(APP_DIR)})`);
}
