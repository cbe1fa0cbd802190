"""Tests of the alpha-beta search (``oska_gui.engine.search``) against plain minimax.

The reference is a plain negamax written here: no pruning, no table, no move ordering,
game ends scored ``result * (WIN - ply)`` and a position without moves scored
``stuck_result * (WIN - ply)``, like the search. On random reachable Oska positions
and on random little game graphs (cycles, transpositions, ties), the search's root
score must equal the reference and the child it picks must be worth that score.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from oska_gui.engine import search
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.search import WIN, AlphaBeta, Thinker, analyse, plies_to_end, run
from oska_gui.games.oska import OskaRules, Position, oska_rules

EVALUATOR_NAMES = ("simple", "strong", "weird")
MAX_TREE = 20_000  # nodes of the plain minimax tree a random case may cost


def slow(examples: int) -> settings:
    """Return hypothesis settings for ``examples`` cases that may each take a while."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# -- the reference -----------------------------------------------------------------


def plain_minimax(game: Any, evaluate: Callable[[Any], int], state: Any, depth: int,
                  ply: int = 0) -> int:
    """Return the negamax value of ``state`` for the side to move, ``depth`` plies deep.

    ``ply`` is the distance of ``state`` from the root, which game ends are scored by.
    """
    result = game.terminal(state)
    if result is not None:
        return result * (WIN - ply)
    if depth == 0:
        return evaluate(state)
    kids = game.children(state)
    if not kids:
        return game.stuck_result * (WIN - ply)
    return max(-plain_minimax(game, evaluate, kid, depth - 1, ply + 1) for kid in kids)


def tree_size(game: Any, state: Any, depth: int, cap: int) -> int:
    """Return the number of nodes of the ``depth``-ply game tree of ``state`` (> cap: cap + 1)."""
    count, stack = 0, [(state, depth)]
    while stack and count <= cap:
        node, left = stack.pop()
        count += 1
        if left and game.terminal(node) is None:
            stack.extend((kid, left - 1) for kid in game.children(node))
    return count


def affordable_depth(game: Any, state: Any, depth: int) -> int:
    """Return the largest depth <= ``depth`` (at least 1) whose tree has <= MAX_TREE nodes."""
    best = 1
    for tried in range(2, depth + 1):
        if tree_size(game, state, tried, MAX_TREE) > MAX_TREE:
            break
        best = tried
    return best


def weird_evaluator(pos: Position) -> int:
    """Return a pseudo-random fixed score unrelated to the game, with many ties.

    It stresses the table logic: neighbouring positions get unrelated scores.
    """
    mixed = (pos.white * 0x9E3779B1) ^ (pos.black * 0x85EBCA77) ^ (pos.turn * 0xC2B2AE35)
    return (mixed >> 7) % 41 * 10 - 200


def evaluator(rules: OskaRules, name: str) -> Callable[[Position], int]:
    """Return the evaluator called ``name`` ('simple', 'strong' or 'weird')."""
    return weird_evaluator if name == "weird" else oska_evaluator(rules, name)


# -- positions ---------------------------------------------------------------------


def is_live(rules: OskaRules, pos: Position) -> bool:
    """Return True when the game is on in ``pos`` and the side to move can move (or pass)."""
    return rules.terminal(pos) is None and bool(rules.children(pos))


def playout(rules: OskaRules, seed: int) -> list[Position]:
    """Return the positions of a seeded random game, from the start to its end."""
    rng, pos = random.Random(seed), rules.start()
    game = [pos]
    while is_live(rules, pos):
        pos = rng.choice(rules.children(pos))
        game.append(pos)
    return game


@st.composite
def oska_cases(draw: st.DrawFn, sizes: tuple[int, ...] = (4, 5, 6, 7)) -> tuple:
    """Draw (rules, a live position reached by a random game, a depth in 1..5 or 1..8)."""
    rules = oska_rules(draw(st.sampled_from(sizes)))
    game = [pos for pos in playout(rules, draw(st.integers(0, 10**9))) if is_live(rules, pos)]
    pos = game[draw(st.integers(0, len(game) - 1))]
    deepest = 8 if rules.n == 4 else 5
    depth = deepest - draw(st.integers(0, deepest - 1))  # drawn small numbers shrink best
    return rules, pos, affordable_depth(rules, pos, depth)


