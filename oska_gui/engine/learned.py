"""The learned evaluator: a logistic model of winning, fitted to solved and played games.

The model says how likely the side to move is to win from its ``features.Features``:
``P(win) = sigmoid(table[bucket] + sum(weight * count))``, with the table indexed by the
race margin's bucket. The evaluator returns that logit times ``SCALE`` as an int, so
the search compares positions by their winning chances. The weights are data shipped
in the package (``weights/``, one file per model: see ``models``), made by
``python -m tools.train``: one
general model for every board size, fitted first to exact values of solved boards
(n = 4, and n = 5 with the optional solver) and to the results of self-play games on
n = 5..8, then refitted to its own deeper searches on n = 6 and 8 (``tools.distill``), and
one model for each solved board size, fitted to its exact values (a board with its own
model plays by it). The n = 4 model is also fitted to rank the leaves a two-ply search
compares (``tools.leaf_pairs``), which moves its scores away from win chances, so n = 4
ships a calibrated twin fitted to the exact values alone, which the game review reads
(``calibrated_model``). The command prints how well each predicts held-out exact
positions. The general model's weights of ``unmatched`` and ``own_exposed`` were added
later by ``python -m tools.refit`` (fitted on exact n = 4 and 5 labels with
the rest of the model held); the models of n = 4 and 5 give them 0 (their pattern
tables already see those positions: fitted the same way, the n = 4 model threw the
exact value away as often as before, or once more in 3,000 positions, at depths 2-6,
and the n = 5 weights came out near 0).

Contact scores are capped at ``LOGIT_CAP`` logits, below any decided race. On boards
of ``SQUASHED_FROM`` and more, where a side can wall many pieces in, a score beyond
the cap is squashed instead (it grows 16 times slower, up to ``LOGIT_CEILING``): cut
off, every move of a side already far ahead scored the same, and on n = 16 the
race-count bot's own walls (each +2.9 logits) left the engine indifferent to walling
itself in, which drew games it had won; squashed, the order of the scores is kept.
On n = 4 and 5 the cap stays as the models were fitted and measured.

Once the armies have passed each other the race is decided exactly (``race.Race``):
a won race scores ``PASSED_WIN`` plus a bonus for each ply it ends sooner, above any
contact-phase score, and a lost one the negative; a race nobody can finish scores 0.

The search calls the evaluator at every leaf, so ``fused.fused_evaluator`` computes the
score in one pass with the weights folded into lookup tables; ``features`` and
``patterns`` remain the definition (and what training reads), and a test checks that
both give the same scores.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.fused import Reader, fused_evaluator
from oska_gui.engine.models import (
    GENERAL,
    WEIGHTS_DIR,
    Model,
    chances_key,
    model_path,
    read_model,
)

# The model and its JSON form were defined here first: importable from here as before.
from oska_gui.engine.models import models_from_json as models_from_json
from oska_gui.engine.models import models_to_json as models_to_json
from oska_gui.engine.patterns import fold_contained, pattern_space
from oska_gui.engine.race import race_tables
from oska_gui.games.oska import OskaRules

SCALE = 1000  # evaluator units per logit unit
LOGIT_CAP = 15  # contact-phase scores stay within +/- 15,000, below any decided race
# from this board size on, a contact score beyond the cap is squashed, not cut off, and
# stays within +/- LOGIT_CEILING: still below any decided race (``fused.fused_evaluator``)
SQUASHED_FROM = 6
LOGIT_CEILING = 19
PASSED_WIN = 20_000
PLY_CAP = 1_000  # longer than any race: a decided race never scores below PASSED_WIN


@cache
def _shipped(key: str) -> Model:
    """Return the shipped model of ``key`` (a board size or ``GENERAL``), read once."""
    return read_model(model_path(WEIGHTS_DIR, key))


def shipped_model(n: int | None = None) -> Model:
    """Return the shipped model for board size ``n``: its own, else the general one.

    Only that model's file is read (see ``models``).
    """
    key = str(n)
    return _shipped(key if model_path(WEIGHTS_DIR, key).is_file() else GENERAL)


def calibrated_model(n: int) -> Model:
    """Return the shipped model whose scores are win chances on board size ``n``.

    A board whose play model was also fitted to rank search leaves (``tools.leaf_pairs``)
    ships its model fitted to the exact results alone too (``models.chances_key``): the
    ranking term moves scores away from the chance of winning, which the game review
    reads them as. Any other board's play model is its calibrated model.
    """
    key = chances_key(n)
    return _shipped(key) if model_path(WEIGHTS_DIR, key).is_file() else shipped_model(n)


@cache
def chance_evaluator(rules: OskaRules) -> Evaluator:
    """Return the learned evaluator of ``rules``' board size with its calibrated model
    (``calibrated_model``): a score is ``SCALE`` times the log odds of winning."""
    return learned_evaluator(rules, calibrated_model(rules.n))


def shipped_models() -> dict[str, Model]:
    """Return every model shipped in the package (``weights/``), by key."""
    return {path.stem: _shipped(path.stem) for path in sorted(WEIGHTS_DIR.glob("*.model"))}


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
    verdict = race_tables(rules).verdict

    def passed(pos: Position, to_go: tuple[int, int]) -> int:
        """Score a position whose armies have passed (``to_go``: White's and Black's
        rows to go): the race is decided exactly."""
        result, plies = verdict(pos, to_go)
        return result * (PASSED_WIN + PLY_CAP - plies) if result else 0

    ceiling = LOGIT_CEILING * SCALE if rules.n >= SQUASHED_FROM else None
    return fused_evaluator(rules, table, weights, _pattern_windows(rules, model),
                           LOGIT_CAP * SCALE, passed, ceiling)


def _pattern_windows(rules: OskaRules, model: Model) -> Callable[[int], tuple[Reader, ...]]:
    """Return what gives, for a side to move, each window's ``patterns.Slot`` and its
    table values (() when ``model`` has no pattern tables): what the evaluator's inner
    loop reads. A side's slots are built when it first asks (see ``fused_evaluator``).

    Windows inside others are folded into them first (``patterns.fold_contained``).
    """
    if not model.windows:
        return lambda turn: ()
    windows, tables = fold_contained(rules, model.windows, model.patterns)
    space = pattern_space(rules, windows)

    def readers(turn: int) -> tuple[Reader, ...]:
        """Return the windows' readers for ``turn`` to move."""
        return tuple((*slot, values)
                     for slot, values in zip(space.side_slots(turn), tables, strict=True))

    return readers
