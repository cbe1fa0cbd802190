"""The fast bitboard rules (``oska_gui.games.oska``) against the slow reference and the
rules text, docs/rules.md.

Angles: perft counts and successor sets from the start, random playouts, arbitrary
boards (hypothesis), colour and left-right mirror symmetry, hand-built end-of-game
positions, hand-derived jumps across the narrow middle row, and move notation.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from board_strategies import boards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_oska import (
    ref_movegen,
    ref_result,
    ref_row_lengths,
    ref_start,
    ref_successors,
)

from oska_gui.games.oska import BLACK, PASS, WHITE, Move, OskaRules, Position, oska_rules

TURN = {"w": WHITE, "b": BLACK}
LETTER = {WHITE: "w", BLACK: "b"}
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Board = list[str]
Node = tuple[tuple[str, ...], str]  # (rows, player to move): a hashable position


# -- helpers ------------------------------------------------------------------------


def fast_for(board: Board) -> OskaRules:
    """Return the fast rules object for the size of ``board``."""
    return oska_rules((len(board) + 3) // 2)


def to_position(board: Board, player: str) -> Position:
    """Return the fast module's Position for ``board`` with ``player`` to move."""
    return fast_for(board).from_rows(board, TURN[player])


def fast_successors(board: Board, player: str) -> set[Node]:
    """Return the fast module's children of (board, player) as hashable nodes."""
    rules = fast_for(board)
    kids = rules.children(to_position(board, player))
    return {(tuple(rules.to_rows(k)), LETTER[k.turn]) for k in kids}


def reference_successors(board: Board, player: str) -> set[Node]:
    """Return the reference successors of (board, player) as hashable nodes."""
    return {(tuple(b), nxt) for b, nxt in ref_successors(board, player)}


def fast_movegen(board: Board, player: str) -> set[tuple[str, ...]]:
    """Return the boards after the real moves of ``player`` by the fast module (no pass)."""
    rules = fast_for(board)
    pos = to_position(board, player)
    kids = rules.children(pos)
    return {tuple(rules.to_rows(k)) for k in kids if (k.white, k.black) != (pos.white, pos.black)}


def reason_kind(reason: str) -> str:
    """Map a reason text of either implementation onto captured/both home/home/deadlock."""
    for key in ("captured", "deadlock", "both"):
        if key in reason:
            return "both home" if key == "both" else key
    assert "home" in reason, reason
    return "home"


def fast_result(board: Board) -> tuple[str, str] | None:
    """Return the fast module's outcome as ('w' | 'b' | 'draw', reason kind), or None."""
    out = fast_for(board).outcome(to_position(board, "w"))
    if out is None:
        return None
    winner = "draw" if out.winner is None else LETTER[out.winner]
    return winner, reason_kind(out.reason)


def expected_terminal(board: Board, player: str) -> int | None:
    """Return what ``terminal`` must say for (board, player) according to the reference.

    ``terminal`` covers rules 1-3 only: a deadlock is None there (no children instead).
    """
    result = ref_result(board)
    if result is None or result[1] == "deadlock":
        return None
    if result[0] == "draw":
        return 0
    return 1 if result[0] == player else -1


def assert_same_rules_at(board: Board, player: str) -> None:
    """Assert that fast and reference agree on (board, player): successors and result."""
    assert fast_successors(board, player) == reference_successors(board, player), board
    assert fast_result(board) == ref_result(board), board
    rules = fast_for(board)
    assert rules.terminal(to_position(board, player)) == expected_terminal(board, player), board


def flip_colours(board: Board) -> Board:
    """Return ``board`` upside down with w and b swapped (columns kept in order)."""
    return [row.translate(str.maketrans("wb", "bw")) for row in reversed(board)]


def mirror_left_right(board: Board) -> Board:
    """Return ``board`` with every row reversed."""
    return [row[::-1] for row in board]


# -- perft and exhaustive comparison from the start ------------------------------------


@cache
def fast_perft(n: int, pos: Position, depth: int) -> int:
    """Count the move sequences of length ``depth`` from ``pos`` (fast module).

    A finished game (rules 1-3, or a deadlock: no children) counts as one leaf.
    """
    rules = oska_rules(n)
    if depth == 0 or rules.terminal(pos) is not None:
        return 1
    kids = rules.children(pos)
    if not kids:
        return 1
    return sum(fast_perft(n, kid, depth - 1) for kid in kids)


