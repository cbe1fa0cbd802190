"""Replaying a game record in the UI: the moves as redo history, stepped with keys/buttons."""

from __future__ import annotations

import random

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.core.types import WHITE, Outcome, Termination
from oska_gui.games.oska import oska_rules
from oska_gui.games.pawns import pawn_rules
from oska_gui.play import records
from oska_gui.play.history import History
from oska_gui.session.settings import MemoryStorage, Mode, Settings
from oska_gui.ui.app import REPLAY_TOAST, App
from oska_gui.ui.game.panel_text import move_rows
from oska_gui.ui.kit.events import KeyPress, PointerDown

QUICK = {"animation": "off", "pace": "instant", "levels": ["easy", "easy"]}


def random_game(n: int, seed: int) -> list:
    """Return the positions of a random legal Oska game played to its end."""
    rules = oska_rules(n)
    rng = random.Random(seed)
    line = [rules.start()]
    while rules.outcome(line[-1]) is None:
        line.append(rng.choice(rules.children(line[-1])))
    return line


def game_with_a_pass(n: int = 4) -> list:
    """Return a random finished n = 4 game in which a side had to pass."""
    for seed in range(500):
        line = random_game(n, seed)
        if any(a[a.turn] == b[a.turn] for a, b in zip(line, line[1:], strict=False)):
            return line
    raise AssertionError("no random game with a pass")


def record_of(line: list, n: int = 4, outcome: Outcome | None = None,
              **extra) -> records.Record:
    """Return the record of ``line``, its result as the rules say (or ``outcome``)."""
    outcome = outcome or oska_rules(n).outcome(line[-1])
    assert outcome is not None, "a game cut short needs its outcome"
    return records.from_positions(line, oska_rules(n), "AI depth 3 (strong)", "their_bot.py",
                                  outcome, **extra)


def replay_app(record: records.Record, storage: MemoryStorage | None = None) -> App:
    """Return an App showing ``record`` as a replay."""
    app = App(storage or MemoryStorage(QUICK), 1100, 760)
    app.replay(record)
    return app


def test_replay_opens_at_the_start_with_every_move_ready_to_redo(tmp_path) -> None:
    line = random_game(5, 3)
    path = tmp_path / "game.json"
    records.save(record_of(line, 5), path)
    app = replay_app(records.load(path))
    match = app.game.match
    assert match.history.cursor == 0 and match.history.positions == line
    assert match.game.n == 5 and app.status_text == "White to move"
    assert match.players == {}  # nobody thinks: it is a replay
    rows = move_rows(match)
    assert sum(len(plies) for _, plies in rows) == len(line) - 1
    assert {state for _, plies in rows for _, state in plies} == {"future"}
    canvas = RecordingCanvas(1100, 760)
    app.draw(canvas)
    texts = canvas.texts()
    assert REPLAY_TOAST in " ".join(texts)  # wrapped over the top of the move list
    assert "AI depth 3 (strong)" in texts and "their_bot.py" in texts
    assert f"Replay: move 0 of {len(line) - 1}" in texts
    first = oska_rules(5).move_text(oska_rules(5).move_between(line[0], line[1]))
    assert first in texts  # the move list shows the recorded moves


@pytest.mark.parametrize("keys", [("right", "left"), ("r", "u")])
def test_arrow_keys_and_redo_undo_step_through_the_game_one_move_at_a_time(keys) -> None:
    line = game_with_a_pass()
    app = replay_app(record_of(line))
    match = app.game.match
    forward, back = keys
    seen = [match.position]
    while match.can_redo():
        app.handle(KeyPress(forward))
        app.update(0.02)
        seen.append(match.position)
    assert seen[-1] == line[-1] and match.over
    assert app.status_text == oska_rules(4).outcome(line[-1]).describe()
    must_pass = {i for i, pos in enumerate(line[:-1]) if line[i + 1][pos.turn] == pos[pos.turn]}
    assert must_pass  # the game has a pass, which stepping goes over
    assert seen == [pos for i, pos in enumerate(line) if i not in must_pass]
    while match.can_undo():
        app.handle(KeyPress(back))
        app.update(0.02)
    assert match.history.cursor == 0 and match.history.positions == line


def test_redo_button_steps_and_the_move_list_marks_the_current_move() -> None:
    line = random_game(4, 8)
    app = replay_app(record_of(line))
    scene = app.game
    redo = scene.panel().buttons["redo"]
    app.handle(PointerDown(*redo.center))
    app.handle(PointerDown(*redo.center))
    assert scene.match.history.cursor == 2
    states = [state for _, plies in move_rows(scene.match) for _, state in plies]
    assert states[:3] == ["past", "current", "future"]


def test_playing_the_recorded_move_keeps_the_rest_another_move_drops_it() -> None:
    line = random_game(4, 11)
    app = replay_app(record_of(line))
    match = app.game.match
    assert match.play(line[1])
    assert match.history.positions == line and match.history.cursor == 1
    other = next(kid for kid in match.game.children(line[1]) if kid != line[2])
    assert match.play(other)
    assert match.history.positions == [*line[:2], other]


def test_a_recorded_forfeit_ends_the_replay_at_its_last_position() -> None:
    line = random_game(4, 2)[:5]
    assert oska_rules(4).outcome(line[-1]) is None
    reason = "Black forfeits: timeout (no answer within 5 s)"
    record = record_of(line, outcome=Outcome(WHITE, reason, Termination.FORFEIT),
                       forfeit="timeout")
    app = replay_app(record)
    match = app.game.match
    assert not match.over
    while match.can_redo():
        match.redo()
    assert match.over and app.status_text == f"White wins: {reason}"
    assert match.undo() and not match.over


def test_a_replay_leaves_the_saved_settings_alone_and_new_game_uses_them() -> None:
    storage = MemoryStorage({**QUICK, "kind": "hexapawn", "n": 3, "mode": "hvc"})
    app = replay_app(record_of(random_game(6, 1), 6), storage)
    assert app.game.match.game.kind == "oska" and app.game.match.game.n == 6
    app.handle(KeyPress("c"))  # a display preference is kept, though
    app.handle(KeyPress("n"))
    match = app.game.match
    assert (match.game.kind, match.game.n, match.settings.mode) == ("hexapawn", 3, Mode.HVC)
    assert match.replay is None
    saved = Settings.from_dict(storage.load())
    assert (saved.kind, saved.n, saved.coordinates) == ("hexapawn", 3, True)


def test_history_push_keeps_the_future_only_for_the_recorded_move() -> None:
    history = History("s", ["a", "b"])
    assert history.positions == ["s", "a", "b"] and history.current == "s"
    history.push("a")
    assert history.positions == ["s", "a", "b"] and history.cursor == 1
    history.push("x")
    assert history.positions == ["s", "a", "x"] and history.cursor == 2



def test_a_hexapawn_record_replays_as_hexapawn() -> None:
    rules = pawn_rules(4)
    rng, line = random.Random(2), [rules.start()]
    while (outcome := rules.outcome(line[-1])) is None:
        line.append(rng.choice(rules.children(line[-1])))
    app = replay_app(records.from_positions(line, rules, "Ann", "Bob", outcome))
    match = app.game.match
    assert match.game.kind == "hexapawn" and match.game.n == 4
    assert match.history.cursor == 0 and match.history.positions == line
