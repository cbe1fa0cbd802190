// The page's side of the game, which runs in a Web Worker (game-worker.js and
// oska_gui.web.page) and draws there, on the canvas the page handed over
// (transferControlToOffscreen): the page keeps the DOM, sound and storage, and does
// nothing that takes long, so its main thread never blocks.
//
// At each animation frame while the game has something to do, the page sends the worker
// a frame request with the window's size and the pointer and key events since the last
// one (only one request is out at a time); the worker draws the frame and answers with
// the canvas's CSS size and what changed of what the page shows: #status, body[data-moves] and
// body[data-review] (for tests and tools), the #announce live region and the #position
// description (for screen readers), the canvas's cursor. When the game rests the page
// stops asking until an event or a resize. The page plays the game's sounds (audio.js),
// writes what the game stores to localStorage, opens the file picker and reads the
// record files chosen or dropped on the page for the worker, and hands it a share link
// (location.hash '#record=...', at load and on hashchange) to open in the replay. body[data-state] tells
// the page's state: loading, ready (with data-ready-at, ms since navigation) or error.
// A test that sets window.oskaRecordTexts before the page loads gets window.oskaDrawn():
// the texts the worker drew since the last call, [text, font] each; one that sets
// window.oskaOnFrame has it called (with the time) on every frame the game answers.
import { Speaker } from "./audio.js";

const POINTER_EVENTS = ["pointerdown", "pointermove", "pointerup", "pointercancel"];
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const COARSE_POINTER = "(pointer: coarse)";  // the main pointer is a finger: a phone or tablet

// Show `text` in the page's message box and set body[data-state] to `state`.
export function showMessage(state, text) {
  const box = document.getElementById("loading");
  document.getElementById("loading-text").textContent = text;
  box.classList.add("message");
  box.hidden = false;
  document.body.dataset.state = state;
}

function windowSize() {
  return [window.innerWidth, window.innerHeight, window.devicePixelRatio || 1];
}

// localStorage's values, or none where the browser refuses it (said in the console).
function storedValues() {
  try {
    const store = window.localStorage;
    return { storage: true, stored: Object.fromEntries(
      Object.keys(store).map((key) => [key, store.getItem(key)])) };
  } catch (error) {
    console.warn(`Oska: settings and games will not be kept (${error.message || error})`);
    return { storage: false, stored: {} };
  }
}

// What the game needs to know of the page when it starts (oska_gui.web.page.start).
export function pageFacts() {
  const [width, height, scale] = windowSize();
  return {
    width, height, scale,
    touch: matchMedia(COARSE_POINTER).matches,
    calm: matchMedia(REDUCED_MOTION).matches,
    recordTexts: Boolean(window.oskaRecordTexts),  // tests: see GamePage
    ...storedValues(),
  };
}

export class GamePage {
  // worker: the game's worker, already told to start. say: shows a loading text.
  // started: called once the game runs (its first frame is drawn). fail: called with
  // an Error if it cannot start. snapshotFailed: called if the snapshot did not restore.
  constructor(worker, { say, started, fail, snapshotFailed }) {
    this.worker = worker;
    this.hooks = { say, started, fail, snapshotFailed };
    this.board = document.getElementById("board");
    this.picker = document.getElementById("record-file");
    this.events = [];
    this.poked = false;  // something besides events needs a frame (a resize, a file)
    this.asked = false;  // an animation frame is requested
    this.inFlight = false;  // a frame request waits for its answer
    this.drawn = false;
    this.shownSize = null;
    this.drawnAsked = [];  // the callers waiting for the worker's drawn texts
    this.soundOn = false;
    this.speaker = new Speaker(() => worker.postMessage({ kind: "silent" }));
    this.onFrame = (time) => this.frame(time);
    worker.addEventListener("message", ({ data }) => this.receive(data));
    if (window.oskaRecordTexts) {
      // For tests: the texts the game drew since the last call, with their fonts.
      window.oskaDrawn = () => new Promise((resolve) => {
        this.drawnAsked.push(resolve);
        worker.postMessage({ kind: "drawn" });
      });
    }
    worker.addEventListener("error", (event) => fail(new Error(event.message)));
  }