@cache
def reference_perft(rows: tuple[str, ...], player: str, depth: int) -> int:
    """Count the move sequences of length ``depth`` from (rows, player) (reference)."""
    board = list(rows)
    if depth == 0 or ref_result(board) is not None:
        return 1
    return sum(
        reference_perft(tuple(b), nxt, depth - 1) for b, nxt in ref_successors(board, player)
    )


# Both implementations produced these; perft(1) = 6 and perft(2) = 36 for n = 4 are also
# hand-derived: White's four back-row pieces have 1, 2, 2, 1 steps (the assignment's
# example) and Black has the same six steps, untouched by a white piece on row 1.
PERFT = {
    4: [1, 6, 36, 168, 784, 3376, 13584, 53704, 200272],
    5: [1, 8, 64, 432, 2916, 18036, 111556],
    6: [1, 10, 100, 880, 7744, 63184],
}


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(PERFT))
def test_perft_fast_and_reference_agree_with_the_table(n: int) -> None:
    """Perft counts from the start agree between the two implementations, ply by ply."""
    rules = oska_rules(n)
    fast = [fast_perft(n, rules.start(), d) for d in range(len(PERFT[n]))]
    ref = [reference_perft(tuple(ref_start(n)), "w", d) for d in range(len(PERFT[n]))]
    assert fast == ref
    assert fast == PERFT[n]


def test_start_position_matches_reference() -> None:
    """The fast start position is the reference's, White to move, for n = 4..8."""
    for n in range(4, 9):
        rules = oska_rules(n)
        assert rules.to_rows(rules.start()) == ref_start(n)
        assert rules.start().turn == WHITE
        assert list(rules.lengths) == ref_row_lengths(n)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "plies"), [(4, 7), (5, 4), (6, 3)])
def test_every_node_near_the_start_has_the_same_successors(n: int, plies: int) -> None:
    """Breadth-first over all distinct nodes up to ``plies``: successors and results match."""
    frontier: set[Node] = {(tuple(ref_start(n)), "w")}
    seen: set[Node] = set()
    for _ in range(plies + 1):
        next_frontier: set[Node] = set()
        for rows, player in frontier:
            board = list(rows)
            assert_same_rules_at(board, player)
            if ref_result(board) is None:
                next_frontier |= reference_successors(board, player)
        seen |= frontier
        frontier = next_frontier - seen
    assert len(seen) > 100


@pytest.mark.slow
def test_random_playouts_agree_everywhere() -> None:
    """Seeded random games for n = 4..8: every position visited agrees (4000+ in all)."""
    rng = random.Random(20240607)
    visited = 0
    for game in range(60):
        n = 4 + game % 5
        rules = oska_rules(n)
        pos = rules.start()
        while True:
            board = rules.to_rows(pos)
            assert_same_rules_at(board, LETTER[pos.turn])
            visited += 1
            kids = rules.children(pos)
            if rules.terminal(pos) is not None or not kids:
                break
            pos = rng.choice(sorted(kids))
    assert visited > 3000


@pytest.mark.slow
def test_n4_start_is_a_white_win_both_ways() -> None:
    """docs/rules.md: the n = 4 start is a White win with perfect play.

    The fast module proves it (White to move: some child wins; Black: every child wins).
    The reference then checks that proof tree on its own: it generates every Black reply
    itself and only asks the fast proof which White move to follow.
    """
    rules = oska_rules(4)

    @cache
    def white_wins(pos: Position) -> bool:
        """Return True when White can force a win from ``pos`` (fast module)."""
        done = rules.terminal(pos)
        if done is not None:
            return done == (1 if pos.turn == WHITE else -1)
        kids = rules.children(pos)
        if not kids:
            return False
        return any(map(white_wins, kids)) if pos.turn == WHITE else all(map(white_wins, kids))

    @cache
    def reference_confirms(rows: tuple[str, ...], player: str) -> bool:
        """Return True when the reference rules confirm White's win along the proof."""
        board = list(rows)
        result = ref_result(board)
        if result is not None:
            return result[0] == "w"
        options = ref_successors(board, player)
        if player == "w":
            chosen = [(b, nxt) for b, nxt in options if white_wins(to_position(b, nxt))][:1]
            return bool(chosen) and reference_confirms(tuple(chosen[0][0]), chosen[0][1])
        return all(reference_confirms(tuple(b), nxt) for b, nxt in options)

    assert white_wins(rules.start())
    assert reference_confirms(tuple(ref_start(4)), "w")


