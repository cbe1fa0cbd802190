"""The review page of a game (``oska review --html``, tournament reviews): one HTML file.

It holds the heading, each side's summary, the graph of White's win chance move by
move (matplotlib as inline SVG, bad moves as coloured dots), the moves with their
marks, and for each inaccuracy, mistake and blunder a picture of the board before it,
after it and after the better move (``board_svg``: the move drawn as an arrow in its
mark's colour, the better move in blue). Every name from the record is HTML-escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from oska_gui.core.types import SIDE_NAMES, WHITE
from oska_gui.engine.registry import game_info
from oska_gui.play.records import Record
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.marks import Mark
from oska_gui.play.review.result import Review

from .board_svg import board_svg
from .outputs import write_text
from .plots import inline_svg, plain_text_style
from .table import plain

COLOURS = {Mark.INACCURACY: "#d9a400", Mark.MISTAKE: "#e07000", Mark.BLUNDER: "#c00000"}
BETTER_COLOUR = "#1f5fbf"  # the better move's arrow, as on the review screen
STYLE = """
body { font: 16px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; }
.inaccuracy { color: #8a6700; } .mistake { color: #a34f00; } .blunder { color: #c00000; }
"""


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
    """Return the review page's HTML text (see the module text) under ``heading``'s lines."""
    sections = [
        "<h1>Game review</h1>\n<p>" + "<br>".join(map(escape, heading)) + "</p>",
        "<h2>Summary</h2>\n" + _summary(review),
        "<h2>White's win chance</h2>\n" + graph(review),
        "<h2>Moves</h2>\n" + _moves(review),
        "<h2>Where it went wrong</h2>\n" + _mistakes(review),
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>Game review</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(sections) + "\n</body>\n</html>\n")


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Return an HTML table of cells already escaped (or marked up)."""
    head = "".join(f"<th>{escape(header)}</th>" for header in headers)
    body = "\n".join("<tr>" + "".join(rows_cells) + "</tr>"
                     for rows_cells in ([f"<td>{cell}</td>" for cell in row] for row in rows))
    return f"<table>\n<tr>{head}</tr>\n{body}\n</table>"


def _summary(review: Review) -> str:
    """Return each side's accuracy and the number of each mark as a table."""
    record = review.record
    rows = []
    for side in (WHITE, 1 - WHITE):
        summary = review.summary(side)
        name = record.white if side == WHITE else record.black
        accuracy = "-" if summary.accuracy is None else f"{summary.accuracy:.1f} %"
        rows.append([escape(f"{SIDE_NAMES[side]}: {name}"), accuracy,
                     *(str(summary.counts[mark]) for mark in Mark)])
    return _table(["side", "accuracy", *(mark.value for mark in Mark)], rows)


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
    """Return, for each bad move, the board before it, after it and after the better
    move, with the move played and the better one named."""
    record = review.record
    rules = record.rules
    parts = []
    for ply in review.plies:
        if ply.better:
            before, played = review.positions[ply.ply - 1], review.positions[ply.ply]
            better = rules.play(before, rules.parse_move(ply.better, before))
            boards = [("before", before, None, ""),
                      (f"after {ply.played}", played, rules.move_between(before, played),
                       COLOURS[ply.mark]),
                      (f"after {ply.better}", better, rules.move_between(before, better),
                       BETTER_COLOUR)]
            parts.append(
                f'<h3 class="{ply.mark.value}">Ply {ply.ply}, {SIDE_NAMES[ply.side]}: '
                f"{escape(ply.annotated)} ({ply.mark.value}, {ply.drop:.1f} points lost); "
                f"better {escape(ply.better)}</h3>\n"
                + _table([caption for caption, *_ in boards],
                         [[board_svg(record.game, record.n, rules.to_rows(pos), move, colour,
                                     f"{caption}:\n{rules.picture(pos)}")
                           for caption, pos, move, colour in boards]]))
    return "\n".join(parts) or "<p>No inaccuracy, mistake or blunder.</p>"


def graph(review: Review) -> str:
    """Return White's win chance at each position as an inline SVG line graph.

    The bad moves are dots in their mark's colour at the position they led to. Drawn
    with matplotlib's default settings, whatever the user's matplotlibrc says.
    """
    with plain_text_style():
        return _graph(review)


def _graph(review: Review) -> str:
    """Return the graph of ``review`` (White's win chance a ply, the judged bad moves
    as coloured dots) as inline SVG, drawn with the matplotlib settings in force."""
    from matplotlib.figure import Figure  # the report extra; checked before the run
    from matplotlib.ticker import MaxNLocator

    chances = [100 * chance for chance in review.white_chances()]
    figure = Figure(figsize=(8, 3))
    axes: Any = figure.add_subplot()
    axes.plot(range(len(chances)), chances, color="#333", linewidth=1.5)
    axes.axhline(50, color="0.7", linewidth=1)
    for mark, colour in COLOURS.items():
        plies = [ply.ply for ply in review.plies if ply.mark is mark and ply.judged]
        if plies:
            axes.scatter(plies, [chances[p] for p in plies], color=colour, zorder=3,
                         label=f"{mark.value} {mark.symbol}")
    if any(ply.better for ply in review.plies):
        axes.legend(loc="best", fontsize="small")
    axes.set_ylim(-3, 103)
    axes.set_xlim(0, max(1, len(chances) - 1))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # no ply 2.5 on a short game
    axes.set_xlabel("ply")
    axes.set_ylabel("White's win chance (%)")
    axes.grid(color="0.92")
    return inline_svg(figure)