  receive(message) {
    switch (message.kind) {
      case "say": this.hooks.say(message.text); break;
      case "snapshot-failed":
        console.warn(`Oska: starting without a snapshot (${message.message})`);
        this.hooks.snapshotFailed();
        break;
      case "failed": this.hooks.fail(new Error(message.message)); break;
      case "ready": this.start(message); break;
      case "frame": this.show(message); break;
      case "play": this.speaker.play(message.cue); break;
      case "drawn": this.drawnAsked.shift()(message.texts); break;
      case "store": this.store(message.key, message.text); break;
      case "error":
        console.error(message.trace);
        showMessage("error", message.message);
        break;
      default: console.warn(`Oska: unknown message from the game: ${message.kind}`);
    }
  }

  // The game is ready: listen to the page and ask for the first frame.
  start({ namedKeys, sounds, rate, sound }) {
    this.namedKeys = new Set(namedKeys);
    this.speaker.setSamples(sounds, rate);
    this.soundOn = sound;
    if (sound) {
      this.speaker.prepareSoon();  // while the page loads: no cue pays for it
    }
    for (const name of POINTER_EVENTS) {
      this.board.addEventListener(name, (event) => this.pointer(event));
    }
    this.board.addEventListener("contextmenu", (event) => event.preventDefault());
    window.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("resize", () => this.wake());
    this.picker.addEventListener("change", () => {
      if (this.picker.files.length) {
        this.read(this.picker.files[0]);
      }
      this.picker.value = "";  // choosing the same file again is a change too
    });
    window.addEventListener("dragover", (event) => event.preventDefault());  // allows a drop
    window.addEventListener("drop", (event) => {
      event.preventDefault();  // the browser would open the file instead
      const files = event.dataTransfer ? event.dataTransfer.files : null;
      if (files && files.length) {
        this.read(files[0]);
      }
    });
    window.addEventListener("hashchange", () => this.followLink());
    document.getElementById("share-close").addEventListener("click", () => {
      document.getElementById("share").hidden = true;
      this.board.focus();
    });
    this.followLink();
    if (matchMedia("(pointer: coarse)").matches) {
      document.body.dataset.input = "pointer";  // a touch screen: no keyboard ring at load
    }
    this.board.focus();  // keys and a screen reader start on the board
    this.wake();
  }

  // A share link ('#record=...') in the page's address goes to the game, which opens it
  // in the replay or announces why it cannot (oska_gui.web.page.WorkerFrontEnd.open_link).
  followLink() {
    const hash = window.location.hash;
    if (hash.startsWith("#record=")) {
      this.worker.postMessage({ kind: "link", hash });
      this.wake();
    }
  }

  pointer(event) {
    event.preventDefault();  // no text selection, scrolling or emulated mouse events
    if (event.type === "pointerdown") {
      // The board keeps the focus it had (the default action is prevented): the page
      // hides its keyboard ring until a key is pressed again (index.html's style).
      document.body.dataset.input = "pointer";
      // Keep receiving this pointer's move and up events if it leaves the canvas.
      this.board.setPointerCapture(event.pointerId);
      this.readySound();
    }
    const box = this.board.getBoundingClientRect();
    const { type, clientX, clientY, isPrimary, pointerType, button } = event;
    this.queue({ kind: "pointer", type, clientX, clientY, isPrimary, pointerType, button,
                 left: box.left, top: box.top });
  }

  // A key the game takes (as oska_gui.web.dom_events.key_press does: no Ctrl, Alt or
  // Meta, a named key or a single character) is the game's, not the browser's.
  key(event) {
    document.body.dataset.input = "keys";  // Tab too: the ring shows where the keys go
    if (event.target && event.target.id === "share-link") {
      return;  // the share link's field: its keys select and copy the link
    }
    const { key, ctrlKey, altKey, metaKey } = event;
    if (ctrlKey || altKey || metaKey || !(this.namedKeys.has(key) || key.length === 1)) {
      return;
    }
    event.preventDefault();  // e.g. space and arrows must not scroll the page
    this.readySound();
    this.queue({ kind: "key", key, ctrlKey, altKey, metaKey });
  }

  // Let the audio context run when sound is on: browsers allow it in a gesture's handler.
  readySound() {
    if (this.soundOn) {
      this.speaker.wake();
    }
  }