# -- arbitrary boards --------------------------------------------------------------------


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"))
def test_arbitrary_boards_agree(board: Board, player: str) -> None:
    """Any placement, either side to move: same successors, same result, same terminal."""
    assert_same_rules_at(board, player)


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"))
def test_rows_round_trip(board: Board, player: str) -> None:
    """``to_rows(from_rows(board))`` gives the board back and keeps the side to move."""
    rules = fast_for(board)
    pos = to_position(board, player)
    assert rules.to_rows(pos) == board
    assert pos.turn == TURN[player]
    assert pos.white.bit_count() == sum(r.count("w") for r in board)
    assert pos.black.bit_count() == sum(r.count("b") for r in board)


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"))
def test_terminal_and_outcome_agree(board: Board, player: str) -> None:
    """``terminal`` (side-to-move view) and ``outcome`` (winner) tell the same story."""
    rules = fast_for(board)
    pos = to_position(board, player)
    out, term = rules.outcome(pos), rules.terminal(pos)
    if out is None or "deadlock" in out.reason:
        assert term is None
        return
    if out.winner is None:
        assert term == 0
    else:
        assert term == (1 if out.winner == pos.turn else -1)


def test_terminal_and_outcome_agree_on_the_empty_board() -> None:
    """Even on the (unreachable) board without pieces the two must not contradict.

    ``outcome`` says White wins, ``terminal`` with White to move says White has lost.
    docs/rules.md gives no verdict for this board; either verdict, but one, would do.
    """
    rules = oska_rules(4)
    for turn in (WHITE, BLACK):
        pos = Position(0, 0, turn)
        out, term = rules.outcome(pos), rules.terminal(pos)
        assert out is not None and term is not None
        if out.winner is None:
            assert term == 0
        else:
            assert term == (1 if out.winner == turn else -1)


# -- symmetry ------------------------------------------------------------------------------


def test_row_lengths_are_symmetric() -> None:
    """Row r and row 2n-4-r have the same length, so reversing rows keeps every X."""
    for n in range(4, 13):
        lengths = ref_row_lengths(n)
        assert lengths == lengths[::-1]
        assert len(lengths) == 2 * n - 3


@SETTINGS
@given(board=boards())
def test_colour_flip_maps_white_moves_to_black_moves(board: Board) -> None:
    """Upside down with colours swapped, White's moves become exactly Black's moves."""
    flipped = flip_colours(board)
    for player, other in (("w", "b"), ("b", "w")):
        mapped = {tuple(flip_colours(list(b))) for b in fast_movegen(board, player)}
        assert mapped == fast_movegen(flipped, other)
        ref_mapped = {tuple(flip_colours(b)) for b in ref_movegen(board, player)}
        assert ref_mapped == {tuple(b) for b in ref_movegen(flipped, other)}
    swap = {"w": "b", "b": "w", "draw": "draw"}
    result, flipped_result = fast_result(board), fast_result(flipped)
    assert (result is None) == (flipped_result is None)
    if result is not None:
        assert flipped_result == (swap[result[0]], result[1])


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"))
def test_left_right_mirror_maps_moves_to_mirrored_moves(board: Board, player: str) -> None:
    """Reversing every row (X -> 2n-2-X) maps the set of moves onto itself mirrored."""
    mirrored = mirror_left_right(board)
    mapped = {tuple(mirror_left_right(list(b))) for b in fast_movegen(board, player)}
    assert mapped == fast_movegen(mirrored, player)
    assert fast_result(mirrored) == fast_result(board)


# -- hand-built end-of-game positions ------------------------------------------------------


