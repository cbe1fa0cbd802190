"""Memory work paced over frames: spent search tables freed in slices, the GC left alone.

The frame-time side of it (no long frame when the computer's move arrives) is measured
by tests/test_desktop.py and tests/test_browser.py; here: that the work is really done,
in slices, and that memory stays bounded over many computer moves.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.play.game import make_game
from oska_gui.play.search_player import make_player
from oska_gui.session.hints import HintPlayer
from oska_gui.session.memory import BATCH, GcPacer, Reclaimer
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress


class Entry:
    """A table value that can be watched by a weak reference."""


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """Leave the garbage collector unfrozen after each test, whatever happened."""
    yield
    gc.unfreeze()


def watched_table(size: int) -> tuple[dict, list[weakref.ref]]:
    """Return a table of ``size`` entries and weak references to its values."""
    table = {(i, 3 * i, i % 2): Entry() for i in range(size)}
    return table, [weakref.ref(value) for value in table.values()]


def test_the_reclaimer_frees_a_big_table_in_slices() -> None:
    reclaimer = Reclaimer()
    table, refs = watched_table(5 * BATCH + 7)
    other, other_refs = watched_table(BATCH // 2)
    reclaimer.take(table, {}, other)
    del table, other  # the reclaimer holds the only references now
    assert reclaimer.pending == 5 * BATCH + 7 + BATCH // 2
    assert reclaimer.work(0.0)  # no time to spare: one batch at most, and more is left
    assert reclaimer.pending == 5 * BATCH + 7
    assert all(ref() is None for ref in other_refs)  # the last table taken goes first
    assert not any(ref() is None for ref in refs)
    assert reclaimer.work(0.0)
    assert sum(ref() is None for ref in refs) == BATCH
    calls = 2
    while reclaimer.work(0.0):
        calls += 1
    assert calls == 6 and reclaimer.pending == 0
    assert all(ref() is None for ref in refs)
    assert not reclaimer.work(0.0)


def test_the_reclaimer_uses_its_time_budget() -> None:
    reclaimer = Reclaimer()
    reclaimer.take(watched_table(40 * BATCH)[0])
    assert not reclaimer.work(10.0)  # a generous budget: all of it in one call
    assert reclaimer.pending == 0


def gen2_collections_during(action: Callable[[], None]) -> int:
    """Return how many full (generation 2) collections started while ``action`` ran."""
    seen: list[int] = []

    def watch(phase: str, info: dict) -> None:
        """Count the start of every full collection."""
        if phase == "start" and info["generation"] == 2:
            seen.append(1)

    gc.callbacks.append(watch)
    try:
        action()
    finally:
        gc.callbacks.remove(watch)
    return len(seen)


def test_the_pacer_freezes_while_busy_and_unfreezes_without_a_full_collection() -> None:
    pacer = GcPacer(reclaim_slice=0.0)
    pacer.frame(thinking=True)
    assert pacer.frozen and gc.get_freeze_count() > 0
    pacer.reclaimer.take(watched_table(3 * BATCH)[0])
    for _ in range(2):  # thinking is over, but tables are still being freed: stay frozen
        pacer.frame(thinking=False)
        assert pacer.frozen and gc.get_freeze_count() > 0
    assert gen2_collections_during(lambda: pacer.frame(thinking=False)) == 0
    assert not pacer.frozen and gc.get_freeze_count() == 0
    assert pacer.reclaimer.pending == 0


def test_search_players_hand_their_tables_to_the_reclaimer() -> None:
    game = make_game("oska", 5)
    reclaimer = Reclaimer()
    player = make_player(game, "medium", "strong", reclaimer)
    player.start(game.start())
    while player.advance(0.01) is None:
        pass
    finished = reclaimer.pending
    assert finished > 0  # a depth-3 search fills its table
    hint = HintPlayer(game, reclaimer)
    hint.start(game.start())
    hint.advance(0.01)
    hint.stop()  # abandoned in the middle: its tables are handed over too
    assert reclaimer.pending > finished
    while reclaimer.work(0.01):
        pass
    assert reclaimer.pending == 0


def run_until_idle(app: App, canvas: RecordingCanvas, limit: int = 3000) -> int:
    """Run 20 ms frames until the game is over and the pacer has let go; return the count."""
    for count in range(limit):
        if app.game.match.over and not app.pacer.frozen:
            return count
        app.update(0.02)
        canvas.calls.clear()
        app.draw(canvas)
    raise AssertionError(f"not idle after {limit} frames: {app.status_text}")


@pytest.mark.slow
def test_memory_stays_bounded_over_many_computer_moves() -> None:
    """Computer-vs-computer games, one after another: once each game is over and the
    spent tables are freed, the GC is unfrozen and the count of tracked objects is back
    where it was (no table, game or cycle piles up)."""
    app = App(MemoryStorage({"kind": "oska", "n": 6, "mode": "cvc",
                             "levels": ["medium", "medium"], "animation": "off",
                             "pace": "instant"}), 1000, 700)
    canvas = RecordingCanvas(1000, 700)
    app.handle(KeyPress("enter"))
    counts, moves = [], 0
    for _ in range(8):
        run_until_idle(app, canvas)
        moves += app.game.match.history.cursor
        assert gc.get_freeze_count() == 0 and app.pacer.reclaimer.pending == 0
        counts.append(len(gc.get_objects()))
        app.handle(KeyPress("n"))
    assert moves >= 60, moves
    # Each game's search tables alone hold thousands of tracked objects: were any kept,
    # the count would climb game after game.
    assert max(counts[2:]) - counts[1] < 1000, counts
