"""The strength benchmark's own judgements: self-made passes and tiny runs of each part."""

from __future__ import annotations

import pytest

from oska_gui.core.types import Outcome, Termination
from oska_gui.games.oska import BLACK, WHITE, Position, oska_rules
from oska_gui.play.records import Record, from_positions
from tools import strength


def passing_record(rows: list[str]) -> Record:
    """Return a record in which White, to move in ``rows``, passes once."""
    rules = oska_rules(4)
    pos = rules.from_rows(rows, WHITE)
    assert rules.children(pos) == [Position(pos.white, pos.black, BLACK)]
    return from_positions([pos, rules.children(pos)[0]], rules, "W", "B",
                          Outcome(BLACK, "test", Termination.FORFEIT), forfeit="test")


def test_a_pass_behind_own_home_pieces_is_self_made() -> None:
    """White's runner is walled in by its own home pieces: a self-made pass."""
    record = passing_record(["----", "b--", "--", "w--", "ww--"])
    assert strength.self_blocked_pass(oska_rules(4), record, WHITE)
    assert not strength.self_blocked_pass(oska_rules(4), record, BLACK)


def test_a_pass_forced_by_the_opponent_is_not_self_made() -> None:
    """White's runner is stopped by Black pieces: not White's own doing."""
    record = passing_record(["----", "---", "--", "w--", "bb--"])
    assert not strength.self_blocked_pass(oska_rules(4), record, WHITE)


def test_a_match_game_scores_a_point_for_one_side() -> None:
    """Both colours of one opening: each game gives 1, 0.5 or 0, deterministically."""
    jobs = [strength.MatchJob(4, 2, "race", 11, colour) for colour in (WHITE, BLACK)]
    results = [strength.play(job) for job in jobs]
    again = [strength.play(job) for job in jobs]
    assert [r._replace(seconds=0.0) for r in results] == [r._replace(seconds=0.0) for r in again]
    assert all(result.points in (0.0, 0.5, 1.0) for result in results)
    assert all(oska_rules(4).outcome(result.final).reason == result.reason for result in results)


def test_losses_are_listed_with_their_final_positions(capsys: pytest.CaptureFixture) -> None:
    """``--losses`` prints each lost game: the match, why it ended and the board."""
    strength.main(["--sizes", "6", "--depths", "2", "--games", "6", "--workers", "1",
                   "--skip", "choices,timed,speed", "--losses"])
    out = capsys.readouterr().out
    plan = strength.replace(strength.QUICK, sizes=(6,), depths=(2,), games=6)
    lost = [strength.play(job) for job in strength.game_jobs(plan)]
    lost = [result for result in lost if result.points == 0.0]
    assert lost and f"{len(lost)} games lost" in out
    for result in lost:
        assert strength.describe_loss(result) in out
        assert str(oska_rules(6).to_rows(result.final)) in out


def test_the_walls_run_plays_the_race_count_bot_from_two_ply_openings(
        capsys: pytest.CaptureFixture) -> None:
    """``--walls``: only the match table, against ``race``, openings of two random plies,
    with the count of self-made passes that lost a game."""
    strength.main(["--walls", "--sizes", "4", "--depths", "2", "--games", "2", "--workers", "1"])
    out = capsys.readouterr().out
    assert "race" in out and "Exact choices" not in out and "Equal time" not in out
    assert "games lost by a pass forced by the loser's own pieces:" in out
    plan = strength.replace(strength.WALLS, sizes=(4,), depths=(2,), games=2)
    jobs = strength.game_jobs(plan)
    assert [(job.opponent, job.opening_plies) for job in jobs] == [("race", 2)] * 2


