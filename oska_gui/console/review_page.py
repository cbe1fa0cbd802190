"""The review page of a game (``oska review --html``, tournament reviews): one HTML file.

Self-contained: its style and a small script are inline, and nothing is fetched from
anywhere. It holds the heading (the game, the players and the result; the search's
budget; where exact values come from), a note that every win chance on it is White's,
each side's summary, then the game to step through: a board with cell names, the
words for the position shown, buttons, the graph of White's win chance (bad moves as
coloured dots) and the move list, each move a button with its mark. A click on a move
or the graph, the buttons and the keys (Left/Right, Home/End; Up/Down within it: the
positions before the marked moves) show a position. Before a move marked ?!, ? or ??
the board shows that move as a red arrow and the better one as a blue arrow: the
better move goes with the position it could have been played in. Below, the moves in
a table (the chances before and after, the points lost, the better move) and, for each
bad move, the board before it with both arrows.

Without JavaScript the page shows what it always did (the heading, the summary, the
graph, the table and the bad moves' boards); the board to step, its buttons and the
move list are left out. Every position is embedded as JSON for the script (each
position's cells, the move that led to it, its arrows and its words). Every name from
the record is HTML-escaped, and the JSON cannot end its script element.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from oska_gui.core.types import SIDE_NAMES, WHITE, Move
from oska_gui.engine.registry import game_info
from oska_gui.play.records import Record
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.marks import Mark
from oska_gui.play.review.result import PlyReview, Review

from .board_svg import BOARD_STYLE, arrows_svg, board_svg
from .outputs import write_text
from .review_graph import GRAPH_STYLE, LEFT, WIDTH, graph_svg, plot_step
from .table import plain

PLAYED_COLOUR = "#d62f24"  # the bad move played, as the review screen's red arrow
BETTER_COLOUR = "#1f5fbf"  # the better move's arrow, as the review screen's blue one
ARROWS_WORDS = "On the board: the move played as the red arrow, the better move as the " \
               "blue arrow."
SCALE_NOTE = ("Every win chance on this page is White's, whoever moves: in the graph, the "
              "tables and the words under the board, 100 % is a sure win for White, 0 % a "
              "sure win for Black and 50 % an even game.")
KEYS_NOTE = ("Click a move or a point of the graph to see that position. Keys: Left and "
             "Right a move back or on, Home and End the start and the end; on the board "
             "or the list, Up and Down the positions before the marked moves.")
NO_SCRIPT = "<noscript><style>.js-only { display: none; }</style></noscript>"


def heading(record: Record, budget: Budget, exact: str) -> list[str]:
    """Return the review's first lines: the game, the players and the result; the
    search's budget; where exact values come from.

    Args:
        record: the game reviewed.
        budget: the search a position could take.
        exact: where the exact values came from, in words (``job.exact_source``).
    """
    info = game_info(record.game)
    outcome = record.ending.describe() if record.ending is not None else "game in progress"
    return [plain(f"{info.title} · {info.size_text(record.n)}: {record.white} (White) vs "
                  f"{record.black} (Black), {outcome}"),
            f"Search: {budget.describe()}",
            plain(f"Exact values: {exact}")]


def write_page(path: Path, review: Review, heading: Sequence[str]) -> None:
    """Write the review page of ``review`` to ``path`` whole; raises CliError if it cannot.

    Args:
        path: the HTML file.
        review: the complete review.
        heading: the command's heading lines (game, players, result; the search).
    """
    write_text(path, page(review, heading), "--html")


def page(review: Review, heading: Sequence[str]) -> str:
    """Return the review page's HTML text (see the module text) under ``heading``'s lines.

    Args:
        review: the complete review.
        heading: the heading's lines, plain text (escaped here).

    Returns:
        The whole page.
    """
    sections = [
        "<h1>Game review</h1>\n<p class=\"head\">" + "<br>".join(map(escape, heading))
        + f"</p>\n<p class=\"scale\">{SCALE_NOTE}</p>",
        _viewer(review),
        "<h2>Summary</h2>\n" + _summary(review),
        "<h2>The moves in detail</h2>\n" + _moves(review),
        "<h2>Where it went wrong</h2>\n" + _mistakes(review),
        '<script type="application/json" id="review-data">' + script_json(data(review))
        + "</script>",
        f"<script>\n{_asset('review_page.js')}</script>",
    ]
    style = _asset("review_page.css") + BOARD_STYLE + GRAPH_STYLE
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>Game review</title>\n<style>\n{style}</style>\n{NO_SCRIPT}\n</head>\n"
            "<body>\n" + "\n".join(sections) + "\n</body>\n</html>\n")


@cache
def _asset(name: str) -> str:
    """Return the text of the page's file ``name`` (its script or style), beside this one."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """Return ``value`` as JSON that is safe inside a ``<script>`` element: no '<', '>'
    or '&' (written as JSON escapes), so no text in it can close the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def data(review: Review) -> dict[str, Any]:
    """Return what the page's script shows, position by position.

    Returns:
        ``names``: each cell's name; ``positions``: each position's cells as one string
        over 'w', 'b' and '-' (the rows of ``rules.to_rows`` joined); ``moves``: the
        cells [from, to] of the move that led to each position (None at the start and
        for a pass); ``arrows``: each position's arrows as SVG ('' for none); ``texts``:
        each position's words; ``bad``: the positions before the marked moves;
        ``graph``: where the graph's points lie (``x0`` + index * ``dx`` of ``width``).
    """
    record, rules = review.record, review.record.rules
    positions = review.positions
    moves: list[list[int] | None] = [None]
    for before, after in zip(positions, positions[1:], strict=False):
        move = rules.move_between(before, after)
        moves.append(None if move.frm < 0 else [move.frm, move.to])
    return {
        "names": [rules.cell_name(cell) for cell in range(len(rules.cells))],
        "positions": ["".join(rules.to_rows(pos)) for pos in positions],
        "moves": moves,
        "arrows": [arrows_svg(record.game, record.n, replaced_arrows(review, index))
                   for index in range(len(positions))],
        "texts": [position_text(review, index) for index in range(len(positions))],
        "bad": [ply.ply - 1 for ply in review.plies if ply.better],
        "graph": {"x0": LEFT, "dx": plot_step(len(positions) - 1), "width": WIDTH},
    }


