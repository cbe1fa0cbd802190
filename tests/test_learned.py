"""The learned evaluator: its features the slow way, its symmetries, exact race endings.

Every feature is recomputed piece by piece with the rules' own move generator on
arbitrary boards and compared with the grid-shift version. Positions where the armies
have passed are checked against the exact solver (result and plies), including pieces
walled in by their own home pieces.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from evaluator_helpers import (
    SETTINGS,
    Case,
    as_mover,
    colour_mirror,
    in_contact,
    most_matched,
    out_of_reach,
    passed_positions,
    positions,
    reachable_home_cells,
    rows_to_go,
    side_mirror,
    stuck,
)
from hypothesis import given

from oska_gui.engine.features import (
    BUCKET_CLIP,
    BUCKETS,
    MARGIN_CLIP,
    NAMES,
    ROW_CLIP,
    WIDE_MARGIN_FROM,
    feature_space,
)
from oska_gui.engine.fused import SPILL_SHIFT
from oska_gui.engine.learned import (
    LOGIT_CAP,
    LOGIT_CEILING,
    PASSED_WIN,
    PLY_CAP,
    SCALE,
    SQUASHED_FROM,
    Model,
    calibrated_model,
    chance_evaluator,
    learned_evaluator,
    models_from_json,
    models_to_json,
    shipped_model,
    shipped_models,
)
from oska_gui.engine.models import chances_key
from oska_gui.engine.patterns import pattern_space
from oska_gui.engine.race import race_tables
from oska_gui.engine.solver import solve
from oska_gui.games.oska import BLACK, WHITE, OskaRules, Position, oska_rules, pieces
from oska_gui.play.game import make_game
from oska_gui.play.selfplay import random_opening

# -- the slow way --------------------------------------------------------------------


def dead_end(rules: OskaRules, home: int, side: int, cell: int) -> bool:
    """Return True when a piece on ``cell`` can never get past ``home`` (own home pieces).

    As in the feature's definition, only the rows that widen toward home count (from
    the narrow middle row to the row before home, where every cell has two forward
    cells): a dead end has only home pieces and dead ends in front of it.
    """
    row, middle, last = rules.cells[cell][0], len(rules.lengths) // 2, len(rules.lengths) - 1
    if not (middle <= row < last if side == WHITE else 0 < row <= middle):
        return False
    return all(home & target or dead_end(rules, home, side, target.bit_length() - 1)
               for target in rules.steps[side][cell])


def side_counts(rules: OskaRules, pos: Position, side: int) -> dict[str, int]:
    """Return one side's feature counts, piece by piece from the rules' moves."""
    own = pos[side]
    moves = rules.moves(as_mover(pos, side)) if rules.has_move(as_mover(pos, side)) else []
    away = own & rules.not_goal[side]
    return {
        "pieces": own.bit_count(),
        "home": own.bit_count() - away.bit_count(),
        "blocked": stuck(rules, pos, side),
        "moves": len(moves),
        "captures": sum(1 for move in moves if move.is_capture),
        "free": out_of_reach(rules, pos, side),
        "dead": sum(1 for cell in pieces(away) if dead_end(rules, own & ~away, side, cell)),
        "stuck": int(not moves),
        "last": int(own.bit_count() == 1),
        "edge": sum(1 for cell in pieces(away)
                    if rules.cells[cell][1] in (0, rules.lengths[rules.cells[cell][0]] - 1)),
        "trail": max(rules.rows_to_go[side][cell] for cell in pieces(own)),
        "lone": int(away.bit_count() == 1),
        "unmatched": away.bit_count() - most_matched(
            [reachable_home_cells(rules, side, cell) - set(pieces(own)) for cell in pieces(away)]),
    } | {f"row_{k}": sum(1 for cell in pieces(own)
                         if min(ROW_CLIP, rules.rows_to_go[side][cell]) == k)
         for k in range(1, ROW_CLIP + 1)}


def walks_into_capture(rules: OskaRules, pos: Position) -> bool:
    """Return True when the side to move has steps, no capture, and after each step
    the other side has a capture."""
    if not rules.has_move(pos) or any(move.is_capture for move in rules.moves(pos)):
        return False
    return all(rules.has_move(child) and any(move.is_capture for move in rules.moves(child))
               for child in rules.real_children(pos))


def slow_features(rules: OskaRules, pos: Position) -> tuple[int, dict[str, int]]:
    """Return the margin bucket and the named counts of ``pos``, the slow way."""
    me, you = pos.turn, 1 - pos.turn
    margin = rows_to_go(rules, pos, you) - rows_to_go(rules, pos, me)
    clip = MARGIN_CLIP if rules.n < WIDE_MARGIN_FROM else abs(margin)
    named = {"margin": max(-clip, min(clip, margin))}
    mine, theirs = side_counts(rules, pos, me), side_counts(rules, pos, you)
    for name in mine:
        named[f"own_{name}"], named[f"their_{name}"] = mine[name], theirs[name]
    named["own_exposed"] = walks_into_capture(rules, pos)
    return max(-BUCKET_CLIP, min(BUCKET_CLIP, margin)) + BUCKET_CLIP, named


# -- features ------------------------------------------------------------------------


@pytest.mark.slow
@SETTINGS
@given(case=positions())
def test_every_feature_matches_the_slow_count(case: Case) -> None:
    """Grid shifts and the rules' move generator count the same things."""
    rules, pos = case
    if not in_contact(rules, pos):
        return
    bucket, counts = feature_space(rules).features(pos)
    slow_bucket, slow = slow_features(rules, pos)
    assert dict(zip(NAMES, counts, strict=True)) == slow
    assert bucket == slow_bucket


