"""Sounds on the desktop: the UI's cues played through pygame's mixer.

The mixer is opened on the first cue, not at start-up, so a game that is muted never
touches the audio device. A machine without one (a server, a container, a broken
driver) makes the speaker silent for good, with one line on stderr, never an error.
"""

from __future__ import annotations

import io
import sys

import pygame

from ..ui.sounds import Cue, wav_bytes


class MixerSpeaker:
    """Plays cues with ``pygame.mixer``; silent when no audio device can be opened."""

    def __init__(self) -> None:
        """Prepare a speaker; nothing is opened until the first cue."""
        self._sounds: dict[Cue, pygame.mixer.Sound] = {}
        self._working: bool | None = None  # None: not tried yet

    def _open(self) -> bool:
        """Open the mixer once; return whether it works."""
        if self._working is None:
            try:
                if pygame.mixer.get_init() is None:
                    pygame.mixer.init()
                self._working = True
            except pygame.error as err:
                print(f"Oska: no sound ({err})", file=sys.stderr)
                self._working = False
        return self._working

    @property
    def available(self) -> bool:
        """Return whether sound can play: the mixer is opened to find out (the screen
        asks only while sound is on)."""
        return self._open()

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