def replaced_arrows(review: Review, index: int) -> list[tuple[Move, str]]:
    """Return the arrows of position ``index``: when the move played from it is marked
    ?!, ? or ??, that move (red) and the better one (blue, on top); else none."""
    plies = review.plies
    if index >= len(plies) or not plies[index].better:
        return []
    rules = review.record.rules
    before, after = review.positions[index], review.positions[index + 1]
    better = rules.parse_move(plies[index].better, before)
    return [(rules.move_between(before, after), PLAYED_COLOUR), (better, BETTER_COLOUR)]


def position_text(review: Review, index: int) -> str:
    """Return the words for position ``index``: the move that led to it with its mark
    (and the better move after a bad one), White's win chance there, and, when the move
    played next is marked ?!, ? or ??, that move and the better one (the arrows)."""
    last = len(review.positions) - 1
    if index == 0:
        head = f"Start of the game, {last} moves to review"
    else:
        ply = review.plies[index - 1]
        head = f"Move {index} of {last}: {SIDE_NAMES[ply.side]} {ply.played}, {_verdict(ply)}"
    text = f"{head}. White's win chance {100 * review.white_chances()[index]:.0f} %."
    following = review.plies[index] if index < len(review.plies) else None
    if following is not None and following.better:
        text += (f" Next, {SIDE_NAMES[following.side]} {following.played}: "
                 f"{following.mark.value} ({following.mark.symbol}); better "
                 f"{following.better}. {ARROWS_WORDS}")
    return text


def _verdict(ply: PlyReview) -> str:
    """Return a move's mark in words: 'blunder (??), 32.1 points lost; better i1-h1',
    'good', or that it was a random opening move."""
    if not ply.judged:
        return "a random opening move (not judged)"
    if not ply.mark.bad:
        return ply.mark.value
    return f"{ply.mark.value} ({ply.mark.symbol}), {ply.drop:.1f} points lost; better " \
           f"{ply.better}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Return an HTML table of cells already escaped (or marked up), in a box that
    scrolls sideways where the page is narrower than the table."""
    head = "".join(f"<th>{escape(header)}</th>" for header in headers)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                     for row in rows)
    return f'<div class="wide"><table>\n<tr>{head}</tr>\n{body}\n</table></div>'


def _summary(review: Review) -> str:
    """Return each side's accuracy and the number of each mark as a table."""
    record = review.record
    rows = []
    for side in (WHITE, 1 - WHITE):
        summary = review.summary(side)
        name = record.white if side == WHITE else record.black
        rows.append([escape(f"{SIDE_NAMES[side]}: {name}"), summary.accuracy_text(),
                     *(str(summary.counts[mark]) for mark in Mark)])
    return _table(["side", "accuracy", *(mark.value for mark in Mark)], rows)