def test_features_see_a_runner_walled_in_behind_its_home_row() -> None:
    """As in a lost game: White's last runner stands behind two of its home pieces."""
    rules = oska_rules(6)
    rows = ["-bb--b", "-----", "----", "---", "--", "---", "----", "-w---", "wwww-b"]
    _, counts = feature_space(rules).features(rules.from_rows(rows, BLACK))
    named = dict(zip(NAMES, counts, strict=True))
    assert named["their_dead"] == 1 and named["own_dead"] == 0


def test_features_see_two_runners_that_share_one_home_cell() -> None:
    """White's two runners can each still step home, but only one free home cell is
    within their reach: one of them can never get home (none is walled in)."""
    rules = oska_rules(4)
    rows = ["b--b", "---", "--", "ww-", "wbw-"]
    _, counts = feature_space(rules).features(rules.from_rows(rows, BLACK))
    named = dict(zip(NAMES, counts, strict=True))
    assert (named["their_unmatched"], named["their_dead"], named["own_unmatched"]) == (1, 0, 0)


def test_features_see_a_lone_piece_that_must_walk_into_a_capture() -> None:
    """Where depth 6 ended on the n = 4 horizon position: White's lone runner steps into a
    capture either way; with Black to move the same board is no such thing for White."""
    rules = oska_rules(4)
    rows = ["wb--", "-b-", "b-", "---", "b---"]
    for turn, expected in ((WHITE, 1), (BLACK, 0)):
        _, counts = feature_space(rules).features(rules.from_rows(rows, turn))
        assert dict(zip(NAMES, counts, strict=True))["own_exposed"] == expected


def test_features_see_a_lone_straggler_far_from_home() -> None:
    """As in a game lost on n = 8: White's last runner is 9 rows from home, alone among
    Black's pieces, while three White pieces sit home."""
    rules = oska_rules(8)
    rows = ["---b----", "-b-----", "------", "w----", "b-b-", "b--", "--", "---", "----",
            "-----", "------", "-------", "-www----"]
    _, counts = feature_space(rules).features(rules.from_rows(rows, WHITE))
    named = dict(zip(NAMES, counts, strict=True))
    assert (named["own_lone"], named["own_trail"], named["own_row_9"], named["own_edge"]) \
        == (1, 9, 1, 1)
    assert (named["their_lone"], named["their_trail"], named["their_row_1"]) == (0, 5, 1)
    assert (named["their_row_4"], named["their_row_5"], named["their_edge"]) == (2, 1, 2)


