"""The tournament's HTML report: one self-contained file, with every game's record beside it.

The page holds the standings, a plot of the ratings with their 95 % intervals (drawn by
matplotlib as SVG, inline, text as paths: no fonts, scripts or other files needed), the
crosstable, each entrant's forfeits by reason with the first board it forfeited on,
every forfeit, and the list of games. Each game links to its record, written to
``NAME-games/GAME_ID.json`` beside the report, which ``python3 main.py --replay FILE``
replays. Needs the ``report`` extra.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from oska_gui.console.options import CliError
from oska_gui.console.outputs import writable_file, writable_folder
from oska_gui.console.plots import inline_svg, plain_text_style, require_matplotlib
from oska_gui.console.review_page import heading as review_heading
from oska_gui.console.review_page import page as review_page
from oska_gui.core.files import filling, link_target, write_whole
from oska_gui.play.records import from_json
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.job import exact_source
from oska_gui.play.review.result import Review

from .games import final_board, record_text
from .result import GameResult
from .schedule import TournamentPlan
from .standings import Standing, crosstable, first_forfeits, standings_rows

RESULTS = {None: "draw", 0: "1-0", 1: "0-1"}
STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 75em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; }
pre { margin: 0; font-size: 13px; line-height: 1.15; }
.cross td { text-align: center; }
"""


def check_report(path: str) -> Path:
    """Return the report's path once matplotlib is there and both the report and the
    folder of its game records can be written; raises CliError saying why not.

    Checked before the first game, so that a run does not fail at its end; a records
    folder made to try it is removed again.
    """
    require_matplotlib("--report")
    report = writable_file(path, "--report")
    writable_folder(str(games_folder(report)), "--report (its records folder)")
    return report


def games_folder(report: Path) -> Path:
    """Return the folder the game records of ``report`` go into: ``NAME-games`` beside
    it; beside the file it leads to when it is a symbolic link (written through, as
    every output is), where the page's links to the records look for them."""
    page = link_target(report) if report.is_symlink() else report
    return page.with_name(f"{page.stem}-games")


@dataclass(frozen=True)
class Reviewed:
    """The reviews to write beside the records: {game id: review JSON}, and the budget a
    position they were made with."""

    reviews: dict[str, str] = field(default_factory=dict)
    budget: Budget = field(default_factory=Budget)


def write_report(report: Path, lines: Sequence[Standing], results: Sequence[GameResult],
                 records: Iterable[tuple[str, str]], settings: TournamentPlan,
                 reviewed: Reviewed | None = None) -> int:
    """Write the HTML report and every game's record beside it.

    Args:
        report: the HTML file to write.
        lines: the standings, best first.
        results: the tournament's games.
        records: (game id, record JSON) of every game.
        settings: what the tournament played, for the page's heading.
        reviewed: the games' reviews, each written as a page beside its record and
            linked from the list of games.

    Returns:
        The number of game records written.

    Raises:
        CliError: a file cannot be written. Every file is written whole (``core.files``):
            the report's old page stays as it was, and a records folder made by this
            run is removed with what was written in it.
    """
    folder = games_folder(report)
    boards: dict[str, str] = {}
    forfeited = {result.game_id for result in results if result.forfeit is not None}
    reviews = reviewed or Reviewed()
    count = 0
    try:
        with filling(folder) as write:
            for game_id, record in records:
                write(f"{game_id}.json", record_text(record))
                if game_id in forfeited:
                    boards[game_id] = final_board(record)
                if game_id in reviews.reviews:
                    write(review_file(game_id), _review_page(record, reviews.reviews[game_id],
                                                             reviews.budget))
                count += 1
            page = _page(lines, results, boards, settings, folder.name, set(reviews.reviews))
            write_whole(report, page)
    except OSError as error:
        raise CliError(f"cannot write the report {report}: {error.strerror or error}") from None
    return count


def review_file(game_id: str) -> str:
    """Return the name of a game's review page in the records folder."""
    return f"{game_id}-review.html"


def _review_page(record_json: str, review_json: str, budget: Budget) -> str:
    """Return the review page of one game (its record and review as JSON text)."""
    record = from_json(json.loads(record_json))
    review = Review.from_json(record, json.loads(review_json))
    return review_page(review, review_heading(record, budget, exact_source(record, True)))


def _page(lines: Sequence[Standing], results: Sequence[GameResult], boards: dict[str, str],
          settings: TournamentPlan, folder: str, reviewed: set[str]) -> str:
    """Return the report's HTML text."""
    conditions = settings.conditions
    summary = (f"n = {conditions.n}, {len(lines)} entrants, {settings.games} games a pair, "
               f"{len(results)} games; {settings.opening_plies} random opening plies (seed "
               f"{settings.seed}), bot depth {conditions.depth}, {conditions.time_limit:g} s "
               "per bot move")
    sections = [
        f"<h1>Oska tournament</h1>\n<p>{escape(summary)}</p>",
        "<h2>Standings</h2>\n<p>Elo by Bradley-Terry maximum likelihood (with a weak prior), "
        "relative to the field's mean, with 95 % intervals; a draw counts half a win.</p>\n"
        + _table(*standings_rows(lines)),
        "<h2>Ratings</h2>\n" + rating_plot(lines),
        "<h2>Crosstable</h2>\n<p>Points of the row's entrant against the column's.</p>\n"
        + _crosstable(lines, results),
        "<h2>Forfeits by entrant</h2>\n<p>Each entrant's forfeits by reason, with the first "
        "game of each reason and the board it forfeited on.</p>\n"
        + _forfeits_by_entrant(lines, results, boards),
        "<h2>Every forfeit</h2>\n" + _forfeits(results, boards, folder),
        "<h2>Games</h2>\n<p>Each record replays with <code>python3 main.py --replay "
        "FILE</code>.</p>\n" + _games(results, folder, reviewed),
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>Oska tournament</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(sections) + "\n</body>\n</html>\n")


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]],
           classes: str = "") -> str:
    """Return an HTML table; cells that are numbers are right-aligned."""
    head = "".join(f"<th>{escape(str(header))}</th>" for header in headers)
    body = "\n".join("<tr>" + "".join(_cell(value) for value in row) + "</tr>" for row in rows)
    attribute = f' class="{classes}"' if classes else ""
    return f"<table{attribute}>\n<tr>{head}</tr>\n{body}\n</table>"


