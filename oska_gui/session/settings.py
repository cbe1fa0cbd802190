"""The player's choices, remembered between runs through a tiny storage protocol.

Each front end supplies a ``Storage`` (``load() -> dict``, ``save(dict)``,
``set_aside()`` for what cannot be used): a JSON file on the desktop, ``localStorage``
in the browser, ``MemoryStorage`` in tests. Settings read back are checked value by
value: anything unknown or out of range falls back to its default, so a hand-edited or
outdated file never stops the game.

The stored form is versioned (``VERSION``): version 2 names the sides ('white',
'black') where version 1 (no version key) used list positions 0 and 1; ``migrate``
reads version-1 data, so choices saved by earlier releases are kept.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from oska_gui.core.types import SIDE_WORDS
from oska_gui.engine.registry import GAMES, GameKind, game_info
from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey, playable_level

VERSION = 2  # of the stored form: see the module docstring
T = TypeVar("T")


class Mode(StrEnum):
    """Who plays: you against the computer, computer against computer, or two people."""

    HVC = "hvc"
    CVC = "cvc"
    HVH = "hvh"


class Animation(StrEnum):
    """How fast moves are animated, fastest (none) first."""

    OFF = "off"
    FAST = "fast"
    NORMAL = "normal"
    SLOW = "slow"


class Pace(StrEnum):
    """How long the computer waits between moves in computer-vs-computer games."""

    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"
    INSTANT = "instant"


ANIMATION_FACTORS = {Animation.OFF: 0.0, Animation.FAST: 0.55, Animation.NORMAL: 1.0,
                     Animation.SLOW: 1.8}
PACE_DELAYS = {Pace.SLOW: 1.4, Pace.NORMAL: 0.6, Pace.FAST: 0.15, Pace.INSTANT: 0.0}
EVALUATOR_KEYS = tuple(dict.fromkeys(name for info in GAMES.values() for name in info.evaluators))


class Storage(Protocol):
    """Where settings live between runs; each front end implements it."""

    def load(self) -> dict:
        """Return the saved settings, or an empty dict when there are none."""

    def save(self, settings: dict) -> None:
        """Keep ``settings`` (a dict of JSON values) for the next run."""

    def set_aside(self) -> str:
        """Move what is kept out of the way, where a person can still find it (so
        that the next run starts without it); return where it went ('' if nowhere)."""


class MemoryStorage:
    """Settings kept in memory only (tests, or when nothing can be saved)."""

    def __init__(self, data: dict | None = None) -> None:
        """Start with a copy of ``data`` (or nothing) as the saved settings."""
        self.data = dict(data or {})
        self.saves = 0
        self.aside: dict | None = None  # what ``set_aside`` moved out of the way

    def load(self) -> dict:
        """Return a copy of the saved settings."""
        return dict(self.data)

    def save(self, settings: dict) -> None:
        """Replace the saved settings with a copy of ``settings``."""
        self.data = dict(settings)
        self.saves += 1

    def set_aside(self) -> str:
        """Keep the saved settings in ``aside`` and none as saved; return 'memory'."""
        self.aside, self.data = self.data, {}
        return "memory"


def with_side(pair: tuple[T, T], side: int, value: T) -> tuple[T, T]:
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
    the sides the computer plays (the level ``LevelKey.EXTERNAL``: an external bot given
    on the command line); ``human_side`` matters in human-vs-computer games;
    ``coordinates`` shows the cell names on the board; ``sound`` plays the move and
    game-end sounds; ``turned`` shows the board the other way up from its usual one
    (your side at the bottom), as the F key last left it. The App owns the one
    current ``Settings``; scenes ask it for changes (``intents.Choose``).
    """

    kind: GameKind = GameKind.OSKA
    n: int = 4
    mode: Mode = Mode.HVC
    human_side: int = 0
    levels: tuple[LevelKey, LevelKey] = (LevelKey.HARD, LevelKey.HARD)
    evaluators: tuple[str, str] = ("strong", "strong")
    animation: Animation = Animation.NORMAL
    pace: Pace = Pace.NORMAL
    coordinates: bool = False
    sound: bool = True
    turned: bool = False

    def to_dict(self) -> dict:
        """Return the settings as a dict of JSON values, in the stored form ``VERSION``."""
        data = asdict(self)
        data["version"] = VERSION
        data["human_side"] = SIDE_WORDS[self.human_side]
        data["levels"] = dict(zip(SIDE_WORDS, self.levels, strict=True))
        data["evaluators"] = dict(zip(SIDE_WORDS, self.evaluators, strict=True))
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Settings:
        """Return settings read from ``data`` (any stored version), each bad or missing
        value as its default."""
        if not isinstance(data, dict):
            return cls()
        data = migrate(data)
        default = cls()
        values = {f.name: _checked(f.name, data.get(f.name), getattr(default, f.name))
                  for f in fields(cls)}
        settings = cls(**values)
        info = game_info(settings.kind)
        if settings.n not in info.sizes:
            settings = replace(settings, n=info.offered[0])
        return settings.settled()

    def with_game(self, kind: GameKind) -> Settings:
        """Return these settings for the game ``kind`` at its classic size (its first
        offered one: Oska 4, Hexapawn 3), made consistent as ``settled`` does."""
        return replace(self, kind=kind, n=game_info(kind).offered[0]).settled()

    def settled(self) -> Settings:
        """Return these settings made consistent: the board size within the game's
        sizes (the nearest one), and a 'perfect' level where perfect play is not at hand
        from the start as 'strongest' (a side played by an external bot stays so)."""
        sizes = game_info(self.kind).sizes
        n = self.n if self.n in sizes else min(sizes, key=lambda size: abs(size - self.n))
        perfect = make_game(self.kind, n).perfect_available
        levels = tuple(key if key == LevelKey.EXTERNAL
                       else LevelKey(playable_level(key, perfect).key) for key in self.levels)
        return replace(self, n=n, levels=(levels[0], levels[1]))

    def computer_sides(self) -> tuple[int, ...]:
        """Return the sides (WHITE = 0, BLACK = 1) the computer plays."""
        if self.mode == Mode.CVC:
            return (0, 1)
        if self.mode == Mode.HVC:
            return (1 - self.human_side,)
        return ()