  // Download a kept game's record, or copy its share link: to the clipboard where the
  // browser allows, else into the read-only field #share-link, selected for the player
  // to copy. The game is told what was done (its Games screen says it).
  carryOut(request) {
    const said = (text) => {
      this.worker.postMessage({ kind: "exported", text });
      this.wake();
    };
    if (request.kind === "file") {
      const blob = new Blob([request.text], { type: "application/json" });
      const anchor = document.createElement("a");
      anchor.href = URL.createObjectURL(blob);
      anchor.download = request.name;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(anchor.href), 10_000);
      said(`Downloaded ${request.name}`);
      return;
    }
    const link = `${window.location.href.split("#")[0]}#${request.fragment}`;
    const show = () => {
      const box = document.getElementById("share");
      const field = document.getElementById("share-link");
      field.value = link;
      box.hidden = false;
      field.focus();
      field.select();
      said("The share link is in the field at the bottom, selected: "
           + "copy it with Ctrl+C (Cmd+C on a Mac), or tap and hold");
    };
    const clipboard = navigator.clipboard;
    if (!clipboard || typeof clipboard.writeText !== "function") {
      show();
      return;
    }
    clipboard.writeText(link).then(
      () => said(`Share link copied to the clipboard (${link.length} characters)`), show);
  }

  // Read `file` and send its bytes to the game, which opens it for review.
  read(file) {
    file.arrayBuffer().then(
      (data) => this.worker.postMessage({ kind: "file", name: file.name, data }, [data]),
      () => this.worker.postMessage({ kind: "file", name: file.name, data: null }),
    ).then(() => this.wake());
  }

  store(key, text) {
    try {
      window.localStorage.setItem(key, text);
    } catch (error) {
      console.warn(`Oska: cannot save ${key}: ${error.message || error}`);
    }
  }

  queue(event) {
    this.events.push(event);
    this.wake();
  }

  // Ask for frames again after a rest: an event arrived or the window changed.
  wake() {
    this.poked = true;
    this.askFrame();
  }

  askFrame() {
    if (!this.asked && !this.inFlight) {
      this.asked = true;
      requestAnimationFrame(this.onFrame);
    }
  }

  frame(time) {
    this.asked = false;
    const [width, height, scale] = windowSize();
    this.inFlight = true;
    this.poked = false;
    this.worker.postMessage({ kind: "frame", time, width, height, scale,
                              events: this.events.splice(0) });
  }

  // Show the game's answer to a frame request, then ask for the next frame if needed.
  show(answer) {
    this.inFlight = false;
    this.resize(answer.size);
    this.mirror(answer);
    this.soundOn = answer.sound;
    if (answer.export) {
      this.carryOut(answer.export);  // in the key press's or click's user activation too
    }
    if (answer.openPicker) {
      // O or Open game, in order with the keys before it (after '/', O is a letter): the
      // frame answers within the key press's user activation, so the browser lets it open
      this.picker.click();
    }
    if (answer.more || this.poked || this.events.length) {
      this.askFrame();
    }
    if (!this.drawn) {
      this.drawn = true;
      this.ready();
    }
    if (typeof window.oskaOnFrame === "function") {
      window.oskaOnFrame(performance.now());  // for tests: the game's frames, timed
    }
  }

  // Give the canvas its CSS size (the worker gives its backing store `scale` times more).
  resize([width, height]) {
    const size = `${width} ${height}`;
    if (size !== this.shownSize) {
      this.shownSize = size;
      this.board.style.width = `${width}px`;
      this.board.style.height = `${height}px`;
    }
  }

  mirror({ status, moves, review, announce, position, cursor }) {
    const text = (id, value) => {
      if (value !== undefined) {
        document.getElementById(id).textContent = value;
      }
    };
    text("status", status);
    text("announce", announce);
    text("position", position);
    if (moves !== undefined) {
      document.body.dataset.moves = moves;
    }
    if (review !== undefined) {
      document.body.dataset.review = review;
    }
    if (cursor !== undefined) {
      this.board.style.cursor = cursor;
    }
  }

  // Hide the loading indicator and record when the page became interactive.
  ready() {
    document.getElementById("loading").hidden = true;
    document.body.dataset.readyAt = `${performance.now().toFixed(0)}`;
    document.body.dataset.state = "ready";
    this.hooks.started();
  }
}
