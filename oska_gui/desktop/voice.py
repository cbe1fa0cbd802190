"""Speech on the desktop: the UI's announcements (``ui.speech``) printed and said aloud.

The window is pixels drawn by SDL, which no screen reader can read. With ``main.py
--speak`` the runner hands every announcement (a move, whose turn, the cursor's cell, a
piece picked up and its targets, the typed-move line, a start-screen change) to a
``Voice``: it prints the announcement as one line on stdout, where a terminal's screen
reader reads it, and says it with the system's speech command when one is installed
(``SPEECH_COMMANDS``, the first found), each announcement cutting the one before short,
as a page's live region does.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from typing import TextIO

from ..core.text import PASSAGE_LIMIT, drawable

# Commands that say their last argument and stop when ended: the first found is used.
SPEECH_COMMANDS = (("espeak-ng",), ("espeak",), ("say",), ("spd-say", "--wait"))
STOP_SECONDS = 1.0  # how long a cut-short speech command may take to end


def speech_command() -> tuple[str, ...] | None:
    """Return the first speech command installed (its words), or None when there is none."""
    for command in SPEECH_COMMANDS:
        path = shutil.which(command[0])
        if path is not None:
            return (path, *command[1:])
    return None


class Voice:
    """Prints each announcement on a line and says it with a speech command, if any."""

    def __init__(self, out: TextIO, command: Sequence[str] | None = None) -> None:
        """Prepare to announce on ``out`` and through ``command``.

        Args:
            out: where each announcement is written as a line (stdout).
            command: the speech command, the text going after its words (None: print
                only).
        """
        self.out = out
        self.command = tuple(command) if command else None
        self._speaking: subprocess.Popen[bytes] | None = None

    def say(self, text: str) -> None:
        """Print ``text`` and start saying it, cutting the last announcement short.

        A speech command that cannot start is dropped (the lines still come). What is
        said is ``drawable(text)``: a bot's error may hold NUL, which no command line
        takes, or a lone surrogate, which stdout cannot encode.

        Args:
            text: the announcement.
        """
        text = drawable(text, PASSAGE_LIMIT)
        print(text, file=self.out, flush=True)
        if self.command is None:
            return
        self.stop()
        try:
            self._speaking = subprocess.Popen([*self.command, text], stdin=subprocess.DEVNULL,
                                              stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL)
        except OSError as err:
            print(f"Oska: cannot speak with {self.command[0]} ({err})", file=self.out,
                  flush=True)
            self.command = None

    def stop(self) -> None:
        """End the announcement being said, if any (the program ends, or a new one)."""
        speaking, self._speaking = self._speaking, None
        if speaking is None or speaking.poll() is not None:
            return
        speaking.terminate()
        try:
            speaking.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            speaking.kill()
            speaking.wait()
