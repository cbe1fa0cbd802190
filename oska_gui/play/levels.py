"""The computer's strength, defined once: the named levels and the AI written as text.

``LEVELS`` is the one table that the settings, the start screen, ``--ai`` of the
commands and tournaments read. A ``Level`` is a search depth, a thinking-time budget
or the exact solver. ``parse_ai`` reads the AI as the commands write it: ``4`` (depth
4), ``2.5s`` (2.5 seconds a move) or a level's key (``hard``), each optionally with
``:EVALUATOR``; the ``Ai`` it returns names itself the same way everywhere (records,
standings, the window).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from oska_gui.core.numbers import finite_positive
from oska_gui.engine.evaluators import DEFAULT_EVALUATOR, EVALUATORS

MAX_DEPTH = 64
ENDGAME_POSITIONS = 30_000  # the most positions the 'strongest' level solves exactly
# Try the endgame solver only when both sides together have at most this many rows
# still to travel: measured on random Oska positions, more rarely fits the budget and
# trying costs the budget's worth of work.
ENDGAME_RACE = 24
PERFECT_POSITIONS = 2_000_000
HINT_SECONDS = 1.0  # all the thinking a hint may take


class LevelKey(StrEnum):
    """The keys of ``LEVELS`` (what settings store), and the side an external bot plays."""

    BEGINNER = "beginner"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"
    MASTER = "master"
    STRONGEST = "strongest"
    PERFECT = "perfect"
    EXTERNAL = "external"  # not a level: a side played by an external bot (desktop only)


@dataclass(frozen=True)
class Level:
    """A named strength: a search depth, a thinking-time budget, or the exact solver.

    ``depth`` caps the search; ``seconds`` (if set) is the thinking time; ``solve`` is the
    most positions the exact solver may take on before the search is used instead, and
    ``solve_race`` (if set) the most rows left to travel at which it is worth trying.
    """

    key: str
    name: str
    depth: int = MAX_DEPTH
    seconds: float | None = None
    solve: int = 0
    solve_race: int | None = None

    @property
    def perfect(self) -> bool:
        """Return True when the level plays by the exact solver from the start."""
        return self.solve >= PERFECT_POSITIONS

    def describe(self) -> str:
        """Return how the level plays in a player's words, e.g. 'looks 5 moves ahead',
        'thinks up to 2 s' or 'plays perfectly' (the commands' ``Ai.describe`` keeps the
        search's terms)."""
        if self.perfect:
            return "plays perfectly"
        if self.seconds is not None:
            return f"thinks up to {self.seconds:g} s"
        return f"looks {self.depth} move{'' if self.depth == 1 else 's'} ahead"

    def brief(self) -> str:
        """Return ``describe`` in the fewest words, for a narrow player card: '5 moves',
        'up to 2 s', or '' for the perfect level (its name says it)."""
        if self.perfect:
            return ""
        if self.seconds is not None:
            return f"up to {self.seconds:g} s"
        return f"{self.depth} move{'' if self.depth == 1 else 's'}"


LEVELS = (
    Level(LevelKey.BEGINNER, "Beginner", depth=1),
    Level(LevelKey.EASY, "Easy", depth=2),
    Level(LevelKey.MEDIUM, "Medium", depth=3),
    Level(LevelKey.HARD, "Hard", depth=5),
    Level(LevelKey.EXPERT, "Expert", depth=7),
    Level(LevelKey.MASTER, "Master", seconds=2.0),
    Level(LevelKey.STRONGEST, "Strongest", seconds=6.0, solve=ENDGAME_POSITIONS,
          solve_race=ENDGAME_RACE),
    Level(LevelKey.PERFECT, "Perfect", seconds=6.0, solve=PERFECT_POSITIONS),
)
LEVELS_BY_KEY = {level.key: level for level in LEVELS}
HINT_LEVEL = Level("hint", "Hint", seconds=HINT_SECONDS, solve=ENDGAME_POSITIONS,
                   solve_race=ENDGAME_RACE)


def levels_for(perfect_available: bool) -> tuple[Level, ...]:
    """Return the levels offered on a board ('perfect' only where the solver is exact).

    Args:
        perfect_available: whether the exact solver covers the board from the start.

    Returns:
        The levels, weakest first.
    """
    return tuple(level for level in LEVELS if not level.perfect or perfect_available)


def playable_level(key: str, perfect_available: bool) -> Level:
    """Return the level called ``key``; 'perfect' where the solver is not exact is
    'strongest'.

    Args:
        key: a key of ``LEVELS_BY_KEY``.
        perfect_available: whether the exact solver covers the board from the start.

    Returns:
        The level.

    Raises:
        ValueError: for an unknown key.
    """
    if key not in LEVELS_BY_KEY:
        raise ValueError(f"unknown level {key!r:.80}; choose one of {list(LEVELS_BY_KEY)}")
    level = LEVELS_BY_KEY[key]
    if level.perfect and not perfect_available:
        return LEVELS_BY_KEY[LevelKey.STRONGEST]
    return level


@dataclass(frozen=True)
class Ai:
    """This project's AI as the commands give it: a level (named or made from a depth
    or a time per move) and an evaluator."""

    level: Level
    evaluator: str = DEFAULT_EVALUATOR

    def describe(self) -> str:
        """Return e.g. 'AI depth 4 (strong)', 'AI 2 s/move (strong)', 'AI level hard (strong)'."""
        level = self.level
        if level.key in LEVELS_BY_KEY:
            how = f"level {level.key}"
        elif level.seconds is not None:
            how = f"{level.seconds:g} s/move"
        else:
            how = f"depth {level.depth}"
        return f"AI {how} ({self.evaluator})"


def ai_help() -> str:
    """Return how an AI is written, for the commands' help texts."""
    keys = list(LEVELS_BY_KEY)
    return f"""\
an AI is written as:
  DEPTH[:EVALUATOR]     search exactly DEPTH plies, e.g. 4 or 6:simple
  SECONDSs[:EVALUATOR]  think about SECONDS per move, e.g. 2s or 0.5s:strong
  LEVEL[:EVALUATOR]     a level of the window: {', '.join(keys[:5])},
                        {', '.join(keys[5:])}
  evaluators: {', '.join(sorted(EVALUATORS))}
"""


def parse_ai(text: str, evaluator: str = DEFAULT_EVALUATOR) -> Ai:
    """Read an AI: 'DEPTH', 'SECONDSs' or 'LEVEL', each optionally ':EVALUATOR'.

    Args:
        text: the spec, e.g. '5', '5:simple', '1.5s', 'hard', 'expert:strong'.
        evaluator: the evaluator when the spec names none.

    Returns:
        The Ai.

    Raises:
        ValueError: the spec cannot be read (the message says how to write one).
    """
    how, _, named = text.strip().lower().partition(":")
    evaluator = named or evaluator
    if evaluator not in EVALUATORS:
        raise ValueError(f"unknown evaluator {evaluator!r:.80} in {text!r:.80}; "
                         f"choose one of {', '.join(sorted(EVALUATORS))}")
    if _is_positive_int(how):
        return Ai(Level("depth", f"depth {how}", depth=int(how)), evaluator)
    seconds = _positive_seconds(how)
    if seconds is not None:
        return Ai(Level("time", f"{seconds:g} s/move", seconds=seconds), evaluator)
    if how in LEVELS_BY_KEY:
        return Ai(LEVELS_BY_KEY[how], evaluator)
    raise ValueError(f"cannot read the AI {text!r:.80}: give a depth (4), a time per move "
                     f"(2s) or a level ({', '.join(LEVELS_BY_KEY)}), optionally ':evaluator'")


def _is_positive_int(text: str) -> bool:
    """Return True when ``text`` is an int >= 1 in ASCII digits (not '²', not 5,000 digits)."""
    try:
        return text.isascii() and text.isdigit() and int(text) >= 1
    except ValueError:  # more digits than int() reads
        return False


def _positive_seconds(text: str) -> float | None:
    """Return the seconds of 'SECONDSs' ('2s', '0.5s') if finite and > 0, else None."""
    return finite_positive(text[:-1]) if text.endswith("s") else None