END_POSITIONS = [
    # (board, expected result, why)
    (["----", "---", "--", "-w-", "-w--"], ("w", "captured"), "black has no pieces"),
    (["----", "-b-", "--", "---", "----"], ("b", "captured"), "white has no pieces"),
    (["----", "---", "--", "---", "w---"], ("w", "captured"), "rule 1 before rule 3"),
    # rule 2: both home, count decides
    (["bb--", "---", "--", "---", "-w--"], ("b", "both home"), "2 black to 1 white"),
    (["b---", "---", "--", "---", "ww-w"], ("w", "both home"), "3 white to 1 black"),
    (["b--b", "---", "--", "---", "w--w"], ("draw", "both home"), "2 each"),
    # rule 3: one side home, other side still out on the board
    (["----", "-b-", "--", "-b-", "w--w"], ("w", "home"), "white home, black not"),
    (["-bbb", "-w-", "--", "w--", "----"], ("b", "home"), "black home, white not"),
    (["w---", "---", "--", "---", "wb--"], None, "a white piece still on row 0"),
    (["----", "---", "--", "-w-", "-b--"], None, "black on its own back row is not home"),
    # deadlock: Black's row-1 piece (X=1) needs row 0 at X=0 or X=2, both black; White's
    # row-3 piece (X=1) needs row 4 at X=0 or X=2, both white; back-row pieces never move.
    (["bb--", "b--", "--", "w--", "ww--"], ("draw", "deadlock"), "neither side can move"),
]


@pytest.mark.parametrize(("board", "expected", "why"), END_POSITIONS)
def test_end_of_game_rules(board: Board, expected: tuple[str, str] | None, why: str) -> None:
    """Every end-of-game rule on a hand-built board, both implementations."""
    assert ref_result(board) == expected, why
    assert fast_result(board) == expected, why
    for player in "wb":
        term = fast_for(board).terminal(to_position(board, player))
        assert term == expected_terminal(board, player), why


def test_deadlock_has_no_children() -> None:
    """In the deadlock neither side moves and there is no pass either."""
    board = ["bb--", "b--", "--", "w--", "ww--"]
    for player in "wb":
        assert ref_movegen(board, player) == []
        assert fast_successors(board, player) == set()
        assert reference_successors(board, player) == set()
        assert fast_for(board).moves(to_position(board, player)) == []


def test_pass_position() -> None:
    """White's pieces are blocked by their own (row 3 X=1 -> row 4 X=0, X=2), Black can move.

    The only successor is the same board with Black to move; the game is not over.
    """
    board = ["----", "-b-", "--", "w--", "ww--"]
    rules = fast_for(board)
    pos = to_position(board, "w")
    assert ref_movegen(board, "w") == []
    assert ref_result(board) is None and rules.outcome(pos) is None
    assert fast_successors(board, "w") == {(tuple(board), "b")}
    assert reference_successors(board, "w") == {(tuple(board), "b")}
    assert rules.moves(pos) == [PASS]
    assert rules.move_text(PASS) == "pass"
    assert rules.parse_move("pass", pos) == PASS
    assert rules.play(pos, PASS) == Position(pos.white, pos.black, BLACK)


def test_capture_into_completion_hands_the_opponent_the_game() -> None:
    """Rule 3 for the side that did not move.

    n = 4, Black has one piece home (row 0) and one on row 2 (X=2). White's row-1 piece
    (X=1) jumps over it to row 3 X=3. Now all of Black's remaining pieces are home and
    White's piece is not: Black wins although White moved.
    """
    before = ["b---", "w--", "b-", "---", "----"]
    after = ["b---", "---", "--", "-w-", "----"]
    assert ref_result(before) is None and fast_result(before) is None
    assert after in ref_movegen(before, "w")
    assert tuple(after) in fast_movegen(before, "w")
    assert ref_result(after) == ("b", "home")
    assert fast_result(after) == ("b", "home")
    assert fast_for(after).terminal(to_position(after, "b")) == 1


def test_last_capture_wins_even_when_it_completes_nothing() -> None:
    """Capturing the opponent's last piece wins by rule 1 (checked before home rules)."""
    before = ["----", "w--", "b-", "---", "b---"]
    after = ["----", "---", "--", "-w-", "b---"]
    # White's row-1 X=1 piece jumps to row 3 X=3; Black keeps its row-4 piece: not over.
    assert fast_result(after) is None and ref_result(after) is None
    assert tuple(after) in fast_movegen(before, "w")
    last = ["----", "w--", "b-", "---", "----"]
    assert fast_result(["----", "---", "--", "-w-", "----"]) == ("w", "captured")
    assert ref_movegen(last, "w") == [["----", "---", "--", "-w-", "----"]]


# -- jumps across the narrow middle row ------------------------------------------------------

