"""Shared helpers of the evaluator tests (classic, learned, patterns, training).

Hypothesis strategies for arbitrary Oska positions, their mirror images, and piece
counts found the slow way, from the rules' own row lists and move generator.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from oska_gui.games.oska import BLACK, WHITE, OskaRules, Position, oska_rules, pieces

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

Case = tuple[OskaRules, Position]


# -- positions ------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, sizes: tuple[int, ...] = (4, 5, 6, 7, 8)) -> Case:
    """Draw a board size and an arbitrary board on it (1..n pieces a side, anywhere)."""
    n = draw(st.sampled_from(sizes))
    rules = oska_rules(n)
    cells = draw(st.permutations(range(rules.size)))
    k_white = draw(st.integers(1, n))
    k_black = draw(st.integers(1, n))
    white = sum(1 << c for c in cells[:k_white])
    black = sum(1 << c for c in cells[k_white:k_white + k_black])
    return rules, Position(white, black, draw(st.sampled_from((WHITE, BLACK))))


@st.composite
def passed_positions(draw: st.DrawFn) -> Case:
    """Draw a small position (n = 4 or 5, up to 3 pieces a side) with the armies passed."""
    rules = oska_rules(draw(st.sampled_from((4, 5))))
    split = draw(st.integers(1, len(rules.lengths) - 2))
    below = [c for c in range(rules.size) if rules.cells[c][0] >= split]
    whites = draw(st.sets(st.sampled_from(below), min_size=1, max_size=3))
    above = [c for c in range(rules.size) if rules.cells[c][0] <= split and c not in whites]
    blacks = draw(st.sets(st.sampled_from(above), min_size=1, max_size=3))
    pos = Position(sum(1 << c for c in whites), sum(1 << c for c in blacks),
                   draw(st.sampled_from((WHITE, BLACK))))
    return rules, pos


def colour_mirror(rules: OskaRules, pos: Position) -> Position:
    """Return ``pos`` upside down with the colours and the side to move swapped."""
    swap = str.maketrans("wb", "bw")
    rows = [row.translate(swap) for row in reversed(rules.to_rows(pos))]
    return rules.from_rows(rows, 1 - pos.turn)


def side_mirror(rules: OskaRules, pos: Position) -> Position:
    """Return ``pos`` reflected left to right."""
    return rules.from_rows([row[::-1] for row in rules.to_rows(pos)], pos.turn)


def piece_rows(rules: OskaRules, pos: Position, side: int) -> list[int]:
    """Return the row of each of ``side``'s pieces."""
    return [rules.cells[c][0] for c in pieces(pos[side])]


def in_contact(rules: OskaRules, pos: Position) -> bool:
    """Return True when some White piece is still above some Black piece."""
    return min(piece_rows(rules, pos, WHITE)) < max(piece_rows(rules, pos, BLACK))


# -- the slow way: counts from the rules' move generator ------------------------------


def rows_to_go(rules: OskaRules, pos: Position, side: int) -> int:
    """Return how many rows ``side``'s pieces still have to travel, in total."""
    return sum(rules.rows_to_go[side][c] for c in pieces(pos[side]))


def as_mover(pos: Position, side: int) -> Position:
    """Return ``pos`` with ``side`` to move."""
    return Position(pos.white, pos.black, side)


def stuck(rules: OskaRules, pos: Position, side: int) -> int:
    """Return how many of ``side``'s pieces away from home have no legal move."""
    movers = {m.frm for m in rules.moves(as_mover(pos, side))}
    return sum(1 for c in pieces(pos[side] & rules.not_goal[side]) if c not in movers)


def out_of_reach(rules: OskaRules, pos: Position, side: int) -> int:
    """Return how many of ``side``'s pieces no opponent piece can ever meet again."""
    own, opp = piece_rows(rules, pos, side), piece_rows(rules, pos, 1 - side)
    if side == WHITE:
        return sum(1 for r in own if r >= max(opp))
    return sum(1 for r in own if r <= min(opp))


def reachable_home_cells(rules: OskaRules, side: int, cell: int) -> set[int]:
    """Return the home cells of ``side`` a piece on ``cell`` reaches by steps, by search."""
    seen, todo, home = {cell}, [cell], set()
    while todo:
        here = todo.pop()
        if rules.goal[side] >> here & 1:
            home.add(here)
        for target in rules.steps[side][here]:
            nxt = target.bit_length() - 1
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return home


def most_matched(cones: list[set[int]]) -> int:
    """Return the size of a maximum matching of pieces to cells (augmenting paths)."""
    owner: dict[int, int] = {}

    def place(i: int, tried: set[int]) -> bool:
        """Give cone ``i`` a cell, moving earlier owners along if needed."""
        for cell in cones[i] - tried:
            tried.add(cell)
            if cell not in owner or place(owner[cell], tried):
                owner[cell] = i
                return True
        return False

    return sum(place(i, set()) for i in range(len(cones)))
