// Loads Oska: starts the Pyodide runtime served beside this page, unpacks the project's
// Python files into its file system and hands over to Python (oska_gui.web.page.start).
// Only loading lives here: the rules, the AI and the whole UI are the project's Python.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const PYTHON_ARCHIVE = "oska-python.zip";
const APP_DIR = "/home/pyodide/oska";

function say(text) {
  document.getElementById("loading-text").textContent = text;
}

function fail(error) {
  console.error(error);
  // A Python error's message is its whole traceback: its last line says what went wrong.
  const lines = String(error.message || error).trim().split("\n");
  document.getElementById("loading").classList.add("message");
  document.body.dataset.state = "error";
  say(`Oska could not start: ${lines[lines.length - 1]}`);
}

async function fetchArchive() {
  // "no-cache" revalidates with the server, so a rebuilt site is never run from a stale copy.
  const response = await fetch(PYTHON_ARCHIVE, { cache: "no-cache" });
  if (!response.ok) {
    throw new Error(`${PYTHON_ARCHIVE}: HTTP ${response.status}`);
  }
  return response.arrayBuffer();
}

async function main() {
  say("Loading the Python runtime…");
  const [pyodide, archive] = await Promise.all([
    loadPyodide({ indexURL: "./pyodide/" }),
    fetchArchive(),
  ]);
  say("Starting the game…");
  pyodide.unpackArchive(archive, "zip", { extractDir: APP_DIR });
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(APP_DIR)})`);
  pyodide.pyimport("oska_gui.web.page").start();
}

main().catch(fail);
