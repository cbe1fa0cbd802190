"""The game in progress is kept between runs and read back only if it is sound."""

from __future__ import annotations

import json
import random

import pytest

from oska_gui.ui.games import make_game
from oska_gui.ui.match import Match
from oska_gui.ui.saved_game import GameKeeper, SavedGameError, from_dict, of_match
from oska_gui.ui.settings import MemoryStorage, Mode, Settings

FAST = dict(levels=("beginner", "beginner"), animation="off", pace="instant")


def played(moves: int, seed: int = 1, n: int = 5) -> Match:
    """Return a two-player match of Oska ``n`` after ``moves`` random moves."""
    game = make_game("oska", n)
    match = Match(game, Settings(n=n, mode=Mode.HVH, **FAST))
    choose = random.Random(seed)
    for _ in range(moves):
        match.play(choose.choice(game.children(match.position)))
    return match


def test_a_game_survives_the_trip_through_json() -> None:
    match = played(6)
    match.undo()
    saved = of_match(match)
    back = from_dict(json.loads(json.dumps(saved.to_dict())))
    assert back == saved and back.cursor == 5 and len(back.positions) == 7


def first_form(match: Match) -> dict:
    """Return ``match`` saved in the first form, as the version 1 code wrote it."""
    history = match.history
    return {"version": 1, "settings": match.settings.to_dict(),
            "positions": [list(pos) for pos in history.positions], "cursor": history.cursor}


def broken(change: str) -> dict:
    """Return a saved game's dict in the first form with one thing wrong with it."""
    data = first_form(played(6))
    if change == "version":
        data["version"] = 99
    elif change == "illegal move":
        data["positions"][3], data["positions"][4] = data["positions"][4], data["positions"][3]
    elif change == "bad position":
        data["positions"][2] = [1, 2]
    elif change == "cursor":
        data["cursor"] = 40
    elif change == "settings":
        data["settings"]["n"] = 99
    elif change == "start":
        data["positions"] = data["positions"][1:]
        data["cursor"] = 0
    return data


@pytest.mark.parametrize("change", ["version", "illegal move", "bad position", "cursor",
                                    "settings", "start"])
def test_a_damaged_saved_game_is_refused_with_a_reason(change: str) -> None:
    with pytest.raises(SavedGameError):
        from_dict(broken(change))


@pytest.mark.parametrize("junk", [None, [], "game", 3, {"version": 1}])
def test_junk_is_no_saved_game(junk: object) -> None:
    with pytest.raises(SavedGameError):
        from_dict(junk)


def test_the_keeper_writes_when_the_record_changes_and_clears_at_the_end() -> None:
    storage = MemoryStorage()
    keeper = GameKeeper(storage)
    match = Match(make_game("oska", 4), Settings(mode=Mode.CVC, **FAST))
    keeper.keep(match)
    keeper.keep(match)
    assert storage.saves == 1 and from_dict(storage.data).cursor == 0
    for _ in range(5000):
        match.update(0.05, 0.01)
        keeper.keep(match)
        if match.over:
            break
    assert match.over and storage.data == {}
    moves = len(match.history.positions) - 1
    assert storage.saves == moves + 1  # once a move, and once cleared


def test_a_bad_saved_game_is_reported_and_dropped() -> None:
    storage = MemoryStorage(broken("illegal move"))
    warnings: list[str] = []
    assert GameKeeper(storage, warnings.append).load() is None
    assert storage.data == {} and len(warnings) == 1
    assert "rules do not allow" in warnings[0]


def test_a_game_with_an_external_bot_is_not_kept() -> None:
    storage = MemoryStorage()
    settings = Settings(mode=Mode.HVC, levels=("beginner", "external"), animation="off")
    match = Match(make_game("oska", 4), settings, make=lambda *args: None)
    GameKeeper(storage).keep(match)
    assert storage.data == {}