def test_progress_prints_every_game_and_the_cell_counts_them(
        capsys: pytest.CaptureFixture) -> None:
    """``--progress`` prints one line per game as it ends (its result and length), and
    the match cell gives the points' share with the games won, drawn and lost."""
    strength.main(["--walls", "--sizes", "4", "--depths", "2", "--games", "4", "--workers", "1",
                   "--progress"])
    out = capsys.readouterr().out
    plan = strength.replace(strength.WALLS, sizes=(4,), depths=(2,), games=4)
    results = [strength.play(job) for job in strength.game_jobs(plan)]
    for result in results:
        assert result.line().rsplit(" (", 1)[0] in out
    assert f"in {results[0].plies} plies" in results[0].line()
    assert strength.cell_text([r.points for r in results]) in out
    assert strength.cell_text([1.0, 0.5, 0.0, 1.0]) == "62.5 % (4: 2-1-1)"


def test_a_timed_game_ends_with_a_result() -> None:
    """A game at a few milliseconds a move is played to its end."""
    points = strength.play_timed(strength.MatchJob(4, 0, "classic", 3, WHITE), 0.01)
    assert points in (0.0, 0.5, 1.0)


def test_speed_rows_time_every_evaluator() -> None:
    """One row per size, a positive rate per evaluator."""
    rows = list(strength.speed_rows((4,), ("strong", "race")))
    assert len(rows) == 1 and rows[0][0] == "4"
    assert all(int(cell.replace(",", "")) > 0 for cell in rows[0][1:])


def test_deeper_pairings_share_their_openings_and_swap_colours() -> None:
    """Every pairing (d + 1 and d + 2 against d) plays the same seeded openings, each
    with the deeper side as White and as Black."""
    plan = strength.replace(strength.DEEPER, sizes=(6,), depths=(1, 2), games=4)
    jobs = strength.deeper_jobs(plan)
    pairs = {(job.deep, job.shallow) for job in jobs}
    assert pairs == {(2, 1), (3, 1), (3, 2), (4, 2)}
    for deep, shallow in pairs:
        games = [(job.seed, job.colour) for job in jobs
                 if (job.deep, job.shallow) == (deep, shallow)]
        assert sorted(games) == [(1, WHITE), (1, BLACK), (2, WHITE), (2, BLACK)]
    assert {job.opening_plies for job in jobs} == {4}


def test_a_deeper_game_scores_the_deeper_side() -> None:
    """A game of depth 2 against depth 1 gives the deeper side 1, 0.5 or 0, and the
    same again."""
    job = strength.DeeperJob(4, 2, 1, 3, 4, BLACK)
    assert strength.play_deeper(job) in (0.0, 0.5, 1.0)
    assert strength.play_deeper(job) == strength.play_deeper(job)


def test_n4_white_wins_from_the_start_and_some_openings() -> None:
    """The n = 4 start and every 2-ply opening listed are White wins by the solved file;
    a board without a solved file gives None."""
    roots = strength.white_wins(4)
    assert roots is not None and roots[0] == oska_rules(4).start() and len(roots) > 1
    assert len(set(roots)) == len(roots)
    assert strength.white_wins(6) is None


def test_white_converts_the_start_but_not_a_lost_opening() -> None:
    """At depth 6 White wins from the start; from a 2-ply opening the solved file says
    White loses, the exact defender wins whatever White plays."""
    rules = oska_rules(4)
    assert strength.converts(strength.ConvertJob(4, 6, rules.start()))
    lost = rules.from_rows(["w-ww", "w--", "--", "b--", "-bbb"], WHITE)
    assert not strength.converts(strength.ConvertJob(4, 6, lost))


@pytest.mark.parametrize("depth", range(1, 11))
def test_oskaplayer_converts_the_n4_start_at_every_depth(depth: int) -> None:
    """n = 4 is a White win: oskaplayer as White from the start wins it against the exact
    defender at every depth 1-10 (docs/strength.md; depth 5 once threw it away)."""
    assert strength.converts(strength.ConvertJob(4, depth, oska_rules(4).start()))


def test_the_convert_run_prints_a_row_per_depth(capsys: pytest.CaptureFixture) -> None:
    """``--convert`` on n = 4 at two depths prints both rows and how many openings."""
    strength.main(["--convert", "--sizes", "4", "--depths", "1,6", "--workers", "1"])
    out = capsys.readouterr().out
    count = len(strength.white_wins(4) or []) - 1
    assert "Conversions" in out and f"of {count}" in out
    assert out.count(f"of {count}") == 2
