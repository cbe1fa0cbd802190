"""The game's sounds: made here from a few sine partials, no audio files and no numpy.

Each ``Cue`` is rendered once into mono 16-bit samples at ``RATE`` (a wooden knock for
a move, a double knock for a capture, a rising chime for a win, a falling one for a
loss, a neutral chime for any other end). A front end plays them through a ``Speaker``:
pygame's mixer on the desktop, Web Audio in the browser, or ``Silence``. Which cue
belongs to what happened in a game is decided here too, so both front ends agree.
"""

from __future__ import annotations

import io
import math
import random
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Protocol

RATE = 16000  # samples a second: plenty for knocks and chimes, and small to render
PEAK = 0.5  # loudest sample, as a fraction of full scale: leaves room when cues overlap
FADE_SECONDS = 0.004  # every cue starts and ends with a short ramp, so it never clicks


class Cue(StrEnum):
    """Something the players hear."""

    MOVE = "move"
    CAPTURE = "capture"
    WIN = "win"
    LOSS = "loss"
    END = "end"


@dataclass(frozen=True)
class Tone:
    """One decaying sine partial: starts ``at`` seconds into the cue, lasts ``seconds``.

    ``decay`` is how many times a second its loudness falls by a factor of e.
    """

    hz: float
    at: float
    seconds: float
    gain: float
    decay: float


def _knock(at: float, pitch: float, gain: float) -> tuple[Tone, ...]:
    """Return the partials of a short wooden knock.

    Args:
        at: when it starts, in seconds from the start of the cue.
        pitch: the frequency of its body, in Hz.
        gain: its loudness, 0 to 1.

    Returns:
        A body tone and two quickly dying inharmonic overtones.
    """
    return (Tone(pitch, at, 0.12, gain, 38.0),
            Tone(pitch * 2.76, at, 0.05, gain * 0.35, 90.0),
            Tone(pitch * 5.40, at, 0.03, gain * 0.15, 160.0))


def _chime(notes: Sequence[float], gap: float, gain: float) -> tuple[Tone, ...]:
    """Return a bell-like arpeggio.

    Args:
        notes: the notes' frequencies in Hz, in the order played.
        gap: seconds between one note's start and the next.
        gain: the loudness of each note, 0 to 1.

    Returns:
        Each note's fundamental and a softer octave, ringing for about half a second.
    """
    tones: list[Tone] = []
    for i, hz in enumerate(notes):
        tones.append(Tone(hz, i * gap, 0.55, gain, 6.0))
        tones.append(Tone(hz * 2, i * gap, 0.30, gain * 0.25, 12.0))
    return tuple(tones)


C5, E5, G5, C6 = 523.25, 659.26, 783.99, 1046.50
G4, EB4, C4 = 392.00, 311.13, 261.63

RECIPES: dict[Cue, tuple[Tone, ...]] = {
    Cue.MOVE: _knock(0.0, 420.0, 0.9),
    Cue.CAPTURE: _knock(0.0, 300.0, 1.0) + _knock(0.075, 520.0, 0.7),
    Cue.WIN: _chime((C5, E5, G5, C6), 0.11, 0.45),
    Cue.LOSS: _chime((G4, EB4, C4), 0.16, 0.45),
    Cue.END: _chime((G4, C5), 0.14, 0.45),
}


def _length(tones: Sequence[Tone]) -> int:
    """Return how many samples it takes for every tone of a cue to end."""
    return math.ceil(max(t.at + t.seconds for t in tones) * RATE)


def _envelope(i: int, count: int) -> float:
    """Return the fade-in/fade-out factor of sample ``i`` of ``count``."""
    ramp = FADE_SECONDS * RATE
    return min(1.0, i / ramp, (count - 1 - i) / ramp)


@cache
def samples(cue: Cue) -> tuple[float, ...]:
    """Return the cue's samples, each in [-PEAK, PEAK]; rendered once, then remembered.

    Args:
        cue: which sound.

    Returns:
        Mono samples at ``RATE`` a second. A little seeded noise gives knocks their
        attack, so the same cue always sounds (and tests) the same.
    """
    tones = RECIPES[cue]
    out = [0.0] * _length(tones)
    for tone in tones:
        start, count = round(tone.at * RATE), round(tone.seconds * RATE)
        for k in range(count):
            t = k / RATE
            level = tone.gain * math.exp(-tone.decay * t) * _envelope(k, count)
            out[start + k] += level * math.sin(2 * math.pi * tone.hz * t)
    noise = random.Random(cue.value)
    attack = round(0.006 * RATE)
    for tone in tones:
        if tone.decay > 30:  # a knock: the stick's click
            start = round(tone.at * RATE)
            for k in range(attack):
                out[start + k] += tone.gain * 0.2 * (1 - k / attack) * noise.uniform(-1, 1)
    faded = [s * _envelope(i, len(out)) for i, s in enumerate(out)]
    loudest = max(abs(s) for s in faded) or 1.0
    return tuple(s * PEAK / loudest for s in faded)


def wav_bytes(cue: Cue) -> bytes:
    """Return the cue as a complete WAV file (mono, 16-bit, ``RATE`` Hz) in memory.

    Args:
        cue: which sound.

    Returns:
        The file's bytes, ready for pygame's mixer or any audio player.
    """
    pcm = b"".join(round(s * 32767).to_bytes(2, "little", signed=True) for s in samples(cue))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm)
    return buffer.getvalue()


class Speaker(Protocol):
    """Plays cues. Never raises: without a working audio device it stays silent."""

    def play(self, cue: Cue) -> None:
        """Start playing ``cue`` at once, over anything already playing."""

    @property
    def available(self) -> bool:
        """Return False once it is known that no sound can play (no audio device)."""


class Silence:
    """A speaker that plays nothing (tests, and front ends that keep quiet); it is no
    missing device, so it counts as available."""

    available = True

    def play(self, cue: Cue) -> None:
        """Play nothing.

        Args:
            cue: the cue that was asked for.
        """


def move_cue(captured: bool) -> Cue:
    """Return the cue for a move.

    Args:
        captured: whether the move took a piece.

    Returns:
        ``CAPTURE`` or ``MOVE``.
    """
    return Cue.CAPTURE if captured else Cue.MOVE


def end_cue(winner: int | None, humans: Sequence[bool]) -> Cue:
    """Return the cue for the end of a game.

    Args:
        winner: the winning side (0 White, 1 Black) or None when nobody won.
        humans: for each side, whether a human plays it.

    Returns:
        ``WIN`` or ``LOSS`` when exactly one side is human (its result), else ``END``.
    """
    if winner is None or humans[0] == humans[1]:
        return Cue.END
    return Cue.WIN if humans[winner] else Cue.LOSS
