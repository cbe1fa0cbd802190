"""Sounds on the desktop: the UI's cues played through pygame's mixer.

The mixer is opened on the first cue, not at start-up, so a game that is muted never
touches the audio device, and a game that has not played a sound yet runs no audio
thread (an open mixer costs about 0.4% of a core, sound or not). A machine without a
device (a server, a container, a broken driver) makes the speaker silent for good, with
one line on stderr, never an error; asking whether sound is ``available`` opens the
mixer once to find out and closes it again, and ``rest`` closes it while nothing
plays (the window rests; the next cue opens it again).
"""

from __future__ import annotations

import io
import sys

import pygame

from ..ui.kit.sounds import Cue, wav_bytes


class MixerSpeaker:
    """Plays cues with ``pygame.mixer``; silent when no audio device can be opened."""

    def __init__(self) -> None:
        """Prepare a speaker; nothing is opened until the first cue."""
        self._sounds: dict[Cue, pygame.mixer.Sound] = {}
        self._working: bool | None = None  # None: not tried yet

    def _open(self) -> bool:
        """Open the mixer if it is not open (never again once it failed); return
        whether it works."""
        if self._working is not False and pygame.mixer.get_init() is None:
            try:
                pygame.mixer.init()
                self._working = True
            except pygame.error as err:
                print(f"Oska: no sound ({err})", file=sys.stderr)
                self._working = False
        return self._working is not False

    @property
    def available(self) -> bool:
        """Return whether sound can play. The first time, before any cue, the mixer is
        opened to find out and closed again (the screen asks only while sound is on)."""
        if self._working is None and pygame.mixer.get_init() is None and self._open():
            pygame.mixer.quit()  # found out; the first cue opens it again
        return self._working is not False

    def rest(self) -> None:
        """Close the mixer if it is open and silent: its audio thread would keep waking
        while the window rests (the next cue opens it again, its sounds made anew)."""
        if pygame.mixer.get_init() is not None and not pygame.mixer.get_busy():
            self._sounds.clear()
            pygame.mixer.quit()

    def play(self, cue: Cue) -> None:
        """Start playing ``cue``, or do nothing when there is no sound device.

        Args:
            cue: which sound.
        """
        if not self._open():
            return
        try:
            sound = self._sounds.get(cue)
            if sound is None:
                # Loading a WAV file lets the mixer convert to whatever format it opened.
                sound = pygame.mixer.Sound(file=io.BytesIO(wav_bytes(cue)))
                self._sounds[cue] = sound
            sound.play()
        except pygame.error as err:
            print(f"Oska: a sound could not play ({err})", file=sys.stderr)
            self._working = False