def _viewer(review: Review) -> str:
    """Return the game to step through: the board (at the start) beside its words,
    the buttons, the graph and the move list (all but the graph only with JavaScript)."""
    record, rules = review.record, review.record.rules
    start = review.positions[0]
    names = [rules.cell_name(cell) for cell in range(len(rules.cells))]
    board = board_svg(record.game, record.n, rules.to_rows(start), "The board", names,
                      live=True)
    buttons = "".join(f'<button type="button" data-step="{step}">{label}</button>'
                      for step, label in (("start", "Start"), ("-1", "Previous"),
                                          ("1", "Next"), ("end", "End")))
    return (
        '<section id="viewer" class="viewer" aria-label="The game, move by move">\n'
        f'<div class="js-only">{board}</div>\n<div>\n'
        f'<p id="caption" class="js-only" aria-live="polite">'
        f"{escape(position_text(review, 0))}</p>\n"
        f'<div class="nav js-only">{buttons}</div>\n<p class="keys js-only">{KEYS_NOTE}</p>\n'
        "<h2>White's win chance</h2>\n" + graph(review) + "\n" + _legend()
        + '\n<h2 class="js-only">Moves</h2>\n' + _move_list(review) + "\n</div>\n</section>")


def graph(review: Review) -> str:
    """Return White's win chance at each position as an inline SVG graph, the judged
    bad moves as dots in their mark's colour (``review_graph``)."""
    dots = [(ply.ply, ply.mark.value,
             f"Ply {ply.ply}, {SIDE_NAMES[ply.side]} {ply.annotated} ({ply.mark.value})")
            for ply in review.plies if ply.judged and ply.mark.bad]
    return graph_svg(review.white_chances(), dots,
                     "White's win chance, position by position, with the bad moves as "
                     "coloured dots")


def _legend() -> str:
    """Return the key to the graph's dots and the board's arrows."""
    dots = ", ".join(f'<span class="{mark.value}">●</span> {mark.symbol} {mark.value}'
                     for mark in Mark if mark.bad)
    return (f'<p class="legend">Dots: {dots}.<span class="js-only"> The line is the '
            f"position shown. {ARROWS_WORDS}</span></p>")


def _move_list(review: Review) -> str:
    """Return the move list: each move a button (to show the position after it) with
    its mark's symbol in the mark's colour, two a row after the move's number."""
    items = []
    for ply in review.plies:
        if ply.ply % 2 == 1:
            items.append(f'<span class="no">{ply.ply // 2 + 1}.</span>')
        symbol = f" <b>{ply.mark.symbol}</b>" if ply.better else ""
        label = f"Move {ply.ply}, {SIDE_NAMES[ply.side]} {ply.played}, {ply.mark_word}"
        items.append(f'<button type="button" class="{ply.mark_word}" data-i="{ply.ply}" '
                     f'aria-label="{escape(label)}">{escape(ply.played)}{symbol}</button>')
    return ('<div id="moves" class="moves js-only" role="group" aria-label="Moves">'
            + "".join(items) + "</div>")


def _moves(review: Review) -> str:
    """Return the moves with their marks, White's win chances before and after them (one
    row's after is the next row's before), the points lost and better moves as a table."""
    rows = []
    for ply in review.plies:
        before, after = review.white_around(ply)
        rows.append([str(ply.ply), SIDE_NAMES[ply.side],
                     f'<span class="{ply.mark_word}">{escape(ply.annotated)}</span>',
                     ply.mark_word, f"{100 * before:.0f} %",
                     "" if after is None else f"{100 * after:.0f} %", f"{ply.drop:.1f}",
                     escape(ply.better)])
    return _table(["ply", "side", "move", "mark", "White's win chance before", "after",
                   "lost by the mover", "better move"], rows)


def _mistakes(review: Review) -> str:
    """Return, for each bad move, the board before it with the move played (red arrow)
    and the better one (blue arrow), and a button to show it on the board above."""
    record = review.record
    rules = record.rules
    names = [rules.cell_name(cell) for cell in range(len(rules.cells))]
    parts = []
    for ply in review.plies:
        if not ply.better:
            continue
        before = review.positions[ply.ply - 1]
        last = rules.move_between(review.positions[ply.ply - 2], before) \
            if ply.ply > 1 else None
        words = (f"Before ply {ply.ply}: {ply.played} played (red arrow), {ply.better} "
                 "better (blue arrow)")
        picture = board_svg(record.game, record.n, rules.to_rows(before),
                            f"{words}:\n{rules.picture(before)}", names,
                            replaced_arrows(review, ply.ply - 1), last)
        parts.append(
            f'<h3 class="{ply.mark.value}">Ply {ply.ply}, {SIDE_NAMES[ply.side]}: '
            f"{escape(ply.annotated)} ({ply.mark.value}, {ply.drop:.1f} points lost); "
            f"better {escape(ply.better)}</h3>\n<figure>{picture}<figcaption>"
            f'{escape(words)}. <button type="button" class="js-only" data-i="{ply.ply - 1}">'
            "Show on the board</button></figcaption></figure>")
    return "\n".join(parts) or "<p>No inaccuracy, mistake or blunder.</p>"
