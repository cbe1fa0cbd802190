// The game's sounds, played by the page: a Web Worker, where the game runs, has no Web
// Audio. The worker sends every cue's samples once (setSamples), then a cue's name each
// time the game plays it. Making the AudioContext and its buffers blocks the page for
// 40-60 ms, so the page prepares them while it loads when sound is on; browsers let a
// page make sound only after the player touched it, so a context made then may start
// suspended: every click, tap and key handler wakes it (preparing it first if sound was
// off at load). A page without Web Audio, or whose context fails, stays silent, says so
// once in the console and tells the game (onSilent).
//
// The first AudioContext of a browser session starts the browser's audio service, which
// blocks the page for 150-300 ms when the constructor waits for it; listing the media
// devices starts it without blocking. So the loader calls warmUpAudio() first thing, and
// the speaker prepares its context (prepareSoon) only once that is done.

let warming = null;

// Start the browser's audio service in the background; resolves when it is up (or when
// there is no way to tell: no media devices API, or it failed).
export function warmUpAudio() {
  if (!warming) {
    const devices = navigator.mediaDevices;
    warming = devices && devices.enumerateDevices
      ? devices.enumerateDevices().catch(() => null)
      : Promise.resolve(null);
  }
  return warming;
}

export class Speaker {
  // onSilent: called once when sound fails on this page.
  constructor(onSilent) {
    this.onSilent = onSilent;
    this.sounds = null;  // { samples: { cue name: Float32Array }, rate }
    this.context = null;
    this.buffers = new Map();
    this.working = true;
  }

  // The cues' samples by name, and their sample rate (per second).
  setSamples(samples, rate) {
    this.sounds = { samples, rate };
  }

  // Create the context and every cue's buffer, if not done yet, so no cue costs a frame.
  prepare() {
    this.guarded(() => this.prepared());
  }

  // Prepare once the audio service is warm (see warmUpAudio).
  prepareSoon() {
    warmUpAudio().then(() => this.prepare());
  }

  // Let the context run: call it from a gesture's handler (the browser may refuse before).
  wake() {
    this.guarded(() => this.awake());
  }

  // Start playing the cue named `name`.
  play(name) {
    this.guarded(() => {
      const context = this.awake();
      const source = context.createBufferSource();
      source.buffer = this.buffers.get(name);
      source.connect(context.destination);
      source.start();
    });
  }

  guarded(work) {
    if (!this.working || !this.sounds) {
      return;
    }
    try {
      work();
    } catch (error) {
      this.working = false;
      console.warn(`Oska: no sound (${error.message || error})`);
      this.onSilent();
    }
  }

  prepared() {
    if (!this.context) {
      const context = new AudioContext();
      for (const [name, data] of Object.entries(this.sounds.samples)) {
        const buffer = context.createBuffer(1, data.length, this.sounds.rate);
        buffer.copyToChannel(data, 0);
        this.buffers.set(name, buffer);
      }
      this.context = context;
    }
    return this.context;
  }

  awake() {
    const context = this.prepared();
    if (context.state === "suspended") {
      context.resume();
    }
    return context;
  }
}
