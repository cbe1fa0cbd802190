// Starting the Pyodide runtime so that a runtime that cannot start says so.
// Pyodide 314 catches a failed WebAssembly instantiation of pyodide.asm.wasm (e.g. a
// truncated file), only warns in the console and never settles loadPyodide's promise:
// the page would say "Starting the Python runtime…" for good. Shared by the loader and
// both workers (snapshot-worker.js, game-worker.js).
import { loadPyodide } from "./pyodide/pyodide.mjs";

// Start Pyodide with loadPyodide's `options`; resolves with the interpreter, or rejects
// with the instantiation's error when the runtime's WebAssembly cannot be instantiated.
export async function startPyodide(options) {
  let failed = () => {};
  const failure = new Promise((resolve, reject) => {
    failed = reject;
  });
  const stopWatching = watchInstantiation((error) => failed(error));
  try {
    return await Promise.race([loadPyodide(options), failure]);
  } finally {
    stopWatching();
  }
}

// Have WebAssembly's instantiate and instantiateStreaming report every failure to
// `failed` (still rejecting as before) until the returned function puts them back.
function watchInstantiation(failed) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  const watched = (original) => (...args) => original.apply(WebAssembly, args).catch(
    (error) => {
      failed(error);
      throw error;
    });
  WebAssembly.instantiate = watched(instantiate);
  WebAssembly.instantiateStreaming = watched(instantiateStreaming);
  return () => {
    WebAssembly.instantiate = instantiate;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  };
}
