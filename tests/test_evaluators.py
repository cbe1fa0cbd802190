"""The static evaluators: symmetry, bounds, determinism, each term, and the race.

The classic evaluator computes its terms with shifts on a redrawn grid; here every term
is recomputed the slow way, piece by piece with the rules' own move generator, on
arbitrary boards. Positions where the armies have passed each other are checked against
the game's real result, found by searching to the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

import pytest
from evaluator_helpers import (
    SETTINGS,
    Case,
    as_mover,
    colour_mirror,
    in_contact,
    out_of_reach,
    passed_positions,
    positions,
    rows_to_go,
    side_mirror,
    stuck,
)
from hypothesis import HealthCheck, given, settings

from oska_gui.engine.evaluators import (
    PASSED_WIN,
    Evaluator,
    Weights,
    classic_evaluator,
    oska_evaluator,
    simple_evaluator,
)
from oska_gui.engine.search import WIN_BOUND, analyse, is_game_end
from oska_gui.games.oska import BLACK, WHITE, OskaRules, Position, oska_rules

SCORE_LIMIT = 100_000  # well inside the search's WIN_BOUND
NAMES = ("simple", "classic", "strong")
TERMS = tuple(spec.name for spec in fields(Weights) if spec.name != "passed_margin")


# -- positions ------------------------------------------------------------------------


def board_with(rules: OskaRules, rows: dict[int, str], turn: int) -> Position:
    """Return the position with the given rows ('w'/'b'/'-' strings), the rest empty."""
    texts = ["-" * length for length in rules.lengths]
    for r, text in rows.items():
        texts[r] = text
    return rules.from_rows(texts, turn)


def one_term(rules: OskaRules, name: str) -> Evaluator:
    """Return the classic evaluator with weight 1 on the term ``name`` and 0 elsewhere."""
    zero = {spec.name: 0 for spec in fields(Weights)}
    return classic_evaluator(rules, Weights(**{**zero, name: 1}))


def sign(value: int) -> int:
    """Return -1, 0 or +1: the sign of ``value``."""
    return (value > 0) - (value < 0)


# -- the slow way: every term from the rules' move generator -------------------------


def victims(rules: OskaRules, pos: Position, side: int) -> int:
    """Return how many opponent pieces ``side`` could capture if it were to move."""
    return len({m.over for m in rules.moves(as_mover(pos, side)) if m.is_capture})


def slow_term(rules: OskaRules, pos: Position, name: str) -> int:
    """Return the classic evaluator's term ``name`` for the side to move, the slow way."""
    me, you = pos.turn, 1 - pos.turn
    if name == "material":
        return pos[me].bit_count() - pos[you].bit_count()
    if name == "race":
        return rows_to_go(rules, pos, you) - rows_to_go(rules, pos, me)
    if name == "lead":
        return 1 if rows_to_go(rules, pos, me) <= rows_to_go(rules, pos, you) else -1
    if name == "attack":
        return victims(rules, pos, me)
    if name == "danger":
        return -victims(rules, pos, you)
    if name == "blocked":
        return stuck(rules, pos, you) - stuck(rules, pos, me)
    assert name == "free", name
    return out_of_reach(rules, pos, me) - out_of_reach(rules, pos, you)


# -- properties of both evaluators ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("mirror", [colour_mirror, side_mirror])
@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(case=positions())
def test_mirrored_position_gives_the_same_score(
        mirror: Callable[[OskaRules, Position], Position], name: str, case: Case) -> None:
    """Upside down with colours swapped, or left to right: the mover's score is the same."""
    rules, pos = case
    evaluate = oska_evaluator(rules, name)
    assert evaluate(mirror(rules, pos)) == evaluate(pos)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(case=positions(sizes=(4, 5, 6, 7, 8, 12)))
def test_scores_are_bounded_ints(name: str, case: Case) -> None:
    """Scores are ints far inside the search's game-end scores."""
    rules, pos = case
    score = oska_evaluator(rules, name)(pos)
    assert isinstance(score, int)
    assert abs(score) < SCORE_LIMIT < WIN_BOUND


def test_extreme_boards_stay_bounded() -> None:
    """Full armies at their starts, a lone piece, all but one home: bounded up to n = 16."""
    for n in (4, 8, 16):
        rules = oska_rules(n)
        lone = Position(rules.start().white, 1, BLACK)
        nearly_home = Position(rules.goal[WHITE] ^ (1 << (rules.size - 1)) ^ 1,
                               rules.goal[WHITE] & (1 << (rules.size - 1)), WHITE)
        for name in NAMES:
            for pos in (rules.start(), lone, nearly_home):
                assert abs(oska_evaluator(rules, name)(pos)) < SCORE_LIMIT


@SETTINGS
@given(case=positions())
def test_classic_is_deterministic(case: Case) -> None:
    """A freshly built evaluator and the shared one agree, call after call."""
    rules, pos = case
    first = classic_evaluator(rules)(pos)
    shared = oska_evaluator(rules, "classic")
    assert shared(pos) == first
    assert shared(pos) == first


def test_unknown_evaluator_name_is_a_clear_error() -> None:
    """Asking for an evaluator that does not exist names the ones that do."""
    with pytest.raises(ValueError, match="simple"):
        oska_evaluator(oska_rules(4), "clever")


def test_classic_by_name_uses_the_default_weights() -> None:
    """``oska_evaluator(rules, 'classic')`` is the classic evaluator with ``Weights()``."""
    rules = oska_rules(5)
    named, default = oska_evaluator(rules, "classic"), classic_evaluator(rules, Weights())
    for kid in rules.children(rules.start()):
        for grandchild in rules.children(kid):
            assert named(grandchild) == default(grandchild)


