"""Positions to test someone's ``movegen``/``oskaplayer`` on, for the check command.

Two sources per board size: positions met in seeded random playouts (with either
player asked to move), and tricky hand-made boards where home-made move generators
tend to go wrong: a lone piece on every cell (pieces at a row's edge, where a negative
index wraps around in Python; pieces already home), an opponent next to every piece
(jumps, including across the narrow middle row, and captures that would leave the
board), jumps onto occupied cells, blocked pieces that must pass, and a side with
nearly all pieces home.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from oska_gui.core.types import BLACK, SIDE_LETTERS, WHITE, Position, pieces
from oska_gui.games.oska import OskaRules

PLAYOUT = "random playout"


@dataclass(frozen=True)
class Case:
    """One test input: a board (row strings), the player asked to move and why it is here."""

    n: int
    rows: tuple[str, ...]
    player: str
    label: str

    def position(self, rules: OskaRules) -> Position:
        """Return the case as a Position with ``player`` to move."""
        return rules.from_rows(list(self.rows), SIDE_LETTERS.index(self.player))


def case_of(rules: OskaRules, pos: Position, label: str, player: int | None = None) -> Case:
    """Return the Case of ``pos`` asking ``player`` (default: the side to move) to move."""
    side = pos.turn if player is None else player
    return Case(rules.n, tuple(rules.to_rows(pos)), SIDE_LETTERS[side], label)


def playout_cases(rules: OskaRules, games: int, rng: random.Random) -> list[Case]:
    """Return the positions of ``games`` random playouts, each asked of both players."""
    cases = []
    for _ in range(games):
        pos = rules.start()
        while True:
            cases.append(case_of(rules, pos, PLAYOUT))
            cases.append(case_of(rules, pos, PLAYOUT, 1 - pos.turn))
            kids = rules.children(pos) if rules.outcome(pos) is None else []
            if not kids:
                break
            pos = rng.choice(kids)
    return cases


def tricky_cases(rules: OskaRules) -> list[Case]:
    """Return the hand-made boards of every kind listed in the module's docstring."""
    cases = []
    for side in (WHITE, BLACK):
        for cell in range(rules.size):
            cases.append(_made(rules, side, [cell], [], _lone_label(rules, side, cell)))
            cases.extend(_neighbour_cases(rules, side, cell))
            if rules.rows_to_go[side][cell]:
                cases.append(_blocked_case(rules, side, cell))
        cases.append(_nearly_home_case(rules, side))
    return cases


def _made(rules: OskaRules, side: int, own: list[int], opp: list[int], label: str) -> Case:
    """Return a Case with ``side``'s pieces on cells ``own`` and the opponent's on ``opp``."""
    own_mask, opp_mask = sum(1 << c for c in set(own)), sum(1 << c for c in set(opp))
    white, black = (own_mask, opp_mask) if side == WHITE else (opp_mask, own_mask)
    return case_of(rules, Position(white, black, side), label)


def _lone_label(rules: OskaRules, side: int, cell: int) -> str:
    """Return the label of a lone piece on ``cell``: home, at a row's edge or neither."""
    row, column = rules.cells[cell]
    if not rules.rows_to_go[side][cell]:
        return "piece already home"
    if column in (0, rules.lengths[row] - 1):
        return "piece at a row's edge"
    return "lone piece"


def _neighbour_cases(rules: OskaRules, side: int, cell: int) -> list[Case]:
    """Return boards with an opponent on each cell ``cell`` could step to."""
    middle = rules.n - 2
    cases = []
    for step in rules.steps[side][cell]:
        target = step.bit_length() - 1
        landings = [to.bit_length() - 1 for over, to in rules.jumps[side][cell] if over == step]
        if not landings:
            cases.append(_made(rules, side, [cell], [target], "capture that would leave the board"))
            continue
        crossing = rules.cells[target][0] == middle
        label = "jump across the middle" if crossing else "jump"
        cases.append(_made(rules, side, [cell], [target], label))
        cases.append(_made(rules, side, [cell, landings[0]], [target], f"{label}, landing taken"))
        cases.append(_made(rules, side, [cell], [target, landings[0]], f"{label}, landing taken"))
    return cases


def _blocked_case(rules: OskaRules, side: int, cell: int) -> Case:
    """Return a board where the piece on ``cell`` cannot move: every target is taken."""
    blockers = [to for _, to in rules.jumps[side][cell]] + list(rules.steps[side][cell])
    return _made(rules, side, [cell], pieces(sum(blockers)), "no move (must pass)")


def _nearly_home_case(rules: OskaRules, side: int) -> Case:
    """Return a board with all but one of ``side``'s goal cells taken and one piece to come."""
    goal = pieces(rules.goal[side])
    before_goal = [cell for cell in range(rules.size) if rules.rows_to_go[side][cell] == 1]
    middle = rules.row_masks[rules.n - 2]
    return _made(rules, side, goal[1:] + before_goal[:1], pieces(middle)[:1],
                 "pieces already home")


def unique(cases: list[Case]) -> list[Case]:
    """Return ``cases`` without repeats of a (board, player), keeping the first label."""
    seen: dict[tuple[tuple[str, ...], str], Case] = {}
    for case in cases:
        seen.setdefault((case.rows, case.player), case)
    return list(seen.values())


def player_cases(rules: OskaRules, cases: list[Case], count: int,
                 rng: random.Random) -> list[Case]:
    """Return positions for testing ``oskaplayer``: games not over, the mover to move.

    ``count`` positions where the mover has a move and half as many (at least two)
    where it has none and must pass, drawn by ``rng`` from ``cases``.
    """
    playable = [case for case in cases if rules.outcome(case.position(rules)) is None]
    stuck = [case for case in playable if not rules.has_move(case.position(rules))]
    movable = [case for case in playable if rules.has_move(case.position(rules))]
    return (rng.sample(stuck, min(max(count // 2, 2), len(stuck)))
            + rng.sample(movable, min(count, len(movable))))