# X = (n - L) + 2c.  n = 4: rows of lengths 4, 3, 2, 3, 4 have X in
#   row 0 {0,2,4,6}, row 1 {1,3,5}, row 2 {2,4}, row 3 {1,3,5}, row 4 {0,2,4,6}.
# n = 5: rows 5,4,3,2,3,4,5 have X in row 1 {1,3,5,7}, row 2 {2,4,6}, row 3 {3,5},
#   row 4 {2,4,6}, row 5 {1,3,5,7}.
# n = 6: rows 6,5,4,3,2,3,4,5,6 have X in row 2 {2,4,6,8}, row 3 {3,5,7}, row 4 {4,6},
#   row 5 {3,5,7}, row 6 {2,4,6,8}.
MIDDLE_JUMPS = [
    # n = 4, White row 1 c0 (X=1): down-right over row 2 X=2 (c0) to row 3 X=3 (c1);
    # down-left would need X=0 in row 2 (none); its steps are off-board or onto the black.
    (["----", "w--", "b-", "---", "---b"], "w", [["----", "---", "--", "-w-", "---b"]]),
    # n = 4, White row 2 c1 (X=4), both steps blocked: over row 3 X=3 (c1) to row 4 X=2
    # (c1), and over row 3 X=5 (c2) to row 4 X=6 (c3).
    (
        ["----", "---", "-w", "-bb", "----"],
        "w",
        [["----", "---", "--", "--b", "-w--"], ["----", "---", "--", "-b-", "---w"]],
    ),
    # n = 4, Black row 3 c2 (X=5): up-left over row 2 X=4 (c1) to row 1 X=3 (c1).
    (["----", "---", "-w", "--b", "----"], "b", [["----", "-b-", "--", "---", "----"]]),
    # n = 5, White row 2 c0 (X=2): over row 3 X=3 (c0) to row 4 X=4 (c1).
    (
        ["-----", "----", "w--", "b-", "---", "----", "----b"],
        "w",
        [["-----", "----", "---", "--", "-w-", "----", "----b"]],
    ),
    # n = 5, White row 1 c3 (X=7): over row 2 X=6 (c2) to row 3 X=5 (c1).
    (
        ["-----", "---w", "--b", "--", "---", "----", "-----"],
        "w",
        [["-----", "----", "---", "-w", "---", "----", "-----"]],
    ),
    # n = 5, Black row 4 c2 (X=6): over row 3 X=5 (c1) to row 2 X=4 (c1).
    (
        ["-----", "----", "---", "-w", "--b", "----", "-----"],
        "b",
        [["-----", "----", "-b-", "--", "---", "----", "-----"]],
    ),
    # n = 6, White row 3 c0 (X=3): over row 4 X=4 (c0) to row 5 X=5 (c1).
    (
        ["------", "-----", "----", "w--", "b-", "---", "----", "-----", "-----b"],
        "w",
        [["------", "-----", "----", "---", "--", "-w-", "----", "-----", "-----b"]],
    ),
    # n = 6, White row 2 c3 (X=8): over row 3 X=7 (c2) to row 4 X=6 (c1).
    (
        ["------", "-----", "---w", "--b", "--", "---", "----", "-----", "------"],
        "w",
        [["------", "-----", "----", "---", "-w", "---", "----", "-----", "------"]],
    ),
    # n = 6, Black row 5 c1 (X=5), both steps blocked: over row 4 X=4 (c0) to row 3 X=3
    # (c0), and over row 4 X=6 (c1) to row 3 X=7 (c2).
    (
        ["------", "-----", "----", "---", "ww", "-b-", "----", "-----", "------"],
        "b",
        [
            ["------", "-----", "----", "b--", "-w", "---", "----", "-----", "------"],
            ["------", "-----", "----", "--b", "w-", "---", "----", "-----", "------"],
        ],
    ),
]


@pytest.mark.parametrize(("board", "player", "expected"), MIDDLE_JUMPS)
def test_jumps_across_the_narrow_middle(board: Board, player: str, expected: list[Board]) -> None:
    """Hand-derived jumps near and across the two-cell row, both implementations."""
    want = {tuple(b) for b in expected}
    assert {tuple(b) for b in ref_movegen(board, player)} == want
    assert fast_movegen(board, player) == want