@pytest.mark.parametrize("n", [WIDE_MARGIN_FROM - 1, WIDE_MARGIN_FROM, 16])
def test_the_margin_counts_the_whole_race_on_big_boards(n: int) -> None:
    """Three of Black's pieces taken from the start: White to move is 3 (2n - 4) rows
    behind, which the margin counts in full from WIDE_MARGIN_FROM on, clipped before."""
    rules = oska_rules(n)
    start = rules.start()
    taken = pieces(start.black)[:3]
    pos = Position(start.white, start.black & ~sum(1 << cell for cell in taken), WHITE)
    behind = 3 * (2 * n - 4)
    _, counts = feature_space(rules).features(pos)
    assert counts[NAMES.index("margin")] == (-behind if n >= WIDE_MARGIN_FROM else -MARGIN_CLIP)


@pytest.mark.slow
@SETTINGS
@given(case=passed_positions())
def test_no_features_once_the_armies_have_passed(case: Case) -> None:
    """A passed position has no features: the race verdict scores it instead."""
    rules, pos = case
    assert feature_space(rules).features(pos) is None


@pytest.mark.slow
@pytest.mark.parametrize("mirror", [colour_mirror, side_mirror])
@SETTINGS
@given(case=positions())
def test_features_are_the_same_after_a_mirror(mirror, case: Case) -> None:
    """Colours swapped (and the mover) or left-right mirrored: the same features."""
    rules, pos = case
    if in_contact(rules, pos):
        space = feature_space(rules)
        assert space.features(mirror(rules, pos)) == space.features(pos)


@pytest.mark.slow
@pytest.mark.parametrize("mirror", [colour_mirror, side_mirror])
@SETTINGS
@given(case=positions())
def test_learned_score_keeps_mirror_symmetry(mirror, case: Case) -> None:
    """The mover's score survives mirrors, so White's view negates with the colours."""
    rules, pos = case
    evaluate = learned_evaluator(rules)
    assert evaluate(mirror(rules, pos)) == evaluate(pos)
    if in_contact(rules, pos):
        white_view = evaluate(pos) if pos.turn == WHITE else -evaluate(pos)
        swapped = colour_mirror(rules, pos)
        swapped_white_view = evaluate(swapped) if swapped.turn == WHITE else -evaluate(swapped)
        assert swapped_white_view == -white_view


# -- exact races ---------------------------------------------------------------------


@pytest.mark.slow
@SETTINGS
@given(case=passed_positions())
def test_a_passed_race_is_scored_by_its_exact_result(case: Case) -> None:
    """Once the armies have passed, the score's sign and length are the solver's."""
    rules, pos = case
    if rules.terminal(pos) is not None or not rules.children(pos):
        return
    exact = solve(rules, pos)
    score = learned_evaluator(rules)(pos)
    if exact.result == 0:
        assert score == 0
    else:
        assert score == exact.result * (PASSED_WIN + PLY_CAP - exact.plies)


@pytest.mark.parametrize(("n", "rows", "turn", "result", "plies"), [
    # one row each to go: whoever moves first finishes first
    (4, ["----", "-b-", "--", "-w-", "----"], WHITE, 1, 1),
    (4, ["----", "-b-", "--", "-w-", "----"], BLACK, 1, 1),
    # Black needs 2 moves, White 1: moving first is not enough
    (4, ["----", "---", "b-", "-w-", "----"], BLACK, -1, 2),
    # White's runner is walled in by its own home pieces: it passes, Black finishes
    (4, ["----", "b--", "--", "w--", "ww--"], WHITE, -1, 2),
    # both runners walled in: neither side can finish, a deadlock draw
    (4, ["bb--", "b--", "--", "w--", "ww--"], WHITE, 0, 0),
    # two White runners, each with a free home cell, but the same one: Black wins
    (5, ["-----", "----", "b--", "--", "---", "ww--", "w-ww-"], WHITE, -1, 4),
])
def test_exact_race_endings(n: int, rows: list[str], turn: int, result: int,
                            plies: int) -> None:
    """Hand-made races: the verdict, the solver and the evaluator agree."""
    rules = oska_rules(n)
    pos = rules.from_rows(rows, turn)
    verdict = race_tables(rules).verdict(pos, (rows_to_go(rules, pos, WHITE),
                                               rows_to_go(rules, pos, BLACK)))
    assert (verdict.result, verdict.plies if verdict.result else 0) == (result, plies)
    exact = solve(rules, pos)
    assert (exact.result, exact.plies if exact.result else 0) == (result, plies)
    score = learned_evaluator(rules)(pos)
    assert score == (result * (PASSED_WIN + PLY_CAP - plies) if result else 0)


