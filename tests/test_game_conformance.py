"""Every registered game keeps the game contract: one test suite over the whole registry.

Seeded random games on the smallest offered boards check each position against the
``Rules`` protocol and the descriptor: children and passes, the end of the game and its
result, move notation, the board's geometry, its two mirror symmetries (left-right, and
top-bottom with the colours swapped), and the evaluators' agreement with both; a side
without pieces has lost whoever is to move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from oska_gui.core.types import BLACK, WHITE, Position, Rules, Termination
from oska_gui.engine.registry import GAMES, GameInfo, game_info
from oska_gui.play.game import make_game

BOARDS = [(info.kind, n) for info in GAMES.values() for n in info.offered[:2]]
GAMES_PER_BOARD = 40


def random_games(rules: Rules, seed: int) -> Iterator[Position]:
    """Yield every position of ``GAMES_PER_BOARD`` seeded random games, ends included.

    Args:
        rules: the game's rules.
        seed: the random seed.

    Yields:
        The positions, each game from the start.
    """
    rng = random.Random(seed)
    for _ in range(GAMES_PER_BOARD):
        pos = rules.start()
        for _ply in range(4 * rules.size * rules.n):  # pieces never move back: games end
            yield pos
            kids = rules.children(pos) if rules.terminal(pos) is None else []
            if not kids:
                break
            pos = rng.choice(kids)
        else:
            raise AssertionError(f"a random game did not end: {pos}")


def cell_map(rules: Rules, info: GameInfo, flip: Callable[[int, int, int, int], tuple[int, int]]
             ) -> list[int]:
    """Return, per cell, the cell that ``flip`` (row, column, rows, row length) maps it to."""
    lengths = info.row_lengths(rules.n)
    index = {rc: cell for cell, rc in enumerate(rules.cells)}
    return [index[flip(r, c, len(lengths), lengths[r])] for r, c in rules.cells]


def mapped(mask: int, cells: list[int]) -> int:
    """Return bitboard ``mask`` with each cell moved to ``cells[cell]``."""
    return sum(1 << cells[cell] for cell in range(len(cells)) if mask >> cell & 1)


def mirror(pos: Position, cells: list[int]) -> Position:
    """Return ``pos`` reflected left to right (``cells`` from ``cell_map``)."""
    return Position(mapped(pos.white, cells), mapped(pos.black, cells), pos.turn)


def swap(pos: Position, cells: list[int]) -> Position:
    """Return ``pos`` turned upside down with the colours (and the side to move) swapped."""
    return Position(mapped(pos.black, cells), mapped(pos.white, cells), 1 - pos.turn)


def expected_result(pos: Position, rules: Rules) -> int:
    """Return +1/-1/0 for the side to move from the position's ``Outcome``."""
    outcome = rules.outcome(pos)
    assert outcome is not None
    return 0 if outcome.winner is None else 1 if outcome.winner == pos.turn else -1


@pytest.mark.parametrize(("kind", "n"), BOARDS)
def test_the_descriptor_matches_the_rules(kind: str, n: int) -> None:
    info = game_info(kind)
    rules = info.rules(n)
    lengths = info.row_lengths(n)
    assert rules.n == n and rules.size == sum(lengths) == len(rules.cells)
    assert list(rules.cells) == [(r, c) for r, length in enumerate(lengths)
                                 for c in range(length)]
    assert set(info.offered) <= set(info.sizes) and set(info.perfect_sizes) <= set(info.sizes)
    assert str(n) in info.size_text(n) and info.title in make_game(kind, n).title
    assert len({rules.cell_name(cell) for cell in range(rules.size)}) == rules.size
    start = rules.start()
    assert start.turn == 0 and start.white.bit_count() == start.black.bit_count() > 0
    assert not start.white & start.black
    for name in info.evaluators:
        assert isinstance(info.evaluator(n, name)(start), int)
    with pytest.raises(ValueError):
        info.evaluator(n, "no such evaluator")
    with pytest.raises(ValueError):
        info.check(info.sizes[0] - 1)


@pytest.mark.parametrize(("kind", "n"), BOARDS)
def test_random_play_keeps_the_contract(kind: str, n: int) -> None:
    game = make_game(kind, n)
    rules = game.rules
    for pos in random_games(rules, seed=n):
        assert rules.from_rows(rules.to_rows(pos), pos.turn) == pos
        over = rules.terminal(pos)
        kids = rules.children(pos) if over is None else []
        if over is not None or not kids:  # the end: a result for both sides and people
            assert game.children(pos) == [] and game.outcome(pos) is not None
            result = over if over is not None else rules.stuck_result
            assert expected_result(pos, rules) == result
            continue
        assert rules.outcome(pos) is None and game.children(pos) == kids
        assert all(kid.turn == 1 - pos.turn for kid in kids)
        passes = [kid for kid in kids if kid[pos.turn] == pos[pos.turn]]
        if passes:  # a pass is the only move, and only when there is no other
            assert kids == [Position(pos.white, pos.black, 1 - pos.turn)]
            assert not rules.has_move(pos) and game.pass_child(pos) == kids[0]
            continue
        assert rules.has_move(pos) and game.pass_child(pos) is None
        texts = set()
        for kid in kids:
            move = rules.move_between(pos, kid)
            mover, other = pos.turn, 1 - pos.turn
            assert game.piece_at(pos, move.frm) == mover == game.piece_at(kid, move.to)
            assert game.piece_at(kid, move.frm) is None
            if move.is_capture:
                assert game.piece_at(pos, move.over) == other
                assert game.piece_at(kid, move.over) != other  # Hexapawn lands there
            assert kid[other].bit_count() == pos[other].bit_count() - move.is_capture
            texts.add(rules.move_text(move))
        assert len(texts) == len(kids)  # every move has its own notation


@pytest.mark.parametrize(("kind", "n"), BOARDS)
def test_the_rules_and_evaluators_keep_the_board_symmetries(kind: str, n: int) -> None:
    info = game_info(kind)
    rules = info.rules(n)
    left_right = cell_map(rules, info, lambda r, c, rows, length: (r, length - 1 - c))
    top_bottom = cell_map(rules, info, lambda r, c, rows, length: (rows - 1 - r, c))
    evaluators = [info.evaluator(n, name) for name in info.evaluators]
    for pos in random_games(rules, seed=100 + n):
        for image, flip in ((mirror(pos, left_right), left_right),
                            (swap(pos, top_bottom), top_bottom)):
            reflect = mirror if flip is left_right else swap
            assert rules.terminal(image) == rules.terminal(pos)
            if rules.terminal(pos) is None:
                assert (sorted(rules.children(image))
                        == sorted(reflect(kid, flip) for kid in rules.children(pos)))
            assert [score(image) for score in evaluators] == [score(pos) for score in evaluators]


@pytest.mark.parametrize(("kind", "n"), BOARDS)
def test_a_side_without_pieces_has_lost_whoever_is_to_move(kind: str, n: int) -> None:
    game = make_game(kind, n)
    start = game.start()
    for loser, pos in ((WHITE, Position(0, start.black, WHITE)),
                       (WHITE, Position(0, start.black, BLACK)),
                       (BLACK, Position(start.white, 0, WHITE)),
                       (BLACK, Position(start.white, 0, BLACK))):
        outcome = game.outcome(pos)
        assert outcome is not None and outcome.winner == 1 - loser
        assert outcome.termination == Termination.CAPTURED and game.children(pos) == []
        assert game.rules.terminal(pos) == (-1 if pos.turn == loser else 1)
