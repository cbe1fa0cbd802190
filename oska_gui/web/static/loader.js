// Loads Oska: fetches the Pyodide runtime served beside this page and the project's
// Python files, and starts the game in a Web Worker (game-worker.js, with the page's side
// in game-page.js), so Python never blocks the page's main thread.
// Only loading lives here: the rules, the AI and the whole UI are the project's Python.
//
// First visit: a service worker (sw.js) is installed and takes over before anything big
// is fetched, so all the runtime lands in its cache and the next visit works offline.
// Later visits are answered from that cache and never wait on the network. A new build
// the worker found on an earlier visit is applied here, before anything else is loaded
// (see sw.js): the page loads once more, from the new build.
// The download shows its progress. Once Python has imported the game (oska_gui.web.warm),
// a memory snapshot of the interpreter is kept in the same cache storage; a repeat visit
// restores it (in the game's worker) instead of starting Python again, which takes a
// fraction of the time.
import { warmUpAudio } from "./audio.js";
import { GamePage, pageFacts, showMessage } from "./game-page.js";
import { unpack } from "./python-files.js";

const PYTHON_ARCHIVE = "oska-python.zip";
const SNAPSHOT = "python-snapshot";  // its key in the build's cache
const WORKER_WAIT_MS = 3000;  // a worker that takes longer is not waited for
const UPDATE_WAIT_MS = 5000;  // a new build that takes longer to take over waits a visit

function say(text) {
  document.getElementById("loading-text").textContent = text;
}

// The service worker that controlled this page when it started loading (null if none).
const FIRST_CONTROLLER = navigator.serviceWorker ? navigator.serviceWorker.controller : null;

// Whether a new build took over while this page loaded: its loading may then have lost
// files to the new build's clean-up of the older caches.
function tookOver() {
  return Boolean(FIRST_CONTROLLER) && navigator.serviceWorker.controller !== FIRST_CONTROLLER;
}

function fail(error) {
  if (tookOver()) {
    // the page loads again, all of the new build (it has no older one to lose files to)
    console.warn(`Oska: loading the new version (${error.message || error})`);
    say("Updating Oska…");
    location.reload();
    return;
  }
  console.error(error);
  // A Python error's message is its whole traceback: its last line says what went wrong.
  const lines = String(error.message || error).trim().split("\n");
  showMessage("error", `Oska could not start: ${lines[lines.length - 1]}`);
}

async function fetchOk(url) {
  // Without a service worker, "no-cache" revalidates with the server, so a rebuilt site
  // is never run from a stale copy; with one, the worker answers from its build's cache.
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return response;
}

// While a page the worker controlled from the start loads, a new build taking over (asked
// by applyWaiting, or by the browser when it activates one at this navigation) loads the
// page again, from the new build: no page runs one build's loader with another's files.
// Returns the function that stops watching, called once the game runs.
function reloadOnTakeover() {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) {
    return () => {};
  }
  const reload = () => {
    say("Updating Oska…");
    location.reload();
  };
  navigator.serviceWorker.addEventListener("controllerchange", reload);
  return () => navigator.serviceWorker.removeEventListener("controllerchange", reload);
}

// Ask a new build found on an earlier visit to take over (true: it did, the page loads
// again), else look for one in the background, never waiting on the network.
async function applyWaiting() {
  const registration = await navigator.serviceWorker.getRegistration();
  if (registration && registration.waiting) {
    say("Updating Oska…");
    const switched = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), UPDATE_WAIT_MS);
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        clearTimeout(timer);
        resolve(true);
      }, { once: true });
    });
    registration.waiting.postMessage("activate");
    if (await switched) {
      return true;
    }
    console.warn("Oska: the new version did not take over; playing this one");
  }
  if (registration) {
    takeOverWhenInstalled(registration.installing);
    registration.addEventListener("updatefound",
                                  () => takeOverWhenInstalled(registration.installing));
    registration.update().catch(
      (error) => console.warn(`Oska: no check for a new version (${error.message || error})`));
  }
  return false;
}

// A new build found while this page runs takes over as soon as it is installed: this
// page has all its files already, and the next load is the new build's.
function takeOverWhenInstalled(worker) {
  if (worker) {
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") {
        worker.postMessage("activate");
      }
    });
  }
}

// Resolve once a service worker controls the page, or quietly give up: the game runs
// without one (no offline play, no snapshot), e.g. over plain http from another host.
async function serviceWorkerInControl() {
  if (!("serviceWorker" in navigator)) {
    return false;
  }
  if (navigator.serviceWorker.controller) {
    return true;
  }
  try {
    await navigator.serviceWorker.register("sw.js");
  } catch (error) {
    console.warn(`Oska: no offline play (${error.message || error})`);
    return false;
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), WORKER_WAIT_MS);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      clearTimeout(timer);
      resolve(true);
    }, { once: true });
  });
}

function cacheName(build) {
  return `oska-${build}`;
}