# -- the model -----------------------------------------------------------------------


def test_shipped_models_round_trip_through_json() -> None:
    """The weights file reads back to the same models, named after the features."""
    models = shipped_models()
    assert models_from_json(json.loads(json.dumps(models_to_json(models)))) == models
    assert set(shipped_model().to_json()["weights"]) == set(NAMES)


def test_each_board_plays_its_own_model_or_the_general_one() -> None:
    """A solved board size has its own model; any other size uses the general one."""
    models = shipped_models()
    assert shipped_model(4) == models["4"] != models["any"]
    assert shipped_model(7) == models["any"]
    rules = oska_rules(4)
    pos = rules.children(rules.start())[0]
    assert learned_evaluator(rules)(pos) == learned_evaluator(rules, models["4"])(pos)
    with pytest.raises(ValueError, match="general"):
        models_from_json({"models": {"4": models["4"].to_json()}})


def test_the_review_reads_a_calibrated_model_where_one_is_shipped() -> None:
    """n = 4 plays a model fitted to rank search leaves and ships its labels-only twin
    for win chances; n = 5 ships the model the review's scale was fitted to beside the
    wider one it plays; the review's evaluator scores by the twin. A board without a
    twin gives chances by the model it plays."""
    models = shipped_models()
    assert calibrated_model(4) == models[chances_key(4)] != models["4"]
    assert calibrated_model(5) == models[chances_key(5)] != models["5"]
    assert calibrated_model(7) == shipped_model(7)
    rules = oska_rules(4)
    evaluate = make_game("oska", 4).chance_evaluator()
    assert evaluate is chance_evaluator(rules)
    line = [rules.start()]
    for _ in range(6):
        line.append(rules.children(line[-1])[-1])
    twin = learned_evaluator(rules, models[chances_key(4)])
    assert [evaluate(pos) for pos in line] == [twin(pos) for pos in line]
    assert [evaluate(pos) for pos in line] != [learned_evaluator(rules)(pos) for pos in line]


def test_a_model_of_the_wrong_shape_is_refused() -> None:
    """Missing weights are a clear error, not a silently wrong evaluator."""
    data = shipped_model().to_json()
    del data["weights"]["own_pieces"]
    with pytest.raises(ValueError, match="named"):
        Model.from_json(data)
    with pytest.raises(ValueError, match="table values"):
        Model((0.0,), shipped_model().weights)


def test_contact_scores_are_the_capped_logit() -> None:
    """A contact position scores SCALE times the model's logit, capped."""
    rules = oska_rules(5)
    model = shipped_model()
    pos = rules.children(rules.start())[0]
    bucket, counts = feature_space(rules).features(pos)
    logit = model.table[bucket] + sum(w * c for w, c in zip(model.weights, counts, strict=True))
    assert math.isclose(learned_evaluator(rules, model)(pos), SCALE * logit, abs_tol=60)
    huge = Model(model.table, tuple(100.0 for _ in model.weights))
    assert learned_evaluator(rules, huge)(pos) == LOGIT_CAP * SCALE
    assert PASSED_WIN > LOGIT_CAP * SCALE


def test_big_boards_squash_scores_beyond_the_cap_in_order() -> None:
    """From n = 6 on a contact score beyond the cap keeps growing, 2 ** SPILL_SHIFT
    times slower, so positions far ahead still rank; it stays below a decided race."""
    rules = oska_rules(SQUASHED_FROM)
    model = shipped_model()
    kids = rules.children(rules.start())
    logits = [contact_logit(rules, model, kid) for kid in kids]
    assert len(set(logits)) > 1
    lowest = min(logits)
    # shifted so that every child's logit lies 1 to a few logits beyond the cap
    table = tuple(value + LOGIT_CAP + 1 - lowest for value in model.table)
    beyond = Model(table, model.weights)
    cap = LOGIT_CAP * SCALE
    scores = [learned_evaluator(rules, beyond)(kid) for kid in kids]
    for logit, score in zip(logits, scores, strict=True):
        assert cap < score < LOGIT_CEILING * SCALE
        excess = SCALE * (logit + LOGIT_CAP + 1 - lowest) - cap
        assert math.isclose(score, cap + excess / 2 ** SPILL_SHIFT, abs_tol=10)
    assert sorted(range(len(kids)), key=scores.__getitem__) \
        == sorted(range(len(kids)), key=logits.__getitem__)
    huge = Model(model.table, tuple(100.0 for _ in model.weights))
    assert learned_evaluator(rules, huge)(kids[0]) == LOGIT_CEILING * SCALE
    assert PASSED_WIN > LOGIT_CEILING * SCALE
    small = oska_rules(SQUASHED_FROM - 1)
    assert learned_evaluator(small, huge)(small.children(small.start())[0]) == cap


