"""Sounds in the browser: the UI's cues played through the Web Audio API.

The ``AudioContext`` is created on the first cue. Browsers let a page make sound only
after the player has touched it, and every cue follows a click, a tap or a key (a
computer's move follows the click that started the game), so the context starts
running; ``resume()`` wakes it if the browser suspended it anyway. A page without
Web Audio, or one whose context fails, stays silent and says so once in the console.
This module takes the browser objects as arguments, so it imports no ``js``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ui.sounds import RATE, Cue, samples

FloatArray = Callable[[Sequence[float]], Any]


class WebAudioSpeaker:
    """Plays cues with Web Audio: one ``AudioBuffer`` per cue, made on its first use."""

    def __init__(self, make_context: Callable[[], Any], float_array: FloatArray,
                 warn: Callable[[str], None]) -> None:
        """Prepare a speaker; nothing is created until the first cue.

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

    def play(self, cue: Cue) -> None:
        """Start playing ``cue``, or do nothing once sound has failed on this page.

        Args:
            cue: which sound.
        """
        if not self._working:
            return
        try:
            self._play(cue)
        except Exception as err:  # a JsException from the browser, whatever its kind
            self._working = False
            self._warn(f"no sound ({err})")

    def _play(self, cue: Cue) -> None:
        """Create the context and the cue's buffer when needed, then start a source node."""
        if self._context is None:
            self._context = self._make_context()
        context = self._context
        if context.state == "suspended":
            context.resume()
        buffer = self._buffers.get(cue)
        if buffer is None:
            data = samples(cue)
            buffer = context.createBuffer(1, len(data), RATE)
            buffer.copyToChannel(self._float_array(data), 0)
            self._buffers[cue] = buffer
        source = context.createBufferSource()
        source.buffer = buffer
        source.connect(context.destination)
        source.start()
