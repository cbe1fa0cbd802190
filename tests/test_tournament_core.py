"""The tournament's schedule, store and ratings, without playing games."""

from __future__ import annotations

import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hostile_helpers import REPO_ROOT
from tournament_helpers import played, result

from oska_gui.play.bot_loader import BotFile
from oska_gui.play.review.budget import Budget
from oska_gui.tournament import command, ratings, ratings_numpy, reviews
from oska_gui.tournament.games import Conditions, Entrant
from oska_gui.tournament.ratings import ELO, Z95, rate
from oska_gui.tournament.schedule import TournamentPlan, schedule
from oska_gui.tournament.store import Store, StoreError

PLAYERS = [Entrant("a.py:oskaplayer", bot=BotFile("a.py", "oskaplayer", b"A = 1\n")),
           Entrant("b.py:oskaplayer", bot=BotFile("b.py", "oskaplayer", b"B = 1\n")),
           Entrant("AI depth 1 (strong)", ai="1")]
SETTINGS = TournamentPlan(Conditions(n=4, depth=2, time_limit=1.0), games=6, opening_plies=3,
                          seed=7)


# -- schedule ---------------------------------------------------------------------------


def test_every_pair_plays_every_game_with_colours_alternating() -> None:
    """3 entrants, 6 games a pair: 18 games; in game k the pair's first entrant has
    White when k is even; ids are unique."""
    tasks = schedule(PLAYERS, SETTINGS)
    assert len(tasks) == 3 * 6
    assert len({task.game_id for task in tasks}) == len(tasks)
    for first, second in [(0, 1), (0, 2), (1, 2)]:
        games = [task for task in tasks
                 if {task.white.name, task.black.name} == {PLAYERS[first].name,
                                                           PLAYERS[second].name}]
        assert [task.white.name for task in games] == [
            PLAYERS[first].name, PLAYERS[second].name] * 3


def test_openings_are_shared_by_both_colours_and_by_every_pair() -> None:
    """Games 2k and 2k + 1 of every pair start from the same opening; openings differ
    between k's and have the plies asked for."""
    tasks = schedule(PLAYERS, SETTINGS)
    rounds = [tasks[i:i + 3] for i in range(0, len(tasks), 3)]  # round by round
    openings = [{task.opening for task in games} for games in rounds]
    assert all(len(one) == 1 for one in openings)
    by_round = [one.pop() for one in openings]
    assert by_round[0::2] == by_round[1::2]
    assert len(set(by_round)) == 3
    assert all(len(opening) == 3 for opening in by_round)


def test_the_schedule_is_deterministic_and_ids_follow_what_changes_a_game() -> None:
    """The same input gives the same ids; more games keep the earlier ids; a new seed
    or time limit changes all ids; a changed bot source changes only its games' ids."""
    ids = [task.game_id for task in schedule(PLAYERS, SETTINGS)]
    assert ids == [task.game_id for task in schedule(PLAYERS, SETTINGS)]
    more = [task.game_id for task in schedule(PLAYERS, replace(SETTINGS, games=8))]
    assert more[:len(ids)] == ids
    for changed in (replace(SETTINGS, seed=8),
                    replace(SETTINGS, conditions=replace(SETTINGS.conditions, time_limit=2))):
        assert not set(ids) & {task.game_id for task in schedule(PLAYERS, changed)}
    assert PLAYERS[0].bot is not None
    edited = [replace(PLAYERS[0], bot=replace(PLAYERS[0].bot, source=b"A = 2\n")), *PLAYERS[1:]]
    kept = {task.game_id for task in schedule(edited, SETTINGS)} & set(ids)
    assert kept == {task.game_id for task in schedule(PLAYERS, SETTINGS)
                    if PLAYERS[0].name not in (task.white.name, task.black.name)}


# -- store ------------------------------------------------------------------------------


def test_the_store_keeps_results_and_records_across_opening_again(tmp_path: Path) -> None:
    """What was added is read back exactly by a new Store on the same file; only the
    ids asked for are returned."""
    path = tmp_path / "t.sqlite"
    first, second = played("g1", seed=1), played("g2", seed=2, forfeit=True)
    with Store(path) as store:
        store.add(*first)
        store.add(*second)
    with Store(path) as store:
        assert store.results(["g1", "g2", "g3"]) == ({"g1": first[0], "g2": second[0]}, {})
        assert store.results(["g2"]).results == {"g2": second[0]}
        assert dict(store.records(["g1"])) == {"g1": first[1]}


