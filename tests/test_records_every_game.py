"""Game records of every game and size (``oska_gui/play/records.py``, version 3).

A record names its game and reaches the rules through the registry, so every board of
both games saves and loads; a record may be a game in progress or start from another
position; the files versions 1 and 2 wrote still load; and the reported bug (records of
Oska n = 14 and 15 that ``main.py --replay`` called unreadable) stays fixed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from random_games import random_game

from oska_gui.core.types import BLACK, WHITE, Outcome, Rules, Termination
from oska_gui.desktop.options import record_argument
from oska_gui.engine.registry import GameKind, game_info
from oska_gui.games.oska import oska_rules
from oska_gui.games.pawns import pawn_rules
from oska_gui.play.records import Record, RecordError, from_json, from_positions, load, save
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App

REPO_ROOT = Path(__file__).resolve().parent.parent
BOARDS = [(kind, n) for kind in GameKind for n in game_info(kind).sizes]


@pytest.mark.parametrize(("kind", "n"), BOARDS, ids=[f"{k.value}-{n}" for k, n in BOARDS])
def test_a_game_of_every_size_saves_and_loads_back(tmp_path: Path, kind: GameKind,
                                                   n: int) -> None:
    rules = game_info(kind).rules(n)
    line = random_game(rules, n)
    record = from_positions(line, rules, "Ann", "Bob", rules.outcome(line[-1]),
                            seconds=(0.5,) * (len(line) - 1))
    assert record.game is kind and record.rules is rules
    save(record, tmp_path / "game.json")
    again = load(tmp_path / "game.json")
    assert again == record and again.positions() == line
    assert json.loads((tmp_path / "game.json").read_text())["game"] == kind.value


@pytest.mark.parametrize("rules", [oska_rules(6), pawn_rules(5)], ids=["oska", "hexapawn"])
def test_a_game_from_another_start_round_trips(rules: Rules) -> None:
    """Both games: a game that starts from a later position keeps its start."""
    line = random_game(rules, 4)[3:]
    record = from_positions(line, rules, "W", "B", rules.outcome(line[-1]))
    assert record.start == tuple(rules.to_rows(line[0])) and record.start_turn == line[0].turn
    again = from_json(json.loads(json.dumps(record.to_json())))
    assert again == record and again.positions() == line


@pytest.mark.parametrize("rules", [oska_rules(5), pawn_rules(4)], ids=["oska", "hexapawn"])
def test_a_game_in_progress_is_a_record_without_a_result(rules: Rules) -> None:
    line = random_game(rules, 2)[:5]
    record = from_positions(line, rules, "Human", "Computer (hard)", None)
    data = record.to_json()
    assert (data["result"], data["reason"], data["termination"]) == (None, None, None)
    again = from_json(json.loads(json.dumps(data)))
    assert again == record and not again.finished and again.result is None
    assert again.positions() == line
    with pytest.raises(ValueError, match="still in progress"):
        again.outcome  # noqa: B018 - the property raises


@pytest.mark.parametrize(("spoil", "words"), [
    (lambda d: d.update(forfeit="timeout"), "a game in progress (result null) has no"),
    (lambda d: d.update(reason="tired"), "a game in progress (result null) has no"),
    (lambda d: d.update(termination="home"), "a game in progress (result null) has no"),
    (lambda d: d.update(game="chess"), "game must be one of ['oska', 'hexapawn'], got 'chess'"),
    (lambda d: d.update(game=["oska"]), "game must be one of"),
    (lambda d: d.update(game="hexapawn", n=25), "Hexapawn needs n >= 3 and supports n <= 24"),
    (lambda d: d.update(game="oska"), "move 2 ('d1-c1')"),  # Hexapawn moves are not Oska's
    (lambda d: d.update(start={"board": ["www", "---", "bbb"], "turn": "w"}),
     "the start board has size 3, the record says n = 4"),
    (lambda d: d.update(start={"board": ["wwww"] * 50, "turn": "w"}),
     "the start board has 50 rows, the Hexapawn board of n = 4 has 4"),
    (lambda d: d.update(start={"board": ["www", "----", "----", "bbb"], "turn": "w"}),
     "rows have [3, 4, 4, 3] cells, the Hexapawn board of n = 4 has [4, 4, 4, 4]"),
    (lambda d: d.update(start={"board": ["wwww", "w---", "----", "bbbb"], "turn": "w"}),
     "the board has 5 white pieces"),
    (lambda d: d.update(start={"board": ["wwww", "-q--", "----", "bbbb"], "turn": "w"}),
     "unknown character 'q'"),
    (lambda d: d.update(start={"board": [], "turn": "w"}), "the start board has 0 rows"),
    (lambda d: d.update(start={"board": ["wwww", "----", "----", "bbbb"], "turn": "x"}),
     "player must be 'w' or 'b'"),
])
def test_bad_hexapawn_records_in_progress_are_refused(spoil, words: str) -> None:
    rules = pawn_rules(4)
    data = from_positions(random_game(rules, 1)[:3], rules, "W", "B", None).to_json()
    spoil(data)
    with pytest.raises(RecordError) as error:
        from_json(data)
    assert words in str(error.value)


def test_a_file_without_a_game_is_oska() -> None:
    rules = oska_rules(4)
    line = random_game(rules, 9)
    data = from_positions(line, rules, "W", "B", rules.outcome(line[-1])).to_json()
    del data["game"]
    assert from_json(data).game is GameKind.OSKA


# Written by hand as the version 2 code wrote them (`oska selfplay --n 4 --depth 1
# --opening-plies 2 --save`, and a record from a later start).
VERSION_2 = """{
 "format": "oska-game",
 "version": 2,
 "n": 4,
 "players": {"white": "AI depth 1 (strong)", "black": "AI depth 1 (strong)"},
 "moves": ["a2-b1", "e3-d3", "a3-b2", "e2-d2", "b1-c1", "d3-c2", "a1-b1", "c2xa2", "c1xe3",
           "e4-d3", "a4-b3", "d3-c2", "b1-c1", "e1-d1", "b3xd2", "d1xb2", "d2-e2"],
 "result": "white",
 "reason": "all white pieces reached home",
 "termination": "home",
 "opening_plies": 2,
 "forfeit": null,
 "seconds": [null, null, 0.000122, 8.5e-05, 7.6e-05, 8.2e-05, 9.8e-05, 0.000117, 8.6e-05,
             6.8e-05, 4.7e-05, 7.8e-05, 6e-05, 7.7e-05, 7.2e-05, 7.1e-05, 1.8e-05]
}
"""
VERSION_2_START = """{
 "format": "oska-game",
 "version": 2,
 "n": 4,
 "players": {"white": "W", "black": "B"},
 "moves": ["e4-d3", "a1-b1", "e1-d1", "b2-c1", "d3-c2", "c1xe1", "c2-b2", "b1-c1", "b2-a3",
           "c1-d1", "d2-c1", "d1-e2", "c1-b1", "b3-c2", "b1-a1", "c2-d3", "e3-d2", "d3-e3",
           "d2-c2", "a4-b3", "c2-b2", "b3-c2", "b2-a2"],
 "result": "black",
 "reason": "all black pieces reached home",
 "termination": "home",
 "opening_plies": 0,
 "forfeit": null,
 "start": {"board": ["w--w", "-ww", "--", "-b-", "b-bb"], "turn": "b"}
}
"""
# And as version 1 wrote it, before records kept the termination.
VERSION_1 = """{"format": "oska-game", "version": 1, "n": 4,
 "players": {"white": "AI depth 2 (strong)", "black": "bot.py:oskaplayer"},
 "moves": ["a2-b1", "e3-d2", "a4-b3", "e1-d1"], "result": "white",
 "reason": "Black forfeits: timeout (no answer within 1 s)", "opening_plies": 0,
 "forfeit": "timeout", "seconds": [0.01, 0.02, 0.01, 0.03, 1.0]}
