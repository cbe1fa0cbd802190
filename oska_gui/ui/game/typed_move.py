"""Typing a move in notation ('b2-c1', 'b2xd3'): a line the '/' key opens in a game.

While the line is open every key is the line's: letters, digits, '-' and 'x' are typed,
Backspace deletes, Enter plays the move and Escape closes the line, so a typed move
never runs into the one-letter commands (N, U, Q...). '/' cannot start a command
and is on every keyboard. The line stays open after a move, for the next one.

``MoveLine`` only edits the text and keeps the last problem; the game scene reads the
move with the rules' notation parser (the same one the ``oska`` command uses) and
plays it, or shows the parser's sentence saying what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

OPEN_KEY = "/"
ENTER_KEYS = ("enter", "return")
LONGEST = 12  # characters: more than any move of the largest board (n = 24: 'ar23xat22', 9)
PROMPT = "Type a move"
KEYS_NOTE = "Enter plays it, Esc closes the line"
CARET = "_"


@dataclass(frozen=True)
class LineView:
    """What the open line shows: the ``entry`` (prompt, text, caret) and below it a
    ``note``: the problem with the last move tried (``problem``), else how to use it."""

    entry: str
    note: str
    problem: bool


class MoveLine:
    """The typed-move line: whether it is open, its text and the last problem."""

    def __init__(self) -> None:
        """Start closed and empty."""
        self.open = False
        self.text = ""
        self.problem: str | None = None
        self.refusals = 0  # moves refused so far: the same problem twice is news too

    def start(self) -> None:
        """Open the line, empty and without a problem."""
        self.open, self.text, self.problem = True, "", None

    def close(self) -> None:
        """Close the line (what was typed is dropped)."""
        self.open, self.text, self.problem = False, "", None

    def edit(self, key: str) -> bool:
        """Apply the key press ``key`` to the text (the line is open).

        Args:
            key: a ``ui.events`` key name: one character is typed, 'backspace'
                deletes the last one, other named keys are ignored.

        Returns:
            True when the text changed.
        """
        if key == "backspace":
            changed = bool(self.text)
            self.text = self.text[:-1]
        elif len(key) == 1 and key.isprintable() and not key.isspace():
            changed = len(self.text) < LONGEST
            self.text = (self.text + key)[:LONGEST]
        else:
            return False
        if changed:
            self.problem = None
        return changed

    def refuse(self, problem: str) -> None:
        """Keep ``problem`` (why the text is no move to play), the text as it is."""
        self.problem = problem
        self.refusals += 1

    def played(self) -> None:
        """Empty the line after its move was played; it stays open for the next."""
        self.text, self.problem = "", None

    def view(self, example: str) -> LineView | None:
        """Return what the line shows, or None while it is closed.

        Args:
            example: a move of the position in notation, shown (when there is no
                problem) beside how to use the line ('' when there is none).
        """
        if not self.open:
            return None
        if self.problem is not None:
            return LineView(f"{PROMPT}: {self.text}{CARET}", self.problem, True)
        like = f"Like {example}. " if example else ""
        return LineView(f"{PROMPT}: {self.text}{CARET}", f"{like}{KEYS_NOTE}", False)


def how_to(example: str) -> str:
    """Return how to use the line, with ``example`` a move of this position ('' when
    there is none) in notation."""
    like = f", like {example}" if example else ""
    return f"{PROMPT}{like}. Enter plays it, Escape closes the line"