def _cell(value: object) -> str:
    """Return one table cell; a value already marked up (``_Html``) is not escaped."""
    if isinstance(value, _Html):
        return f"<td>{value.text}</td>"
    if isinstance(value, int | float):
        return f'<td class="num">{value}</td>'
    return f"<td>{escape(str(value))}</td>"


class _Html:
    """Markup for a table cell, to be used as it is."""

    def __init__(self, text: str) -> None:
        """Wrap ``text`` (already escaped where needed)."""
        self.text = text


def _crosstable(lines: Sequence[Standing], results: Sequence[GameResult]) -> str:
    """Return the crosstable: a row per entrant, a column per rank (named on hover)."""
    cells = crosstable(lines, results)
    headers = ["rank", "entrant", *(str(rank) for rank in range(1, len(lines) + 1))]
    rows = [[rank, s.name, *(cell or "\u2013" for cell in row)]
            for rank, (s, row) in enumerate(zip(lines, cells, strict=True), start=1)]
    return _table(headers, rows, "cross")


def _link(result: GameResult, folder: str) -> _Html:
    """Return a link to a game's record file, named by the game's id."""
    return _Html(f'<a href="{escape(quote(folder))}/{result.game_id}.json">{result.game_id}</a>')


def _forfeits(results: Sequence[GameResult], boards: dict[str, str], folder: str) -> str:
    """Return every forfeit: the game, who forfeited, the reason and the final board."""
    rows = [[_link(result, folder), result.loser or "", result.forfeit or "", result.reason,
             _board(boards, result)] for result in results if result.forfeit is not None]
    if not rows:
        return "<p>No forfeits.</p>"
    return _table(["game", "forfeited by", "reason", "what happened", "board"], rows)


def _board(boards: dict[str, str], result: GameResult) -> _Html:
    """Return the board a game's forfeit happened on, as a text picture."""
    return _Html(f"<pre>{escape(boards.get(result.game_id, ''))}</pre>")


def _forfeits_by_entrant(lines: Sequence[Standing], results: Sequence[GameResult],
                         boards: dict[str, str]) -> str:
    """Return each entrant's forfeits: per reason the count, the first such game (its id:
    its record is linked under Every forfeit), what happened and the board it happened on."""
    counts = {line.name: line.forfeits for line in lines}
    rows = [[name, reason, counts[name][reason], game.game_id, game.reason,
             _board(boards, game)]
            for name, reason, game in first_forfeits(lines, results)]
    if not rows:
        return "<p>No forfeits.</p>"
    return _table(["entrant", "reason", "games", "first game", "what happened", "board"], rows)


def _games(results: Sequence[GameResult], folder: str, reviewed: set[str]) -> str:
    """Return the list of games with links to their records (and reviews, if any)."""
    headers = ["game", "white", "black", "result", "plies", "how it ended"]
    rows: list[list[object]] = [[_link(result, folder), result.white, result.black,
                                 RESULTS[result.winner], result.plies, result.reason]
                                for result in results]
    if reviewed:
        headers.append("review")
        for row, result in zip(rows, results, strict=True):
            row.append(_Html(f'<a href="{escape(quote(folder))}/{review_file(result.game_id)}"'
                             '>review</a>') if result.game_id in reviewed else "")
    return _table(headers, rows)


def rating_plot(lines: Sequence[Standing]) -> str:
    """Return the ratings with their 95 % intervals as an inline SVG element.

    Entrants run down the page in standings order; the line at 0 is the field's mean.
    The plot ignores the user's matplotlib settings, and draws every text as it is:
    names are file names, not mathtext ('$') nor LaTeX (``text.usetex``).
    """
    with plain_text_style():
        return _plot(lines)


def _plot(lines: Sequence[Standing]) -> str:
    """Return the rating plot as an SVG element, drawn with the matplotlib settings in force."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 1.2 + 0.3 * len(lines)))
    axes: Any = figure.add_subplot()
    places = list(range(len(lines)))
    elo = [s.rating.elo for s in lines]
    below = [s.rating.elo - s.rating.low for s in lines]
    above = [s.rating.high - s.rating.elo for s in lines]
    axes.errorbar(elo, places, xerr=[below, above], fmt="o", capsize=3)
    axes.set_yticks(places, labels=[s.name for s in lines])
    axes.invert_yaxis()
    axes.axvline(0, color="0.7", linewidth=1)
    axes.set_xlabel("Elo, relative to the field's mean (95 % interval)")
    axes.grid(axis="x", color="0.9")
    return inline_svg(figure)
