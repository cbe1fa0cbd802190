"""Sounds in the browser: the UI's cues, played by the page for the game's worker.

A Web Worker has no Web Audio, so the page plays the sounds (``static/audio.js``): the
worker sends it every cue's samples once, when the game starts, then each cue's name
when the game plays it. The page makes its ``AudioContext`` while it loads when sound
is on (so no frame pays for it) and wakes it in every click, tap and key handler, as
browsers allow sound only after a gesture. A page without Web Audio, or whose context
fails, says so once and tells the worker, which then knows the game is silent.
This module takes the way to post a message as an argument, so it imports no ``js``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ui.kit.sounds import Cue, samples

Post = Callable[[dict], None]


def cue_samples() -> dict[str, list[float]]:
    """Return every cue's samples by the cue's name, as the page makes its buffers."""
    return {cue.name: list(samples(cue)) for cue in Cue}


class PageSpeaker:
    """Plays cues by asking the page to; silent once the page says sound failed."""

    def __init__(self, post: Post) -> None:
        """Prepare a speaker that sends ``{"kind": "play", "cue": name}`` by ``post``."""
        self._post = post
        self._working = True

    @property
    def available(self) -> bool:
        """Return False once the page has said it cannot play sound."""
        return self._working

    def play(self, cue: Cue) -> None:
        """Ask the page to play ``cue``, unless sound has failed there."""
        if self._working:
            self._post({"kind": "play", "cue": cue.name})

    def silence(self) -> None:
        """Take note that the page cannot play sound (no Web Audio, say)."""
        self._working = False
