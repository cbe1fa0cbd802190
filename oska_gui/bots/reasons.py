"""Why a bot's call failed, in words, and the error of a bot that does not load.

Kept apart from the process machinery (``bot_process``) so that the players, which the
browser ships too, can name forfeits without importing processes or threads.
"""

from __future__ import annotations

# Why a call failed, by status; 'illegal' and 'malformed' are given by the judge of a
# returned board (``external.judge_move``), the others by the process.
REASONS = {
    "illegal": "returned a board that no legal move produces",
    "malformed": "returned something that is not a board of the right form",
    "exception": "raised an exception",
    "timeout": "did not answer within the time limit",
    "crash": "the bot's process died or the bot called sys.exit",
    "load": "the bot file could not be loaded or lacks the function",
    "unplain": "returned something that is not plain lists, strings and numbers",
}


class LoadError(Exception):
    """The bot file cannot be loaded, or it lacks the function asked for.

    Its message is one line. ``traceback`` holds the bot's whole traceback when the bot
    raised while loading (cut as its host cuts every traceback), else ''.
    """

    def __init__(self, message: str, traceback: str = "") -> None:
        """Keep the one-line ``message`` and the bot's ``traceback`` ('' for none)."""
        super().__init__(message)
        self.traceback = traceback
