"""The player's choices, remembered between runs through a tiny storage protocol.

Each front end supplies a ``Storage`` (``load() -> dict``, ``save(dict)``): a JSON file
on the desktop, ``localStorage`` in the browser, ``MemoryStorage`` in tests. Settings
read back are checked value by value: anything unknown or out of range falls back to
its default, so a hand-edited or outdated file never stops the game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Protocol

from oska_gui.engine.registry import GAMES, GameKind, game_info

HVC, CVC, HVH = "hvc", "cvc", "hvh"
MODES = (HVC, CVC, HVH)
ANIMATIONS = ("off", "fast", "normal", "slow")
ANIMATION_FACTORS = {"off": 0.0, "fast": 0.55, "normal": 1.0, "slow": 1.8}
PACES = ("slow", "normal", "fast", "instant")
PACE_DELAYS = {"slow": 1.4, "normal": 0.6, "fast": 0.15, "instant": 0.0}
EXTERNAL = "external"  # the level of a side played by an external bot (desktop only)
LEVEL_KEYS = ("beginner", "easy", "medium", "hard", "expert", "master", "strongest",
              "perfect", EXTERNAL)
EVALUATOR_KEYS = ("strong", "classic", "simple", "race")


class Storage(Protocol):
    """Where settings live between runs; each front end implements it."""

    def load(self) -> dict:
        """Return the saved settings, or an empty dict when there are none."""

    def save(self, settings: dict) -> None:
        """Keep ``settings`` (a dict of JSON values) for the next run."""


class MemoryStorage:
    """Settings kept in memory only (tests, or when nothing can be saved)."""

    def __init__(self, data: dict | None = None) -> None:
        """Start with a copy of ``data`` (or nothing) as the saved settings."""
        self.data = dict(data or {})
        self.saves = 0

    def load(self) -> dict:
        """Return a copy of the saved settings."""
        return dict(self.data)

    def save(self, settings: dict) -> None:
        """Replace the saved settings with a copy of ``settings``."""
        self.data = dict(settings)
        self.saves += 1


def with_side(pair: tuple[str, str], side: int, value: str) -> tuple[str, str]:
    """Return a per-side pair (index WHITE = 0, BLACK = 1) with ``side``'s value changed.

    Args:
        pair: the values of both sides, e.g. ``Settings.levels``.
        side: the side whose value changes.
        value: its new value.

    Returns:
        The new pair.
    """
    return (value, pair[1]) if side == 0 else (pair[0], value)


@dataclass(frozen=True)
class Settings:
    """Everything the start screen chooses, plus display preferences.

    ``levels`` and ``evaluators`` are per side (index WHITE = 0, BLACK = 1) and used for
    the sides the computer plays (the level ``EXTERNAL``: an external bot given on the
    command line); ``human_side`` matters in human-vs-computer games; ``coordinates``
    shows the cell names on the board; ``sound`` plays the move and game-end sounds.
    """

    kind: str = GameKind.OSKA
    n: int = 4
    mode: str = HVC
    human_side: int = 0
    levels: tuple[str, str] = ("hard", "hard")
    evaluators: tuple[str, str] = ("strong", "strong")
    animation: str = "normal"
    pace: str = "normal"
    coordinates: bool = False
    sound: bool = True

    def to_dict(self) -> dict:
        """Return the settings as a dict of JSON values."""
        data = asdict(self)
        data["levels"] = list(self.levels)
        data["evaluators"] = list(self.evaluators)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Settings:
        """Return settings read from ``data``, each bad or missing value as its default."""
        if not isinstance(data, dict):
            return cls()
        default = cls()
        values = {f.name: _checked(f.name, data.get(f.name), getattr(default, f.name))
                  for f in fields(cls)}
        settings = cls(**values)
        sizes = game_info(settings.kind).offered
        if settings.n not in sizes:
            settings = replace(settings, n=sizes[0])
        return settings

    def with_display_of(self, other: Settings) -> Settings:
        """Return these settings with the display preferences (animation, pace, cell
        names, sound) of ``other``: what a game screen may change without a new game."""
        return replace(self, animation=other.animation, pace=other.pace,
                       coordinates=other.coordinates, sound=other.sound)

    def computer_sides(self) -> tuple[int, ...]:
        """Return the sides (WHITE = 0, BLACK = 1) the computer plays."""
        if self.mode == CVC:
            return (0, 1)
        if self.mode == HVC:
            return (1 - self.human_side,)
        return ()


def _pair(value: Any, allowed: tuple[str, ...], default: tuple[str, str]) -> tuple[str, str]:
    """Return ``value`` as a pair of allowed names, or ``default`` if it is not one."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(v in allowed for v in value):
        return (value[0], value[1])
    return default


def _checked(name: str, value: Any, default: Any) -> Any:
    """Return ``value`` if it is valid for the setting ``name``, else ``default``."""
    choices = {"kind": tuple(GAMES), "mode": MODES, "animation": ANIMATIONS, "pace": PACES}
    if name in choices:
        return value if value in choices[name] else default
    if name == "levels":
        return _pair(value, LEVEL_KEYS, default)
    if name == "evaluators":
        return _pair(value, EVALUATOR_KEYS, default)
    if name == "n":
        sizes = {n for info in GAMES.values() for n in info.offered}
        return value if type(value) is int and value in sizes else default
    if name == "human_side":
        return value if value in (0, 1) and type(value) is int else default
    if name in ("coordinates", "sound"):
        return value if isinstance(value, bool) else default
    return default


def load_settings(storage: Storage) -> Settings:
    """Return the settings kept in ``storage`` (defaults if it fails or holds junk)."""
    try:
        data = storage.load()
    except Exception:  # a broken store costs the saved choices, never the game
        return Settings()
    return Settings.from_dict(data)


def save_settings(storage: Storage, settings: Settings) -> None:
    """Keep ``settings`` in ``storage``; a store that fails is ignored (nothing to do)."""
    try:
        storage.save(settings.to_dict())
    except Exception:  # the game goes on without saving, as with private browsing
        return