def test_the_assignment_example() -> None:
    """The assignment's example: White's six opening moves for n = 4, 'www-', '--w' among them."""
    board = ["wwww", "---", "--", "---", "bbbb"]
    expected = {
        ("-www", "w--"),
        ("w-ww", "w--"),
        ("w-ww", "-w-"),
        ("ww-w", "-w-"),
        ("ww-w", "--w"),
        ("www-", "--w"),
    }
    want = {top + ("--", "---", "bbbb") for top in expected}
    assert {tuple(b) for b in ref_movegen(board, "w")} == want
    assert fast_movegen(board, "w") == want
    assert len(fast_for(board).children(to_position(board, "w"))) == 6


# -- notation ----------------------------------------------------------------------------------


def cell_name(row: int, column: int) -> str:
    """Return the expected name of a cell: row letter from 'a', column from 1."""
    return f"{chr(ord('a') + row)}{column + 1}"


def expected_text(before: Board, after: Board, player: str) -> str:
    """Return the notation of the move ``before`` -> ``after`` derived from the boards."""
    frm = to = None
    captured = False
    for r, (old, new) in enumerate(zip(before, after, strict=True)):
        for c, (a, b) in enumerate(zip(old, new, strict=True)):
            if a == player and b == "-":
                frm = (r, c)
            elif a == "-" and b == player:
                to = (r, c)
            elif a != b:
                captured = True
    assert frm is not None and to is not None
    return f"{cell_name(*frm)}{'x' if captured else '-'}{cell_name(*to)}"


def random_positions(count: int, seed: int) -> list[tuple[OskaRules, Position]]:
    """Return ``count`` (rules, position) pairs from seeded random playouts for n = 4..8."""
    rng = random.Random(seed)
    out: list[tuple[OskaRules, Position]] = []
    while len(out) < count:
        rules = oska_rules(rng.randint(4, 8))
        pos = rules.start()
        while rules.terminal(pos) is None and rules.children(pos):
            out.append((rules, pos))
            pos = rng.choice(sorted(rules.children(pos)))
    return out


def test_notation_round_trip() -> None:
    """Every legal move in random positions prints as expected and parses back."""
    checked = 0
    for rules, pos in random_positions(400, seed=7):
        before = rules.to_rows(pos)
        player = LETTER[pos.turn]
        for child in rules.children(pos):
            move = rules.move_between(pos, child)
            text = rules.move_text(move)
            assert rules.parse_move(text, pos) == move
            assert rules.parse_move(f"  {text.upper()} ", pos) == move
            assert rules.play(pos, move) == child
            if not move.is_pass:
                assert text == expected_text(before, rules.to_rows(child), player)
            checked += 1
        assert rules.moves(pos) == [rules.move_between(pos, c) for c in rules.children(pos)]
    assert checked > 1000


ILLEGAL_TEXTS = ["", "pass", "hello", "a1", "a1-a1", "z1-a2", "a0-b1", "a1-b9", "e1-d1", "a1xc2"]


@pytest.mark.parametrize("text", ILLEGAL_TEXTS)
def test_illegal_move_text_raises(text: str) -> None:
    """Nonsense, unknown cells, backward or illegal moves, and a needless pass: ValueError."""
    rules = oska_rules(4)
    with pytest.raises(ValueError):
        rules.parse_move(text, rules.start())


def test_illegal_move_raises_in_play() -> None:
    """``play`` refuses a move that is not legal in the position."""
    rules = oska_rules(4)
    with pytest.raises(ValueError):
        rules.play(rules.start(), Move(0, 5))
    with pytest.raises(ValueError):
        rules.play(rules.start(), PASS)


def test_parse_move_requires_the_right_separator() -> None:
    """A step written with 'x' or a jump written with '-' is refused, not guessed."""
    rules = oska_rules(4)
    pos = rules.from_rows(["-www", "w--", "b-", "---", "bbb-"], WHITE)
    jump = next(m for m in rules.moves(pos) if m.is_capture)
    step = next(m for m in rules.moves(pos) if not m.is_capture)
    for move, wrong in ((jump, "-"), (step, "x")):
        text = rules.move_text(move)
        assert rules.parse_move(text, pos) == move
        with pytest.raises(ValueError):
            rules.parse_move(text.replace("x" if move.is_capture else "-", wrong), pos)