// The cache of this build, where the snapshot is kept; null without cache storage.
async function snapshotCache(build) {
  try {
    return await caches.open(cacheName(build));
  } catch {
    return null;
  }
}

function showProgress(done, total) {
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
  document.querySelector("#loading .progress").hidden = false;
  document.getElementById("progress-bar").style.width = `${Math.min(100, 100 * done / total)}%`;
  say(`Downloading Oska: ${megabytes(done)} of ${megabytes(total)} MB`);
}

// Fetch the big files the build names once, showing progress; the service worker keeps
// them, so Pyodide's own requests for them are answered from its cache.
async function downloadWithProgress(build) {
  const total = build.downloads.reduce((sum, name) => sum + build.sizes[name], 0);
  let done = 0;
  showProgress(done, total);
  await Promise.all(build.downloads.map(async (name) => {
    const reader = (await fetchOk(name)).body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      done += chunk.value.length;
      showProgress(done, total);
    }
  }));
}

// Start Python, import the game and take a snapshot of the interpreter, in a worker
// (snapshot-worker.js) so that the page's main thread stays free; in the page itself if
// the worker fails. An interpreter made for a snapshot cannot reach the browser (js), so
// the game runs in one restored from it (game-worker.js), on this visit as on every later.
async function snapshotAfresh(archive, build, cache) {
  const worker = new Worker("snapshot-worker.js", { type: "module" });
  try {
    const snapshot = await new Promise((resolve, reject) => {
      worker.addEventListener("message", ({ data }) => {
        if (data.say) {
          say(data.say);
        } else if (data.error) {
          reject(new Error(data.error));
        } else if (data.snapshot) {
          resolve(data.snapshot);
        } else {
          worker.terminate();  // done: the snapshot is kept
        }
      });
      worker.addEventListener("error", (event) => reject(new Error(event.message)));
      worker.postMessage({ archive, cache: cacheName(build), key: SNAPSHOT });
    });
    document.body.dataset.prepared = "worker";
    return snapshot;
  } catch (error) {
    worker.terminate();
    console.warn(`Oska: preparing Python in the page (the worker failed: ${error.message})`);
    document.body.dataset.prepared = "page";
    const snapshot = await snapshotInPage(archive);
    // the Response copies the bytes: the snapshot itself can go to the game's worker
    cache.put(SNAPSHOT, new Response(snapshot)).catch(
      (error) => console.warn(`Oska: snapshot not kept (${error.message || error})`));
    return snapshot;
  }
}

async function snapshotInPage(archive) {
  const { startPyodide } = await import("./runtime.js");
  const pyodide = await startPyodide({ indexURL: "./pyodide/", _makeSnapshot: true });
  unpack(pyodide, archive);
  pyodide.pyimport("oska_gui.web.warm").prepare();
  return pyodide.makeMemorySnapshot();
}

// Whether an earlier visit kept a snapshot (the game's worker reads it: tens of
// megabytes are no work for the page's main thread).
async function snapshotKept(cache) {
  return Boolean(cache && await cache.match(SNAPSHOT));
}

// Run the game in its worker, from `snapshot` (the kept one if "kept"; Python started
// afresh if null).
function runGame(snapshot, archive, build, cache, started) {
  const worker = new Worker("game-worker.js", { type: "module" });
  new GamePage(worker, {
    say,
    started,
    fail: (error) => {
      worker.terminate();
      fail(error);
    },
    // a kept snapshot that cannot be restored is dropped: the next visit makes a new one
    snapshotFailed: () => cache && cache.delete(SNAPSHOT),
  });
  const canvas = document.getElementById("board").transferControlToOffscreen();
  const fresh = snapshot && snapshot !== "kept";
  const buffers = [archive, canvas, ...(fresh ? [snapshot.buffer] : [])];
  worker.postMessage({ snapshot, kept: { cache: cache && cacheName(build), key: SNAPSHOT },
                       archive, canvas, page: pageFacts() }, buffers);
}

async function main() {
  warmUpAudio();
  const stopWatching = reloadOnTakeover();
  const offline = await serviceWorkerInControl();
  if (offline && await applyWaiting()) {
    return;  // loading again, from the new build
  }
  const build = await (await fetchOk("build.json")).json();
  document.body.dataset.build = build.build;
  const cache = offline ? await snapshotCache(build.build) : null;
  let snapshot = await snapshotKept(cache) ? "kept" : null;
  document.body.dataset.start = snapshot ? "snapshot" : "afresh";
  if (!snapshot && offline) {
    await downloadWithProgress(build);
  }
  const archive = await (await fetchOk(PYTHON_ARCHIVE)).arrayBuffer();
  say("Starting the Python runtime…");  // from the snapshot, or afresh
  if (!snapshot && cache) {
    snapshot = await snapshotAfresh(archive, build.build, cache);
  }
  runGame(snapshot, archive, build.build, cache, stopWatching);
}

main().catch(fail);
