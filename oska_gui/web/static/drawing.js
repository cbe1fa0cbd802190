// Replays the game's drawing on its canvas, in the game's Web Worker: the canvas is the
// page's, handed over with transferControlToOffscreen(), so drawing never costs the
// page's main thread. Python records a frame's calls (oska_gui.web.recorder) as JSON:
// [surface, name, ...arguments] each, surface 0 being the board and the others layers
// (canvases of their own, made here on first use); name is a 2D context method, or a
// property after "=" (a layer's "=width" and "=height" size its canvas); drawImage's
// first argument is the number of the layer copied. One call per frame from Python
// instead of one per drawing call: crossing into JavaScript costs more than the call.
const BOARD = 0;

export class Drawing {
  // board: the OffscreenCanvas the page gave. newCanvas: makes a layer's canvas.
  constructor(board, newCanvas) {
    this.board = board;
    this.newCanvas = newCanvas;
    this.surfaces = new Map([[BOARD, board.getContext("2d")]]);
  }

  // Size the board's backing store (resetting its context, as the drawing expects),
  // then replay `text`, a frame's drawing (null: nothing drawn).
  show(text, width, height) {
    if (this.board.width !== width || this.board.height !== height) {
      this.board.width = width;
      this.board.height = height;
    }
    if (text) {
      this.replay(JSON.parse(text));
    }
  }

  replay(drawing) {
    for (const [surface, name, ...args] of drawing) {
      if (name.startsWith("=")) {
        this.assign(surface, name.slice(1), args[0]);
      } else if (name === "drawImage") {
        this.context(surface).drawImage(this.context(args[0]).canvas, args[1], args[2]);
      } else {
        this.context(surface)[name](...args);
      }
    }
  }

  assign(surface, property, value) {
    const context = this.context(surface);
    if (surface !== BOARD && (property === "width" || property === "height")) {
      context.canvas[property] = value;
    } else {
      context[property] = value;
    }
  }

  // The 2D context of `surface`, a layer's canvas made on first use.
  context(surface) {
    let context = this.surfaces.get(surface);
    if (!context) {
      context = this.newCanvas().getContext("2d");
      this.surfaces.set(surface, context);
    }
    return context;
  }
}