# -- simple ---------------------------------------------------------------------------


def test_simple_counts_material_and_rows_advanced() -> None:
    """Simple = 100 a piece + 10 a row advanced, White minus Black, for the mover."""
    rules = oska_rules(4)
    rows = {0: "-w--", 2: "-w", 3: "b--", 4: "bb--"}  # White rows 0, 2; Black 3, 4, 4
    white = 2 * 100 + 10 * (0 + 2)
    black = 3 * 100 + 10 * (1 + 0 + 0)
    assert simple_evaluator(rules)(board_with(rules, rows, WHITE)) == white - black
    assert simple_evaluator(rules)(board_with(rules, rows, BLACK)) == black - white


# -- classic: each term the slow way ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("term", TERMS)
@SETTINGS
@given(case=positions(sizes=(4, 5, 6, 8)))
def test_each_contact_term_matches_the_move_generator(term: str, case: Case) -> None:
    """With one weight at 1 the score is that term, counted here from the rules."""
    rules, pos = case
    if in_contact(rules, pos):  # passed armies are scored by the race (tested below)
        assert one_term(rules, term)(pos) == slow_term(rules, pos, term)


def test_a_capture_threat_is_counted_once_per_victim() -> None:
    """Two White pieces able to jump the same Black piece make one victim, not two."""
    rules = oska_rules(5)
    rows = {2: "-ww", 3: "-b"}
    assert one_term(rules, "attack")(board_with(rules, rows, WHITE)) == 1
    assert one_term(rules, "danger")(board_with(rules, rows, BLACK)) == -1


def test_the_weights_change_the_contact_score() -> None:
    """Doubling every contact weight doubles a contact position's score."""
    rules = oska_rules(6)
    pos = rules.start()
    for kid in rules.children(pos):
        weights = Weights()
        doubled = Weights(**{name: 2 * getattr(weights, name) for name in TERMS},
                          passed_margin=weights.passed_margin)
        assert classic_evaluator(rules, doubled)(kid) == 2 * classic_evaluator(rules)(kid)


# -- classic: the race once the armies have passed ------------------------------------


def game_value(rules: OskaRules, pos: Position) -> int:
    """Return the real result (+1/0/-1 for the mover) of a passed position, by search."""
    if not rules.children(pos):
        return 0
    horizon = 2 * (rows_to_go(rules, pos, WHITE) + rows_to_go(rules, pos, BLACK)) + 2
    score = analyse(rules, classic_evaluator(rules), pos, horizon).score
    assert is_game_end(score) or score == 0, "the game must end within the horizon"
    return sign(score)


RACES = {
    # name: (n, rows, side to move, result for the side to move)
    "equal race, White to move": (4, {3: "w--", 1: "--b"}, WHITE, 1),
    "equal race, Black to move": (4, {3: "w--", 1: "--b"}, BLACK, 1),
    "3 moves against 1, with the move": (5, {3: "w-", 6: "w----", 0: "-b---", 1: "b---"},
                                         WHITE, -1),
    "1 runner against 3 pieces 8 moves out": (5, {5: "-w--", 3: "bb", 2: "b--"}, BLACK, -1),
    "walled in behind own home pieces": (4, {3: "w--", 4: "ww--", 2: "b-"}, WHITE, -1),
    "both walled in": (4, {3: "--w", 4: "--ww", 1: "b--", 0: "bb--"}, BLACK, 0),
}


@pytest.mark.parametrize("race", RACES.values(), ids=RACES.keys())
def test_hand_built_races(race: tuple[int, dict[int, str], int, int]) -> None:
    """Passed armies: the static score is the race's result, and so is the real game."""
    n, rows, turn, result = race
    rules = oska_rules(n)
    pos = board_with(rules, rows, turn)
    score = classic_evaluator(rules)(pos)
    assert sign(score) == result
    assert abs(score) >= PASSED_WIN or result == 0
    assert game_value(rules, pos) == result


def test_a_bigger_lead_scores_higher() -> None:
    """Between two won races, the one won by more moves scores more."""
    rules = oska_rules(5)
    close = board_with(rules, {5: "-w--", 2: "b--"}, WHITE)  # 1 move against 2
    far = board_with(rules, {5: "-w--", 3: "b-"}, WHITE)  # 1 move against 3
    evaluate = classic_evaluator(rules)
    assert evaluate(far) > evaluate(close) >= PASSED_WIN


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=passed_positions())
def test_passed_score_is_the_real_result(case: Case) -> None:
    """Once no capture is possible, the static score's sign is the game's result."""
    rules, pos = case
    if rules.terminal(pos) is None:  # a finished game is scored by the search itself
        score = classic_evaluator(rules)(pos)
        assert abs(score) >= PASSED_WIN or score == 0
        assert sign(score) == game_value(rules, pos)


@pytest.mark.parametrize("rows", [["-bbb", "-b-", "--", "-w-", "-www"],
                                  ["bbb-", "b--", "--", "w--", "www-"]])
@pytest.mark.parametrize("turn", [WHITE, BLACK])
def test_a_deadlock_at_the_horizon_scores_as_the_draw_it_is(rows: list[str], turn: int) -> None:
    """Neither side can move (each last piece is walled in by its own home pieces): the
    game ends in a draw, so the strong evaluator, seeing it at the depth limit, says 0."""
    rules = oska_rules(4)
    pos = rules.from_rows(rows, turn)
    assert rules.terminal(pos) is None and rules.children(pos) == []
    assert rules.outcome(pos).winner is None
    assert oska_evaluator(rules, "strong")(pos) == 0
