"""Thinking limits are wall-clock: the frames between slices count, pauses do not."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from oska_gui.engine.clock import MAX_GAP, ThinkingClock
from oska_gui.engine.search import Thinker
from oska_gui.games.oska import oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import HINT_SECONDS, LEVELS_BY_KEY, PERFECT_POSITIONS, Level
from oska_gui.play.search_player import SearchPlayer
from oska_gui.session.hints import HintPlayer

pytestmark = pytest.mark.timing

FRAME_GAP = 0.012  # what a frame spends drawing between two thinking slices
SLICE = 0.010
# Generous: one slice and one frame past the limit is the promise; on this 2-core machine
# shared by many jobs (load average 10-14) a single search step can take several times
# its usual length, so a slice may overrun by a few hundred milliseconds.
SLACK = 1.0


class FakeTime:
    """A time source that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_clock_counts_slices_and_short_gaps_and_caps_long_ones() -> None:
    fake = FakeTime()
    clock = ThinkingClock(fake)
    clock.resume()
    fake.now += 0.010
    clock.resume()  # already running: nothing changes
    assert clock.elapsed == pytest.approx(0.010)
    clock.pause()
    fake.now += 0.006  # a frame drawing: counts
    clock.resume()
    fake.now += 0.010
    clock.pause()
    clock.pause()
    assert clock.elapsed == pytest.approx(0.026)
    fake.now += 30.0  # paused for half a minute: counts as one long frame at most
    clock.resume()
    clock.pause()
    assert clock.elapsed == pytest.approx(0.026 + MAX_GAP)


def frames_until(decided: Callable[[], bool], limit: float) -> float:
    """Run frames (a slice of thinking, then FRAME_GAP of 'drawing') until ``decided``;
    return the wall-clock seconds it took, less what gaps longer than MAX_GAP lasted
    beyond it (a stall of this busy test machine, which the clock rightly does not
    count as thinking)."""
    start, stalled = time.perf_counter(), 0.0
    while not decided():
        assert time.perf_counter() - start < limit + 10, "it never decides"
        before = time.perf_counter()
        time.sleep(FRAME_GAP)
        stalled += max(0.0, time.perf_counter() - before - MAX_GAP)
    return time.perf_counter() - start - stalled


def test_a_timed_search_stops_on_the_wall_clock_not_the_sum_of_its_slices() -> None:
    rules = oska_rules(8)
    thinker = Thinker(rules, lambda pos: 0, rules.start(), time_limit=0.5)
    spent = frames_until(lambda: thinker.advance(SLICE), 0.5)
    assert thinker.clock.elapsed >= 0.5 and spent < 0.5 + SLACK
    # the slices alone took about half of the time: the frames' share counted too
    assert thinker.progress.depth >= 1


@pytest.mark.slow
@pytest.mark.parametrize("key", ["master", "strongest"])
def test_a_timed_level_moves_within_its_label(key: str) -> None:
    level = LEVELS_BY_KEY[key]
    game = make_game("oska", 8)
    player = SearchPlayer(game, level, "strong")
    player.start(game.start())
    moved: list[object] = []
    spent = frames_until(lambda: bool(moved.append(player.advance(SLICE)) or moved[-1]),
                         level.seconds or 0)
    assert moved[-1] in game.children(game.start())
    assert spent < (level.seconds or 0) + SLACK


def test_a_solve_that_runs_long_leaves_the_search_its_share() -> None:
    # n = 5 from the start is far too big to solve in a fraction of a second
    level = Level("test", "Test", seconds=0.4, solve=PERFECT_POSITIONS - 1)
    game = make_game("oska", 5)
    player = SearchPlayer(game, level, "strong")
    player.start(game.start())
    moved: list[object] = []
    spent = frames_until(lambda: bool(moved.append(player.advance(SLICE)) or moved[-1]),
                         0.4)
    assert moved[-1] in game.children(game.start())
    assert player.solution is None and player.last_progress is not None  # the search chose
    assert spent < 0.4 + SLACK


def test_a_hint_with_its_check_takes_the_hint_time_in_all() -> None:
    game = make_game("oska", 8)
    hint = HintPlayer(game)
    hint.start(game.start())
    moved: list[object] = []
    spent = frames_until(lambda: bool(moved.append(hint.advance(SLICE)) or moved[-1]),
                         HINT_SECONDS)
    assert moved[-1] in game.children(game.start())
    assert spent < HINT_SECONDS + SLACK
