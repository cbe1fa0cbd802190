"""``oska tournament --report``: one self-contained HTML page, records beside it."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from cli_helpers import write_bot
from tournament_helpers import run_tournament, tagged_env

from oska_gui.play.records import load


class Page(HTMLParser):
    """The parts of an HTML page the tests look at: links, tags used, text."""

    def __init__(self, text: str) -> None:
        """Parse ``text``."""
        super().__init__()
        self.links: list[str] = []
        self.tags: set[str] = set()
        self.sources: list[str] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the tag, its link and any file it would load."""
        self.tags.add(tag)
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        for name in ("src", "xlink:href"):
            if values.get(name) and not str(values[name]).startswith("#"):
                self.sources.append(str(values[name]))

    def handle_data(self, data: str) -> None:
        """Keep the page's text."""
        self.text.append(data)


@pytest.mark.slow
def test_the_report_has_tables_plot_forfeit_boards_and_replayable_records(
        tmp_path: Path) -> None:
    """good, illegal and hangs against the AI: the page shows every entrant, the plot as
    inline SVG, each forfeit with its reason and board, and links to one record per
    game, each a file ``main.py --replay`` loads; nothing else is loaded from anywhere."""
    names = [f"{write_bot(tmp_path, name)}:oskaplayer" for name in ("good", "illegal", "hangs")]
    report = tmp_path / "out" / "class.html"
    report.parent.mkdir()
    result = run_tournament(*names, "--ai", "1", "--db", tmp_path / "t.sqlite", "--depth", 1,
                            "--time-limit", 1, "--workers", 2, "--report", report)
    assert result.returncode == 0, result.stderr
    assert f"Report: {report} (with 12 game records in {tmp_path / 'out' / 'class-games'}/)" in (
        result.stdout)
    html = report.read_text(encoding="utf-8")
    page = Page(html)
    text = " ".join(" ".join(page.text).split())
    assert all(name in text for name in [*names, "AI depth 1 (strong)"])
    assert "svg" in page.tags and re.search(r"<path[^>]* d=", html)  # a drawn plot
    assert not page.sources and "script" not in page.tags and "link" not in page.tags
    assert "Black forfeits: timeout (no answer within 1 s)" in text
    assert "White forfeits: illegal (no legal move does this; changed" in text
    assert "w w w -" in html  # a forfeit's board, drawn as text
    assert len(page.links) == 12 + 10  # every game, and every forfeit again
    for link in set(page.links):
        record = load(report.parent / link)
        assert record.positions()
    forfeits = [load(report.parent / link) for link in set(page.links)]
    assert sum(record.forfeit is not None for record in forfeits) == 10
    by_entrant = html[html.index("Forfeits by entrant"):html.index("Every forfeit")]
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td class=\"num\">(\d+)</td>",
                      by_entrant)
    assert {(name, reason) for name, reason, _ in rows} == {(names[1], "illegal"),
                                                            (names[2], "timeout")}
    assert sum(int(count) for _, _, count in rows) == 10
    assert by_entrant.count("<pre>") == 2  # the first board of each entrant's reason


@pytest.mark.slow
def test_the_report_is_checked_before_any_game(tmp_path: Path) -> None:
    """A report path in a missing folder, or no matplotlib: exit code 2 at once, one
    line saying what to do, no game played."""
    good = write_bot(tmp_path, "good")
    missing = run_tournament(good, "--ai", "1", "--db", tmp_path / "t.sqlite", "--report",
                             tmp_path / "nowhere" / "r.html")
    assert missing.returncode == 2 and "--report" in missing.stderr
    assert "No such file or directory" in missing.stderr
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "matplotlib.py").write_text("raise ImportError('no matplotlib here')\n", "utf-8")
    env, _ = tagged_env()
    env["PYTHONPATH"] = f"{fake}:{env['PYTHONPATH']}"
    without = run_tournament(good, "--ai", "1", "--db", tmp_path / "t.sqlite", "--report",
                             tmp_path / "r.html", env=env)
    assert without.returncode == 2
    assert "install the report extra (pip install 'oska-gui[report]')" in without.stderr
    assert "games:" not in missing.stdout + without.stdout


@pytest.mark.slow
def test_reviews_of_the_games_a_bot_lost_are_linked_and_kept(tmp_path: Path) -> None:
    """--review losses: the raising bot loses both games against the AI, so two review
    pages are written beside their records and linked from the list of games; the rerun
    reuses both reviews from the database."""
    raises = f"{write_bot(tmp_path, 'raises')}:oskaplayer"
    report, db = tmp_path / "r.html", tmp_path / "t.sqlite"
    command = (raises, "--ai", "1", "--db", db, "--report", report, "--review", "losses",
               "--review-nodes", 2000, "--workers", 1)
    first = run_tournament(*command)
    assert first.returncode == 0, first.stderr
    assert f"reviews: 2 made now, 0 reused from {db}" in first.stdout
    page = Page(report.read_text(encoding="utf-8"))
    reviews = [link for link in page.links if link.endswith("-review.html")]
    assert len(reviews) == 2
    for link in reviews:
        text = (report.parent / link).read_text(encoding="utf-8")
        assert "<h1>Game review</h1>" in text and "<svg" in text
        assert load(report.parent / link.replace("-review.html", ".json")).forfeit
    again = run_tournament(*command)
    assert f"reviews: 0 made now, 2 reused from {db}" in again.stdout


def test_a_review_needs_the_report(tmp_path: Path) -> None:
    """--review without --report is a usage error before any game."""
    result = run_tournament("--ai", "1", "2", "--db", tmp_path / "t.sqlite", "--review")
    assert result.returncode == 2 and "--review needs --report" in result.stderr
    assert not (tmp_path / "t.sqlite").exists()