def test_the_stored_games_a_format_asks_about_are_those_of_the_file(tmp_path: Path) -> None:
    """What ``SwissRounds`` may ask the database while the rounds go on: which games it
    holds (an unreadable one too: it is played again in its round), and whether it
    holds more than the tournament has used."""
    with Store(tmp_path / "t.sqlite") as store:
        for game_id in ("g1", "g2"):
            store.add(*played(game_id))
        store.db.execute("UPDATE games SET winner = 7 WHERE id = 'g2'")
        finished: dict = {}
        stored = command._StoredGames(store, finished)
        assert stored.unused()
        assert stored.present(["g1", "g2", "g3"]) == {"g1", "g2"}
        finished.update({"g1": played("g1")[0], "g2": played("g2")[0]})
        assert not stored.unused()


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    """A text file or a folder as the database: StoreError naming the file."""
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100, encoding="utf-8")
    for path in (text, tmp_path):
        with pytest.raises(StoreError, match="cannot use it as the tournament database"):
            Store(path)


def test_killing_a_writer_loses_no_committed_game(tmp_path: Path) -> None:
    """A process adding games is killed (SIGKILL) after announcing 50 commits: the file
    opens cleanly and holds at least those 50 games, each one whole."""
    path = tmp_path / "t.sqlite"
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPO_ROOT / "tests")!r})
        from dataclasses import replace
        from tournament_helpers import played
        from oska_gui.tournament.store import Store
        store = Store({str(path)!r})
        game, record = played("g")
        for i in range(100000):
            store.add(replace(game, game_id=f"g{{i}}"), record)
            print(i + 1, flush=True)
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    writer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env=env)
    try:
        assert writer.stdout is not None
        for line in writer.stdout:
            if int(line) >= 50:
                break
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait()
    with Store(path) as store:
        found = store.results(f"g{i}" for i in range(100000))
    assert len(found.results) >= 50 and found.unreadable == {}
    assert len({replace(found.results[f"g{i}"], game_id="") for i in range(50)}) == 1
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)


# -- ratings ----------------------------------------------------------------------------

BACKENDS = pytest.mark.parametrize("backend", ["numpy", "python"])


@BACKENDS
def test_symmetric_results_give_equal_ratings(backend: str) -> None:
    """Three entrants, each pair 1-1 (or drawn): every rating 0, equal intervals."""
    for games in ([(0, 1, 1.0), (0, 1, 0.0), (1, 2, 1.0), (1, 2, 0.0), (0, 2, 1.0),
                   (0, 2, 0.0)], [(0, 1, 0.5), (1, 2, 0.5), (2, 0, 0.5)]):
        ratings = rate(3, games, backend=backend)
        assert all(abs(r.elo) < 1e-6 for r in ratings)
        assert max(r.high for r in ratings) - min(r.high for r in ratings) < 1e-6


@BACKENDS
def test_more_wins_give_a_higher_rating_and_intervals_hold_the_estimate(backend: str) -> None:
    """a beats b 6-4, b beats c 6-4, a beats c 7-3: a > b > c; ratings average 0;
    each interval contains its rating."""
    games = ([(0, 1, 1.0)] * 6 + [(0, 1, 0.0)] * 4 + [(1, 2, 1.0)] * 6 + [(1, 2, 0.0)] * 4
             + [(0, 2, 1.0)] * 7 + [(0, 2, 0.0)] * 3)
    ratings = rate(3, games, backend=backend)
    assert ratings[0].elo > ratings[1].elo > ratings[2].elo
    assert abs(sum(r.elo for r in ratings)) < 1e-6
    assert all(r.low < r.elo < r.high for r in ratings)


@BACKENDS
def test_two_entrants_match_the_closed_form(backend: str) -> None:
    """With a negligible prior, s wins in n games give a difference ln(s / (n - s)) and
    a standard error 1 / sqrt(n p (1 - p)) (halved for each one's distance from the
    mean)."""
    wins, total = 7, 10
    ratings = rate(2, [(0, 1, 1.0)] * wins + [(0, 1, 0.0)] * (total - wins), prior_sd=1e5,
                   backend=backend)
    difference = math.log(wins / (total - wins))
    p = wins / total
    half_width = Z95 * ELO / 2 / math.sqrt(total * p * (1 - p))
    assert ratings[0].elo == pytest.approx(ELO * difference / 2, rel=1e-4)
    assert ratings[1].elo == pytest.approx(-ELO * difference / 2, rel=1e-4)
    assert ratings[0].high - ratings[0].elo == pytest.approx(half_width, rel=1e-4)