def migrate(data: dict) -> dict:
    """Return stored settings ``data`` in the current stored form.

    Version 1 (no ``version`` key) kept ``human_side`` as 0 or 1 and ``levels`` and
    ``evaluators`` as two-item lists, White's first; version 2 names the sides. Values
    that are not of the old shape are passed on as they are (the checks drop them).

    Args:
        data: the stored dict, of any version.

    Returns:
        A new dict in the form of ``VERSION``.
    """
    if "version" in data:
        return dict(data)
    new = dict(data, version=VERSION)
    side = data.get("human_side")
    if type(side) is int and side in (0, 1):
        new["human_side"] = SIDE_WORDS[side]
    for key in ("levels", "evaluators"):
        pair = data.get(key)
        if isinstance(pair, list) and len(pair) == 2:
            new[key] = dict(zip(SIDE_WORDS, pair, strict=True))
    return new


def _one_of(value: Any, allowed: tuple[Any, ...], default: Any) -> Any:
    """Return the item of ``allowed`` equal to the stored string ``value``, else ``default``."""
    if isinstance(value, str) and value in allowed:
        return allowed[allowed.index(value)]
    return default


def _pair(value: Any, allowed: tuple[Any, ...], default: tuple[Any, Any]) -> tuple[Any, Any]:
    """Return ``value`` ({'white': name, 'black': name}) as a pair of items of
    ``allowed``, or ``default`` if it is not one."""
    if not isinstance(value, dict):
        return default
    white, black = (_one_of(value.get(word), allowed, None) for word in SIDE_WORDS)
    return default if white is None or black is None else (white, black)


CHOICES: dict[str, tuple[Any, ...]] = {"kind": tuple(GameKind), "mode": tuple(Mode),
                                       "animation": tuple(Animation), "pace": tuple(Pace)}


def _checked(name: str, value: Any, default: Any) -> Any:
    """Return ``value`` if it is valid for the setting ``name``, else ``default``."""
    if name in CHOICES:
        return _one_of(value, CHOICES[name], default)
    if name == "levels":
        return _pair(value, tuple(LevelKey), default)
    if name == "evaluators":
        return _pair(value, EVALUATOR_KEYS, default)
    if name == "n":
        sizes = {n for info in GAMES.values() for n in info.sizes}
        return value if type(value) is int and value in sizes else default
    if name == "human_side":
        side = _one_of(value, SIDE_WORDS, None)
        return default if side is None else SIDE_WORDS.index(side)
    if name in ("coordinates", "sound", "turned"):
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