def contact_logit(rules: OskaRules, model: Model, pos: Position) -> float:
    """Return the model's logit of a contact position, from its features."""
    bucket, counts = feature_space(rules).features(pos)
    return model.table[bucket] + sum(w * c for w, c in zip(model.weights, counts, strict=True))


# -- the one-pass evaluator against the plain sum ------------------------------------


def plain_score(rules: OskaRules, model: Model, pos: Position) -> int:
    """Return the learned score the plain way: features, weighted sum, pattern entries.

    What ``learned`` describes, built from the reference pieces (``features``,
    ``patterns``, ``race``) with no folded tables.
    """
    if not pos.white or not pos.black:
        return 0
    found = feature_space(rules).features(pos)
    if found is None:
        verdict = race_tables(rules).verdict(pos, (rows_to_go(rules, pos, WHITE),
                                                   rows_to_go(rules, pos, BLACK)))
        return verdict.result * (PASSED_WIN + PLY_CAP - verdict.plies) if verdict.result else 0
    bucket, counts = found
    score = round(SCALE * model.table[bucket]) + sum(
        round(SCALE * weight) * count for weight, count in zip(model.weights, counts, strict=True))
    if model.windows:
        indices = pattern_space(rules, model.windows).indices(pos)
        score += sum(values[index] for values, index in zip(model.patterns, indices, strict=True))
    cap = LOGIT_CAP * SCALE
    if rules.n < SQUASHED_FROM or abs(score) <= cap:
        return max(-cap, min(cap, score))
    squashed = min(cap + (abs(score) - cap) // 2 ** SPILL_SHIFT, LOGIT_CEILING * SCALE)
    return squashed if score > 0 else -squashed


def random_model(rules: OskaRules, rng: random.Random) -> Model:
    """Return a model with random weights (none zero) and random pattern tables for the
    windows of the shipped model (n = 4 and 5 have some)."""
    windows = shipped_model(rules.n).windows
    sizes = pattern_space(rules, windows).sizes() if windows else ()
    return Model(tuple(rng.uniform(-3, 3) for _ in range(BUCKETS)),
                 tuple(rng.choice((-1, 1)) * rng.uniform(0.05, 3) for _ in NAMES), windows,
                 tuple(tuple(rng.randint(-4000, 4000) for _ in range(size)) for size in sizes))


def random_positions(rules: OskaRules, rng: random.Random, count: int) -> list[Position]:
    """Return ``count`` positions: half from random games, half random boards."""
    found: list[Position] = []
    while len(found) < count:
        found.extend(random_opening(rules, rng.randint(1, 4 * rules.n), rng)[1:])
        cells = rng.sample(range(rules.size), 2 * rules.n)
        white = sum(1 << c for c in cells[:rng.randint(1, rules.n)])
        black = sum(1 << c for c in cells[rules.n:rules.n + rng.randint(1, rules.n)])
        found.append(Position(white, black, rng.randint(0, 1)))
    return found[:count]


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 10, 12, 16])
def test_the_one_pass_evaluator_equals_the_plain_sum(n: int) -> None:
    """Thousands of positions, both sides to move: the same score, with the shipped
    model and with random ones that give every feature and table entry weight."""
    rules = oska_rules(n)
    rng = random.Random(n)
    positions = random_positions(rules, rng, 3000)
    assert {pos.turn for pos in positions} == {WHITE, BLACK}
    assert sum(feature_space(rules).features(pos) is not None for pos in positions) > 1000
    for model in (shipped_model(n), random_model(rules, rng), random_model(rules, rng)):
        evaluate = learned_evaluator(rules, model)
        wrong = [(rules.to_rows(pos), pos.turn) for pos in positions
                 if evaluate(pos) != plain_score(rules, model, pos)]
        assert wrong == []
