"""The learned evaluator: a logistic model of winning, fitted to solved and played games.

The model says how likely the side to move is to win from its ``features.Features``:
``P(win) = sigmoid(table[bucket] + sum(weight * count))``, with the table indexed by the
race margin's bucket. The evaluator returns that logit times ``SCALE`` as an int, so
the search compares positions by their winning chances. The weights are data shipped
in the package (``learned_weights.json``), made by ``python -m oska_gui.tools.train``: one
general model for every board size, fitted first to exact values of solved boards
(n = 4, and n = 5 with the optional solver) and to the results of self-play games on
n = 5..8, then refitted to its own deeper searches on n = 6 and 8 (``tools.distill``), and
one model for each solved board size, fitted to its exact values alone (a board with
its own model plays by it). The command prints how well each predicts held-out exact
positions.

Once the armies have passed each other the race is decided exactly (``race.Race``):
a won race scores ``PASSED_WIN`` plus a bonus for each ply it ends sooner, above any
contact-phase score, and a lost one the negative; a race nobody can finish scores 0.

The search calls the evaluator at every leaf, so ``fused.fused_evaluator`` computes the
score in one pass with the weights folded into lookup tables; ``features`` and
``patterns`` remain the definition (and what training reads), and a test checks that
both give the same scores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.features import BUCKETS, NAMES, feature_space
from oska_gui.engine.fused import Reader, fused_evaluator
from oska_gui.engine.patterns import Window, fold_contained, pattern_space, window_sizes
from oska_gui.engine.race import race_tables
from oska_gui.games.oska import OskaRules

SCALE = 1000  # evaluator units per logit unit
LOGIT_CAP = 15  # contact-phase scores stay within +/- 15,000, below any decided race
PASSED_WIN = 20_000
PLY_CAP = 1_000  # longer than any race: a decided race never scores below PASSED_WIN
WEIGHTS_FILE = "learned_weights.json"


@dataclass(frozen=True)
class Model:
    """The learned weights: one value per margin bucket and one per feature count.

    A model of one board size may also hold pattern tables (``patterns.PatternSpace``):
    its ``windows``, and for each a tuple of values indexed by the window's contents,
    in evaluator units (thousandths of a logit, whole numbers: the tables are large).
    """

    table: tuple[float, ...]
    weights: tuple[float, ...]
    windows: tuple[Window, ...] = ()
    patterns: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        """Check the sizes against the feature space; raises ValueError if they differ."""
        if len(self.table) != BUCKETS or len(self.weights) != len(NAMES):
            raise ValueError(f"a model needs {BUCKETS} table values and {len(NAMES)} weights, "
                             f"got {len(self.table)} and {len(self.weights)}")
        if len(self.windows) != len(self.patterns):
            raise ValueError(f"{len(self.windows)} windows need as many pattern tables, "
                             f"got {len(self.patterns)}")

    def check_patterns(self, rules: OskaRules) -> None:
        """Raise ValueError unless the pattern tables fit ``rules``' board (or are none)."""
        if not self.windows:
            return
        sizes = window_sizes(rules, self.windows)
        if tuple(map(len, self.patterns)) != sizes:
            raise ValueError(f"pattern tables {self.windows} on n = {rules.n} need "
                             f"sizes {sizes}, got {tuple(map(len, self.patterns))}")

    def to_json(self) -> dict:
        """Return the model as a JSON-ready dict, the weights named after their features."""
        data: dict = {"table": list(self.table),
                      "weights": dict(zip(NAMES, self.weights, strict=True))}
        if self.windows:
            data["pattern_windows"] = [list(window) for window in self.windows]
            data["patterns"] = [list(values) for values in self.patterns]
        return data

    @classmethod
    def from_json(cls, data: dict) -> Model:
        """Return the model stored by ``to_json``; raises ValueError if it does not fit."""
        weights = data["weights"]
        if set(weights) != set(NAMES):
            raise ValueError(f"the weights must be named {NAMES}")
        windows = tuple((int(first), int(rows)) for first, rows in data.get("pattern_windows", ()))
        patterns = tuple(tuple(map(int, values)) for values in data.get("patterns", ()))
        return cls(tuple(map(float, data["table"])), tuple(float(weights[n]) for n in NAMES),
                   windows, patterns)


GENERAL = "any"  # the key of the model for board sizes without one of their own


def models_to_json(models: dict[str, Model]) -> dict:
    """Return the models by board size (or ``GENERAL``) as a JSON-ready dict."""
    return {"models": {key: model.to_json() for key, model in models.items()}}


def models_from_json(data: dict) -> dict[str, Model]:
    """Return the models stored by ``models_to_json``; raises ValueError if malformed."""
    models = {key: Model.from_json(value) for key, value in data["models"].items()}
    if GENERAL not in models:
        raise ValueError(f"the weights need a general model under {GENERAL!r}")
    return models


@cache
def shipped_models() -> dict[str, Model]:
    """Return the models shipped in the package (``learned_weights.json``), by key."""
    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return models_from_json(json.loads(text))


def shipped_model(n: int | None = None) -> Model:
    """Return the shipped model for board size ``n``: its own, else the general one."""
    models = shipped_models()
    return models.get(str(n), models[GENERAL])


def learned_evaluator(rules: OskaRules, model: Model | None = None) -> Evaluator:
    """Return the learned evaluator for ``rules``' board size.

    Args:
        rules: the board size's rules.
        model: the weights; None for the shipped ones of this board size.

    Returns:
        ``evaluate(pos) -> int``, the score for the side to move (see the module text).
    """
    model = model or shipped_model(rules.n)
    model.check_patterns(rules)
    table = tuple(round(SCALE * value) for value in model.table)
    weights = tuple(round(SCALE * value) for value in model.weights)
    race = race_tables(rules)
    verdict, rows_to_go = race.verdict, feature_space(rules).lay.rows_to_go

    def passed(pos: Position) -> int:
        """Score a position whose armies have passed: the race is decided exactly."""
        result, plies = verdict(pos, rows_to_go(pos[0], pos[1]))
        return result * (PASSED_WIN + PLY_CAP - plies) if result else 0

    return fused_evaluator(rules, table, weights, _pattern_windows(rules, model),
                           LOGIT_CAP * SCALE, passed)


def _pattern_windows(rules: OskaRules, model: Model) -> tuple[tuple[Reader, ...], ...]:
    """Return, per side to move, each window's ``patterns.Slot`` and its table values,
    or () when ``model`` has no pattern tables: what the evaluator's inner loop reads.

    Windows inside others are folded into them first (``patterns.fold_contained``).
    """
    if not model.windows:
        return ()
    windows, tables = fold_contained(rules, model.windows, model.patterns)
    space = pattern_space(rules, windows)
    return tuple(tuple((*slot, values) for slot, values in zip(slots, tables, strict=True))
                 for slots in space.slots)