@BACKENDS
def test_an_unbeaten_entrant_gets_a_finite_rating_and_more_games_narrow_intervals(
        backend: str) -> None:
    """Winning every game gives a large but finite rating; ten times the games give a
    narrower interval."""
    few = rate(2, [(0, 1, 1.0)] * 5, backend=backend)
    assert 0 < few[0].elo < 5000 and math.isfinite(few[0].low)
    base = [(0, 1, 1.0), (0, 1, 0.0), (0, 1, 0.5)]
    narrow, wide = rate(2, base * 10, backend=backend), rate(2, base, backend=backend)
    assert narrow[0].high - narrow[0].low < (wide[0].high - wide[0].low) / 2


@BACKENDS
def test_newton_stops_once_converged_on_a_large_field(backend: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """120 entrants, 6 random results a pair: a handful of Newton steps, not the step
    limit (near the maximum the posterior's change is below its rounding error; that
    stalled an earlier version here), and the ratings still average 0."""
    rng = random.Random(1)
    games = [(i, j, rng.choice([0.0, 0.5, 1.0]))
             for i in range(120) for j in range(i + 1, 120) for _ in range(6)]
    steps = []
    model_class = ratings.ListModel if backend == "python" else ratings_numpy.ArrayModel
    real = model_class.newton_step
    monkeypatch.setattr(model_class, "newton_step",
                        lambda self, strength: steps.append(1) or real(self, strength))
    result = rate(120, games, backend=backend)
    assert len(steps) <= 12
    assert abs(sum(r.elo for r in result)) < 1e-6


@pytest.mark.parametrize("seed", range(6))
def test_both_backends_give_the_same_ratings_and_intervals(seed: int) -> None:
    """numpy and pure Python agree to 1e-6 Elo on random fields: rounds of random
    pairings (some entrants never meet), draws, an entrant that wins every game and one
    that plays no game at all."""
    rng = random.Random(seed)
    count = rng.randint(2, 40)
    games = []
    for _ in range(rng.randint(1, 6)):  # a round: random pairs of all but the last
        order = rng.sample(range(count - 1), count - 1)
        games += [(i, j, rng.choice([0.0, 0.5, 1.0]))
                  for i, j in zip(order[0::2], order[1::2], strict=False)]
    games += [(0, j, 1.0) for j in range(1, count - 1)]  # entrant 0 wins every game
    fast, slow = rate(count, games, backend="numpy"), rate(count, games, backend="python")
    for a, b in zip(fast, slow, strict=True):
        assert (a.elo, a.low, a.high) == pytest.approx((b.elo, b.low, b.high), abs=1e-6)
    assert fast[count - 1].elo == pytest.approx(0.0, abs=1e-6)  # no game: the prior alone


def test_an_unknown_backend_is_refused() -> None:
    """A misspelt backend is an error that names the choices, not a silent fallback."""
    with pytest.raises(ValueError, match="'auto', 'numpy' or 'python'"):
        rate(2, [(0, 1, 1.0)], backend="fortran")


# -- reviews ----------------------------------------------------------------------------

def test_losses_are_the_games_a_bot_lost() -> None:
    """--review losses picks the games whose loser is a bot, not the AI's, nor draws."""
    games = [replace(result("a"), white=PLAYERS[0].name, black=PLAYERS[2].name, winner=1),
             replace(result("b"), white=PLAYERS[2].name, black=PLAYERS[1].name, winner=1),
             replace(result("c"), white=PLAYERS[0].name, black=PLAYERS[1].name, winner=None)]
    assert [game.game_id for game in reviews.to_review(games, PLAYERS, reviews.LOSSES)] == ["a"]
    assert len(reviews.to_review(games, PLAYERS, reviews.ALL)) == 3


def test_a_review_id_follows_the_game_and_the_budget() -> None:
    """The same game and time give the same id; another game or time another one."""
    budgets = (Budget(), Budget(nodes=5_000), Budget(None, None, 0.2))
    ids = {reviews.review_id(game, budget) for game in ("a", "b") for budget in budgets}
    assert len(ids) == 6 and reviews.review_id("a", Budget()) in ids


def test_the_store_keeps_reviews(tmp_path: Path) -> None:
    """A review stored is read back by its id, also after opening the file again."""
    with Store(tmp_path / "t.sqlite") as store:
        store.add_review("r1", "g1", '{"x": 1}')
        assert store.reviews(["r1", "r2"]) == {"r1": '{"x": 1}'}
    with Store(tmp_path / "t.sqlite") as store:
        assert store.reviews(["r1"]) == {"r1": '{"x": 1}'}