def scan(sizes: tuple[int, ...], seeds: range, wanted: Callable[[OskaRules, Position], bool],
         limit: int) -> list[tuple[OskaRules, Position]]:
    """Return up to ``limit`` (rules, position) pairs of seeded random games that are
    ``wanted``, scanning each game from its end backwards."""
    found = []
    for n in sizes:
        rules = oska_rules(n)
        for seed in seeds:
            for pos in reversed(playout(rules, seed)):
                if is_live(rules, pos) and wanted(rules, pos):
                    found.append((rules, pos))
                    if len(found) == limit:
                        return found
    return found


def winning_children(rules: OskaRules, pos: Position) -> list[Position]:
    """Return the children of ``pos`` where the side that just moved has won."""
    return [kid for kid in rules.children(pos) if rules.terminal(kid) == -1]


def must_pass(rules: OskaRules, pos: Position) -> bool:
    """Return True when the side to move in ``pos`` has no real move but may pass."""
    return not rules.real_children(pos) and bool(rules.children(pos))


# -- the search equals plain minimax -------------------------------------------------


def worth(game: Any, evaluate: Callable[[Any], int], kid: Any, depth: int) -> int:
    """Return the minimax value, for its parent at the root, of a root child ``kid``
    searched with the rest of ``depth``."""
    return -plain_minimax(game, evaluate, kid, depth - 1, ply=1)


def check_against_minimax(game: Any, evaluate: Callable[[Any], int], root: Any,
                          depth: int) -> None:
    """Assert that alpha-beta (deepening, and one plain search) gets minimax's value
    at ``depth`` and picks a child worth exactly that."""
    expected = plain_minimax(game, evaluate, root, depth)
    progress = analyse(game, evaluate, root, depth)
    assert progress.score == expected
    assert worth(game, evaluate, progress.best, depth) == expected
    assert run(AlphaBeta(game, evaluate).search(root, depth)) == expected


@pytest.mark.slow
@slow(300)
@given(case=oska_cases(), name=st.sampled_from(EVALUATOR_NAMES))
def test_alpha_beta_equals_plain_minimax_on_oska(case: tuple, name: str) -> None:
    """On random reachable positions, n = 4..7, the root score is the minimax value."""
    rules, pos, depth = case
    event(f"n = {rules.n}, depth {depth}")
    check_against_minimax(rules, evaluator(rules, name), pos, depth)


@pytest.mark.slow
@slow(40)
@given(case=oska_cases(sizes=(4, 5)), name=st.sampled_from(EVALUATOR_NAMES))
def test_alpha_beta_stays_exact_when_tables_are_emptied(case: tuple, name: str) -> None:
    """Emptying the tables at every pause (tiny limits) never changes the result."""
    rules, pos, depth = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "PAUSE_EVERY", 3)
        patch.setattr(search, "TABLE_LIMIT", 5)
        patch.setattr(search, "MOVES_LIMIT", 5)
        check_against_minimax(rules, evaluator(rules, name), pos, depth)


def test_outgrown_tables_go_to_discard_and_the_result_stays() -> None:
    """A search given ``discard`` hands over its outgrown tables whole (to be freed
    elsewhere, a little per frame) and still returns what a search without it does."""
    rules = oska_rules(5)
    evaluate = evaluator(rules, "strong")
    plain = Thinker(rules, evaluate, rules.start(), max_depth=6)
    handed: list[dict] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "TABLE_LIMIT", 200)
        sliced = Thinker(rules, evaluate, rules.start(), max_depth=6, discard=handed.append)
        while not sliced.advance(0.001):
            pass
    while not plain.advance(1.0):
        pass
    assert handed and all(len(table) > 200 for table in handed)
    assert sliced.search.table is not handed[-1] and sliced.search.static is not handed[-1]
    assert (sliced.progress.score, sliced.best) == (plain.progress.score, plain.best)


class GraphGame:
    """A little game on numbered states: any shape, with transpositions and cycles.

    ``moves[s]`` lists the states after each move from s; ``ends`` maps finished
    states to their result for the side to move; no move means ``stuck_result``.
    """

    def __init__(self, moves: list[list[int]], ends: dict[int, int], stuck_result: int) -> None:
        """Store the game's graph, its finished states and the no-move result."""
        self.moves, self.ends, self.stuck_result = moves, ends, stuck_result

    def children(self, state: int) -> list[int]:
        """Return a new list of the states after each move from ``state``."""
        return list(self.moves[state])

    def terminal(self, state: int) -> int | None:
        """Return the result of a finished ``state``, else None."""
        return self.ends.get(state)


