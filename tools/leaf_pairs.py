"""Pairs of search leaves for training a board's model: what a search compares at its horizon.

A search two plies deep chooses between moves by the score of each move's expected
reply: the position after the opponent's best answer, as the model sees it. The model
throws the value away when the leaf behind a losing move scores higher than the leaf
behind a move that keeps the value, however well it predicts each position's result
on its own. So for positions where the choice matters (exact values of every move
known), ``leaf_pairs`` finds each move's reply leaf by the model that plays the board
now, and pairs the leaf of every losing move with the leaf of every value-keeping move:
the first should score lower than the second for the mover (``train.fit_tables``
ranks such pairs). Fitted with the pairs of every such position, the n = 4 model threw
the value away at depth 2 in 1.0 % of the positions where the choice matters, not 2.2 %
(with a labels-only twin for the game review's win chances: docs/training.md says
why).

A deeper search compares deeper leaves: ``plies`` 3 pairs the ends of the principal
lines of two-ply searches below each move (the opponent to move there, so the order of
the pair turns round), and so on. The n = 4 model that ships ranks both: it loses the
value more rarely with every ply of search (at depth 3 in 0.77 % of the positions; 1.13
% with the replies alone, more than at depth 2). On n = 5, a model with wider pattern
windows fitted with the pairs of leaves 2 and 3 plies deep kept the value at every
depth from 2 to 10, but so did the same windows fitted to the labels alone, which ships
(see "Choices per depth" in docs/strength.md).

The leaves are positions in contact (a finished game or a decided race is scored
exactly, nothing to fit), never held out (``exact_dataset.is_held_out``), with an exact
result known.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.exact_dataset import is_held_out
from oska_gui.engine.features import feature_space
from oska_gui.engine.search import AlphaBeta, run
from oska_gui.games.oska import OskaRules

FINISHED = 10 ** 6  # a finished game's score for the side to move, per result: beyond any leaf


def reply_leaf(rules: OskaRules, evaluate: Evaluator, child: Position) -> Position | None:
    """Return the reply to ``child`` the model expects: the position after the move of
    ``child``'s side to move that scores lowest for the side to move there.

    None when ``child`` allows no move, or that reply finishes the game.
    """
    best, leaf = None, None
    for reply in rules.children(child):
        result = rules.terminal(reply)
        score = result * FINISHED if result is not None else evaluate(reply)
        if best is None or score < best:
            best, leaf = score, reply
    return None if leaf is None or rules.terminal(leaf) is not None else leaf


def expected_leaf(rules: OskaRules, evaluate: Evaluator, child: Position,
                  plies: int) -> Position | None:
    """Return the position ``plies`` below ``child`` that the model expects: ``child``
    itself for 0 plies, its reply (``reply_leaf``) for 1 ply, else the end of the
    principal line of a search of ``child`` that many plies deep.

    None when that line is shorter (a side is stuck, or the game ends) or ends in a
    finished game.
    """
    if plies == 0:
        return child
    if plies == 1:
        return reply_leaf(rules, evaluate, child)
    searcher = AlphaBeta(rules, evaluate)
    run(searcher.search(child, plies))
    line = searcher.line(child, plies)
    return line[-1] if len(line) == plies and rules.terminal(line[-1]) is None else None


def leaf_pairs(rules: OskaRules, evaluate: Evaluator, roots: Sequence[Position],
               exact: Callable[[Position], int | None], count: int,
               seed: int, plies: int = 2) -> tuple[list[Position], list[int], np.ndarray]:
    """Return the expected leaves ``plies`` below up to ``count`` of ``roots``, and
    their pairs.

    Args:
        rules: the board's rules.
        evaluate: the model choosing the replies (the one playing the board now).
        roots: positions to look at, drawn in a seeded order; kept where the choice
            matters (the moves' exact results differ) and not held out.
        exact: the exact result of a position for its side to move, None if unknown.
        count: how many roots to keep at most.
        seed: the seed of the order.
        plies: how far below a root its leaves are (``expected_leaf`` of each move):
            1 for the moves themselves, which a one-ply search compares, 2 for the
            replies a two-ply search compares.

    Returns:
        (leaves, their exact results, pairs): each leaf once; pairs are rows of two
        leaf numbers, the one that should score lower for its side to move first. With
        the root's mover to move there (an even ``plies``) that is the leaf behind a
        losing move, and the leaf behind a move that keeps the value second; with the
        opponent to move (odd), the other way round.

    Raises ValueError for ``plies`` below 1.
    """
    if plies < 1:
        raise ValueError(f"leaves are at least 1 ply below their root, not {plies}")
    space = feature_space(rules)
    order = list(range(len(roots)))
    random.Random(seed).shuffle(order)
    numbers: dict[Position, int] = {}
    results: list[int] = []
    pairs: list[tuple[int, int]] = []
    kept = 0
    for i in order:
        if kept == count:
            break
        root = roots[i]
        kids = rules.real_children(root)
        values = [exact(kid) for kid in kids]
        if len(kids) < 2 or None in values or len(set(values)) < 2 or is_held_out(rules, root):
            continue
        kept += 1
        best = min(value for value in values if value is not None)  # the opponent's worst
        good: list[int] = []
        bad: list[int] = []
        for kid, value in zip(kids, values, strict=True):
            leaf = (expected_leaf(rules, evaluate, kid, plies - 1)
                    if rules.terminal(kid) is None else None)
            if leaf is None or space.features(leaf) is None or is_held_out(rules, leaf):
                continue
            if leaf not in numbers:
                result = exact(leaf)
                if result is None:
                    continue
                numbers[leaf] = len(results)
                results.append(result)
            (good if value == best else bad).append(numbers[leaf])
        if plies % 2:
            good, bad = bad, good  # the opponent is to move at the leaves
        pairs += [(low, high) for low in bad for high in good if low != high]
    return list(numbers), results, np.array(pairs, dtype=np.int64).reshape(-1, 2)