"""


def test_version_2_files_load_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "v2.json"
    path.write_text(VERSION_2)
    record = load(path)
    assert record.game is GameKind.OSKA and record.n == 4 and len(record.moves) == 17
    assert record.outcome == Outcome(WHITE, "all white pieces reached home", Termination.HOME)
    assert record.opening_plies == 2 and record.seconds[:3] == (None, None, 0.000122)
    path.write_text(VERSION_2_START)
    record = load(path)
    assert record.start == ("w--w", "-ww", "--", "-b-", "b-bb") and record.start_turn == BLACK
    assert record.outcome.winner == BLACK and len(record.positions()) == 24
    assert from_json(record.to_json()) == record  # and it writes itself as version 3
    assert record.to_json()["version"] == 3


def test_version_1_files_load_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "v1.json"
    path.write_text(VERSION_1)
    record = load(path)
    assert record.forfeit == "timeout" and record.game is GameKind.OSKA
    assert record.outcome == Outcome(WHITE, "Black forfeits: timeout (no answer within 1 s)",
                                     Termination.FORFEIT)


@pytest.mark.slow
@pytest.mark.parametrize("n", [14, 15])
def test_the_reported_selfplay_records_load(tmp_path: Path, n: int) -> None:
    """`oska selfplay --n 15 --depth 1 --save g.json` then replaying it: the record loads
    (n = 14 too) and the window steps through it to its end."""
    path = tmp_path / "g.json"
    done = subprocess.run([sys.executable, "-m", "oska_gui", "selfplay", "--n", str(n),
                           "--depth", "1", "--brief", "--save", str(path)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    record = load(path)
    assert record.n == n and record.finished and len(record.positions()) > 2 * n
    last_row = "y" if n == 14 else "aa"  # where Black starts
    assert any(text.startswith(last_row) for text in record.moves)
    assert record_argument(str(path)) == record  # what ``main.py --replay`` reads
    app = App(MemoryStorage({}))
    app.replay(record)
    assert app.game is not None
    match = app.game.match
    assert match.position == record.positions()[0]
    while match.redo():
        pass
    assert match.position == record.positions()[-1] and match.outcome == record.outcome


def test_a_hexapawn_record_opens_for_the_replay(tmp_path: Path) -> None:
    rules = pawn_rules(4)
    line = random_game(rules, 3)
    save(from_positions(line, rules, "W", "B", rules.outcome(line[-1])), tmp_path / "h.json")
    record = record_argument(str(tmp_path / "h.json"))
    assert record.game is GameKind.HEXAPAWN and record.positions() == line


def test_the_result_word_of_a_record() -> None:
    words = [Record(3, "W", "B", (), ending, game=GameKind.HEXAPAWN).result
             for ending in (Outcome(BLACK, "x", Termination.NO_MOVE), None)]
    assert words == ["black", None]
