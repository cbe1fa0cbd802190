"""Sounds in the browser: the UI's cues played through the Web Audio API.

Creating an ``AudioContext`` and its buffers blocks the page for 40-60 ms: made on the
first cue, they cost the frame that showed the computer's first move. So the page calls
``prepare()`` while it loads, before its first frame. Browsers let a page make sound
only after the player has touched it, so a context made then may start suspended; the
page calls ``wake()`` from every click, tap and key handler, which resumes it (and
prepares it first if sound was off at load). ``play`` still does both if need be. A
page without Web Audio, or one whose context fails, stays silent and says so once in
the console.
This module takes the browser objects as arguments, so it imports no ``js``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ui.sounds import RATE, Cue, samples

FloatArray = Callable[[Sequence[float]], Any]


class WebAudioSpeaker:
    """Plays cues with Web Audio: one ``AudioBuffer`` per cue, all made with the context."""

    def __init__(self, make_context: Callable[[], Any], float_array: FloatArray,
                 warn: Callable[[str], None]) -> None:
        """Prepare a speaker; nothing is created until ``prepare`` or the first cue.

        Args:
            make_context: returns a new ``AudioContext`` (raises where there is none).
            float_array: turns samples into a JavaScript ``Float32Array``.
            warn: reports, once, why the page is silent.
        """
        self._make_context = make_context
        self._float_array = float_array
        self._warn = warn
        self._context: Any = None
        self._buffers: dict[Cue, Any] = {}
        self._working = True

    @property
    def available(self) -> bool:
        """Return False once sound has failed on this page (no Web Audio, say)."""
        return self._working

    def play(self, cue: Cue) -> None:
        """Start playing ``cue``, or do nothing once sound has failed on this page.

        Args:
            cue: which sound.
        """
        self._guarded(lambda: self._play(cue))

    def prepare(self) -> None:
        """Create the audio context and every cue's buffer, if not done yet, so that no
        cue costs a frame. Failures silence the speaker (and say why, once)."""
        self._guarded(self._prepared_context)

    def wake(self) -> None:
        """Let the context run: call it from a user gesture's handler (the browser may
        refuse before one). Prepares the speaker first if needed."""
        self._guarded(self._awake_context)

    def _guarded(self, work: Callable[[], object]) -> None:
        """Run ``work`` unless sound has failed; a failure silences the speaker."""
        if not self._working:
            return
        try:
            work()
        except Exception as err:  # a JsException from the browser, whatever its kind
            self._working = False
            self._warn(f"no sound ({err})")

    def _prepared_context(self) -> Any:
        """Return the audio context, with every cue's buffer, created if needed."""
        if self._context is None:
            self._context = self._make_context()
            for cue in Cue:
                self._buffer(self._context, cue)
        return self._context

    def _awake_context(self) -> Any:
        """Return the prepared audio context, resumed if it was suspended."""
        context = self._prepared_context()
        if context.state == "suspended":
            context.resume()
        return context

    def _play(self, cue: Cue) -> None:
        """Prepare and wake the context when needed, then start a source node."""
        context = self._awake_context()
        source = context.createBufferSource()
        source.buffer = self._buffer(context, cue)
        source.connect(context.destination)
        source.start()

    def _buffer(self, context: Any, cue: Cue) -> Any:
        """Return ``cue``'s ``AudioBuffer`` in ``context``, made on its first use."""
        buffer = self._buffers.get(cue)
        if buffer is None:
            data = samples(cue)
            buffer = context.createBuffer(1, len(data), RATE)
            buffer.copyToChannel(self._float_array(data), 0)
            self._buffers[cue] = buffer
        return buffer
