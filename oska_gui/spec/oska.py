"""The classic Oska assignment functions, ``movegen`` and ``oskaplayer``.

Both accept the spec's board forms (see ``boards``), never modify their input, return
results in the input's form and are deterministic. They are thin wrappers over the
rules module and the shared alpha-beta search.
"""

from __future__ import annotations

from oska_gui.engine.evaluators import DEFAULT_EVALUATOR, EVALUATORS, oska_evaluator
from oska_gui.engine.search import best_child
from oska_gui.games.board_forms import read_board, read_depth, read_player


def movegen(board: list, player: str) -> list[list]:
    """Return every board reachable in one move by ``player`` ('w' or 'b').

    Args:
        board: a list of 2n-3 row strings, or of lists of one-character strings.
        player: 'w' (moves down) or 'b' (moves up).

    Returns:
        A new list of new boards in the input's form, captures first; [] when
        ``player`` has no legal move. It does not check whether the game is over.
    """
    rules, rows, form = read_board(board)
    pos = rules.from_rows(rows, read_player(player))
    return [form.write(rules.to_rows(child)) for child in rules.real_children(pos)]


def oskaplayer(board: list, player: str, depth: int, evaluator: str = DEFAULT_EVALUATOR) -> list:
    """Return the board after ``player``'s best move by minimax ``depth`` plies deep.

    Args:
        board: a list of 2n-3 row strings, or of lists of one-character strings.
        player: 'w' or 'b', the side to move.
        depth: how many plies (moves, a pass counts) to look ahead, exactly; >= 1.
        evaluator: the static evaluator's name: 'strong', 'classic', 'simple' or 'race'.

    Returns:
        A new board in the input's form; an unchanged copy of the input when
        ``player`` has no legal move or the game is already over.
    """
    rules, rows, form = read_board(board)
    pos = rules.from_rows(rows, read_player(player))
    depth = read_depth(depth)
    evaluator = read_evaluator(evaluator)
    # terminal() is rules 1-3; a deadlock is a position where the player has no move
    if rules.terminal(pos) is not None or not rules.has_move(pos):
        return form.write(rules.to_rows(pos))
    child = best_child(rules, oska_evaluator(rules, evaluator), pos, depth)
    return form.write(rules.to_rows(child))


def read_evaluator(name: object) -> str:
    """Return ``name`` if it names an evaluator; raises TypeError/ValueError saying so."""
    names = ", ".join(repr(known) for known in EVALUATORS)
    if not isinstance(name, str):
        raise TypeError(f"evaluator must be the name of an evaluator ({names}), "
                        f"not {type(name).__name__}")
    if name not in EVALUATORS:
        raise ValueError(f"evaluator must be one of {names}, got {name!r:.80}")
    return name