@st.composite
def graph_cases(draw: st.DrawFn) -> tuple[GraphGame, Callable[[int], int], int]:
    """Draw (a graph game whose state 0 is live, an evaluator with many ties, a depth)."""
    size = draw(st.integers(2, 12))
    states = st.integers(0, size - 1)
    moves = [draw(st.lists(states, min_size=1 if s == 0 else 0, max_size=4, unique=True))
             for s in range(size)]
    ends = draw(st.dictionaries(st.integers(1, size - 1), st.sampled_from((-1, 0, 1)),
                                max_size=size // 2))
    scores = draw(st.lists(st.integers(-3, 3), min_size=size, max_size=size))
    game = GraphGame(moves, ends, draw(st.sampled_from((-1, 0, 1))))
    return game, scores.__getitem__, draw(st.integers(1, 7))


@pytest.mark.slow
@slow(400)
@given(case=graph_cases())
def test_alpha_beta_equals_plain_minimax_on_graph_games(case: tuple) -> None:
    """On random game graphs (cycles, ties, stuck states) the value is exact too."""
    game, evaluate, depth = case
    check_against_minimax(game, evaluate, 0, depth)


# -- game ends -------------------------------------------------------------------------


@slow(60)
@given(n=st.sampled_from((4, 5, 6, 8)), seed=st.integers(0, 10**9),
       depth=st.integers(1, 4), name=st.sampled_from(EVALUATOR_NAMES))
def test_an_immediate_win_is_always_taken(n: int, seed: int, depth: int, name: str) -> None:
    """Wherever the side to move can win at once, it does, at any depth."""
    rules = oska_rules(n)
    cases = [pos for pos in playout(rules, seed) if is_live(rules, pos)
             and winning_children(rules, pos)]
    event(f"{len(cases) > 0}: a winning move occurs")
    for pos in cases:
        progress = analyse(rules, evaluator(rules, name), pos, depth)
        assert progress.best in winning_children(rules, pos)
        assert progress.score == WIN - 1


def wins_in_one_and_in_three(rules: OskaRules, pos: Position) -> bool:
    """Return True when ``pos`` has a move that wins at once and another (not winning at
    once) that forces a win in exactly three plies."""
    wins = winning_children(rules, pos)
    return bool(wins) and any(
        -plain_minimax(rules, weird_evaluator, kid, 2, ply=1) == WIN - 3
        for kid in rules.children(pos) if kid not in wins)


def test_a_faster_win_is_preferred_to_a_slower_one() -> None:
    """With a win in 1 and a win in 3 on the board, deeper searches still win in 1."""
    cases = scan((4, 5), range(300), wins_in_one_and_in_three, limit=12)
    assert cases, "no position with both a win in 1 and a win in 3 was found"
    for rules, pos in cases:
        for depth in (3, 4, 5):
            progress = analyse(rules, weird_evaluator, pos, depth)
            assert progress.best in winning_children(rules, pos)
            assert plies_to_end(progress.score) == 1


def losses_of_different_lengths(rules: OskaRules, pos: Position) -> bool:
    """Return True when every move of ``pos`` loses within 3 more plies, not all as fast."""
    lengths = {plies_to_end(-plain_minimax(rules, weird_evaluator, kid, 3, ply=1))
               for kid in rules.children(pos)
               if -plain_minimax(rules, weird_evaluator, kid, 3, ply=1) < -search.WIN_BOUND}
    return len(lengths) > 1 and plain_minimax(rules, weird_evaluator, pos, 4) < -search.WIN_BOUND


def test_the_slowest_loss_is_preferred() -> None:
    """When every move loses, the search picks one that loses as late as possible."""
    cases = scan((4, 5), range(200), losses_of_different_lengths, limit=12)
    assert cases, "no position with losses of different lengths was found"
    for rules, pos in cases:
        slowest = max(plies_to_end(-plain_minimax(rules, weird_evaluator, kid, 3, ply=1))
                      for kid in rules.children(pos))
        progress = analyse(rules, weird_evaluator, pos, 4)
        assert plies_to_end(progress.score) == slowest
        assert -plain_minimax(rules, weird_evaluator, progress.best, 3, ply=1) == progress.score


# -- the depth limit -------------------------------------------------------------------


class PlyGame:
    """Wraps a game so that every state carries its distance from the root: (state, ply)."""

    def __init__(self, game: Any) -> None:
        """Wrap ``game``."""
        self.game, self.stuck_result = game, game.stuck_result

    def children(self, node: tuple[Any, int]) -> list[tuple[Any, int]]:
        """Return the wrapped children, one ply further."""
        state, ply = node
        return [(kid, ply + 1) for kid in self.game.children(state)]

    def terminal(self, node: tuple[Any, int]) -> int | None:
        """Return the wrapped game's result for the state."""
        return self.game.terminal(node[0])


def positions_at(game: Any, root: Any, depth: int) -> set:
    """Return the unfinished states exactly ``depth`` plies from ``root`` along some line."""
    layer = {root}
    for _ in range(depth):
        layer = {kid for state in layer if game.terminal(state) is None
                 for kid in game.children(state)}
    return {state for state in layer if game.terminal(state) is None}


@pytest.mark.slow
@slow(60)
@given(case=oska_cases(sizes=(4, 5, 6)))
def test_the_evaluator_sees_only_unfinished_positions_exactly_at_the_horizon(case: tuple) -> None:
    """A depth-d search evaluates only unfinished positions d plies away (a pass is a
    ply), each reachable in d plies; deepening evaluates depth k at iteration k, and
    ``analyse`` deepens to d two plies at a time."""
    rules, pos, depth = case
    game = PlyGame(rules)
    seen: list[tuple[Position, int]] = []

    def recording(node: tuple[Position, int]) -> int:
        """Note the node and score it."""
        seen.append(node)
        return weird_evaluator(node[0])

    for horizon in range(1, depth + 1):
        seen.clear()
        run(AlphaBeta(game, recording).search((pos, 0), horizon))
        assert {ply for _, ply in seen} <= {horizon}
        assert {state for state, _ in seen} <= positions_at(rules, pos, horizon)
    seen.clear()
    progress = analyse(game, recording, (pos, 0), depth)
    assert {ply for _, ply in seen} <= set(range(progress.depth, 0, -2))


def test_a_pass_counts_as_a_ply() -> None:
    """A side that must pass: at depth 1 the search scores the position after the pass."""
    cases = scan((4, 5, 6), range(100), must_pass, limit=20)
    assert cases, "no position with a forced pass was found"
    for rules, pos in cases:
        (flipped,) = rules.children(pos)
        assert flipped.turn != pos.turn and flipped[:2] == pos[:2]
        progress = analyse(rules, weird_evaluator, pos, 1)
        assert progress.best == flipped
        expected = (-rules.terminal(flipped) * (WIN - 1) if rules.terminal(flipped) is not None
                    else -weird_evaluator(flipped))
        assert progress.score == expected
        for depth in (2, 3):
            check_against_minimax(rules, weird_evaluator, pos, depth)


# -- slices, time and determinism ------------------------------------------------------


def deepened(game: Any, evaluate: Callable[[Any], int], root: Any, depth: int,
             step: int = 1) -> search.Progress:
    """Return the progress of one unsliced iterative deepening of ``root`` to ``depth``."""
    progress = search.Progress()
    run(AlphaBeta(game, evaluate).deepen(root, depth, progress, step))
    return progress


def think_in_slices(thinker: Thinker) -> int:
    """Run ``thinker`` to the end in the smallest slices; return how many it took."""
    slices = 1  # the constructor's
    while not thinker.advance(0.0):
        slices += 1
    return slices


@slow(30)
@given(case=oska_cases(sizes=(4, 5, 6)), name=st.sampled_from(EVALUATOR_NAMES))
def test_a_thinker_in_slices_finds_what_analyse_finds(case: tuple, name: str) -> None:
    """Sliced thinking gives the same depth, score, best child and line as one run, and
    the score of ``analyse`` (which deepens two plies at a time)."""
    rules, pos, depth = case
    evaluate = evaluator(rules, name)
    thinker = Thinker(rules, evaluate, pos, max_depth=depth)
    think_in_slices(thinker)
    assert thinker.progress == deepened(rules, evaluate, pos, depth)
    assert analyse(rules, evaluate, pos, depth).score == thinker.progress.score


@slow(60)
@given(case=oska_cases(), name=st.sampled_from(EVALUATOR_NAMES), step=st.integers(2, 4))
def test_deepening_by_any_step_finds_the_same_value(case: tuple, name: str, step: int) -> None:
    """Deepening a ply at a time or several: the same score, a child worth it (ties may
    go another way: the earlier iterations differ), and the depths searched are the
    one asked less multiples of the step."""
    rules, pos, depth = case
    evaluate = evaluator(rules, name)
    several = deepened(rules, evaluate, pos, depth, step)
    assert several.score == deepened(rules, evaluate, pos, depth).score
    assert worth(rules, evaluate, several.best, depth) == several.score
    assert several.depth <= depth and (depth - several.depth) % step == 0


def test_deepening_needs_a_step_of_one_or_more() -> None:
    """A step below 1 would never reach the depth asked: a clear ValueError."""
    rules = oska_rules(4)
    with pytest.raises(ValueError, match="step of at least 1"):
        run(AlphaBeta(rules, weird_evaluator).deepen(rules.start(), 3, search.Progress(), 0))


def test_a_deep_thinker_runs_in_many_slices_to_the_same_result() -> None:
    """A search of thousands of nodes really is cut into slices, and resumes exactly."""
    rules = oska_rules(5)
    evaluate = oska_evaluator(rules, "strong")
    thinker = Thinker(rules, evaluate, rules.start(), max_depth=8)
    slices = think_in_slices(thinker)
    assert slices > 5
    assert thinker.progress == deepened(rules, evaluate, rules.start(), 8)
    assert thinker.progress.depth == 8


@pytest.mark.timing
def test_a_thinker_with_a_time_limit_stops_with_a_move() -> None:
    """Within a (generous) bound of its time limit the thinker is done and has a move."""
    rules = oska_rules(8)
    thinker = Thinker(rules, oska_evaluator(rules, "strong"), rules.start(), time_limit=0.2)
    start = time.perf_counter()
    while not thinker.advance(0.01):
        assert time.perf_counter() - start < 5.0, "the thinker does not stop"
    assert thinker.best in rules.children(rules.start())
    assert 1 <= thinker.progress.depth < 64
    # generous: the tests share the machine's cores, and one search step at n = 8 can
    # take a second under load; a thinker that ignored its limit would run for minutes
    assert thinker.clock.elapsed < 0.2 + 2.0


@slow(30)
@given(case=oska_cases(), name=st.sampled_from(EVALUATOR_NAMES))
def test_the_search_is_deterministic(case: tuple, name: str) -> None:
    """The same search twice gives the same score, best child and line."""
    rules, pos, depth = case
    evaluate = evaluator(rules, name)
    assert analyse(rules, evaluate, pos, depth) == analyse(rules, evaluate, pos, depth)


class Forgetful(dict):
    """A cache that never keeps anything: every lookup misses."""

    def __setitem__(self, key: Any, value: Any) -> None:
        """Forget ``key`` and ``value`` at once."""


@slow(60)
@given(case=oska_cases(), name=st.sampled_from(EVALUATOR_NAMES))
def test_the_move_lists_and_static_scores_kept_change_nothing(case: tuple, name: str) -> None:
    """A search that recomputes every move list and leaf visits the same nodes in the
    same order: the same score, best child, line and node count at every depth."""
    rules, pos, depth = case
    evaluate = evaluator(rules, name)
    searches = [AlphaBeta(rules, evaluate), AlphaBeta(rules, evaluate)]
    searches[1].moves, searches[1].static = Forgetful(), Forgetful()
    results = []
    for searcher in searches:
        progress = search.Progress()
        run(searcher.deepen(pos, depth, progress))
        results.append((progress, searcher.nodes))
    assert results[0] == results[1]
    assert searches[0].moves and not searches[1].moves


def test_a_finished_game_cannot_be_searched() -> None:
    """Searching a position where the game is over raises a clear ValueError."""
    rules = oska_rules(4)
    over = next(pos for pos in playout(rules, 1) if rules.terminal(pos) is not None)
    with pytest.raises(ValueError, match="game is over"):
        analyse(rules, weird_evaluator, over, 3)
