"""Game records (``oska_gui.play.records``): save/load round trips and every kind of bad file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oska_gui.core.types import Outcome, Termination
from oska_gui.games.oska import BLACK, WHITE, oska_rules
from oska_gui.play.records import Record, RecordError, from_json, from_positions, load, save

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def random_game(n: int, seed: int, stop_early: bool = False) -> list:
    """Return the positions of a seeded random game (cut short when ``stop_early``)."""
    rules = oska_rules(n)
    rng = random.Random(seed)
    line = [rules.start()]
    while rules.outcome(line[-1]) is None:
        line.append(rng.choice(rules.children(line[-1])))
        if stop_early and len(line) > 4 and rules.outcome(line[-1]) is None:
            break
    return line


@SETTINGS
@given(n=st.sampled_from([4, 5, 6]), seed=st.integers(0, 100_000), opening=st.integers(0, 3))
def test_a_saved_game_loads_back_the_same(tmp_path: Path, n: int, seed: int,
                                          opening: int) -> None:
    """Random finished games survive save and load, passes and captures included."""
    rules = oska_rules(n)
    line = random_game(n, seed)
    outcome = rules.outcome(line[-1])
    seconds = tuple([None] * opening + [0.25] * (len(line) - 1 - opening))
    record = from_positions(line, rules, "Ann", "Bob", outcome,
                            opening_plies=opening, seconds=seconds)
    path = tmp_path / f"{seed}.json"
    save(record, path)
    again = load(path)
    assert again == record
    assert again.positions() == line
    assert again.outcome == outcome


def test_a_forfeit_and_a_custom_start_round_trip(tmp_path: Path) -> None:
    """A game cut short by a forfeit, from a position that is not the start, loads back."""
    rules = oska_rules(5)
    line = random_game(5, 7, stop_early=True)[2:]
    forfeit = Outcome(1 - line[-1].turn, "Black forfeits: timeout (no answer within 1 s)",
                      Termination.FORFEIT)
    record = from_positions(line, rules, "bot.py:oskaplayer", "AI", forfeit,
                            forfeit="timeout", seconds=(0.1,) * len(line))
    assert record.start == tuple(rules.to_rows(line[0]))
    save(record, tmp_path / "f.json")
    again = load(tmp_path / "f.json")
    assert again == record and again.positions() == line
    data = json.loads((tmp_path / "f.json").read_text())
    assert data["start"]["board"] == rules.to_rows(line[0])
    assert data["moves"] == list(record.moves)


def finished_game_json() -> dict:
    """Return the JSON of a short finished n = 4 game, to be spoiled by the tests."""
    rules = oska_rules(4)
    line = random_game(4, 11)
    outcome = rules.outcome(line[-1])
    record = from_positions(line, rules, "W", "B", outcome)
    return record.to_json()


@pytest.mark.parametrize(("spoil", "words"), [
    (lambda d: d.update(format="chess"), "not an Oska game record"),
    (lambda d: d.update(version=4), "unsupported record version 4"),
    (lambda d: d.update(version=True), "unsupported record version True"),
    (lambda d: d.update(version=2.0), "unsupported record version 2.0"),
    (lambda d: d["moves"].__setitem__(0, "a1xe4"), "move 1 ('a1xe4')"),
    (lambda d: d["moves"].__setitem__(1, "zz"), "move 2 ('zz')"),
    (lambda d: d.update(moves=d["moves"][:-1]), "not over after its last move"),
    (lambda d: d.update(result="draw" if d["result"] != "draw" else "white"), "the record says"),
    (lambda d: d.update(forfeit="timeout"), "forfeited, but the game was over"),
    (lambda d: d.update(n=3), "Oska needs n >= 4 and supports n <= 24, got n = 3"),
    (lambda d: d.update(result="maybe"), "result must be one of"),
    (lambda d: d.update(seconds=[0.1]), "1 times for"),
    (lambda d: d.update(start={"board": ["wwwww", "----", "---", "--", "---", "----",
                                         "bbbbb"], "turn": "w"}), "start board has size 5"),
    (lambda d: d.pop("players"), "bad record field"),
    (lambda d: d.pop("termination"), "'termination' is missing"),
    (lambda d: d.update(termination="resigned"), "termination must be one of"),
    (lambda d: d.update(termination="forfeit"), "the termination 'forfeit' and the forfeit"),
    (lambda d: d.update(termination="both home" if d["termination"] != "both home"
                        else "home"), "the final position says"),
])
def test_bad_records_are_refused_with_a_reason(tmp_path: Path, spoil, words: str) -> None:
    """Each way a record can be wrong raises RecordError saying what is wrong."""
    data = finished_game_json()
    spoil(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as error:
        load(path)
    assert words in str(error.value)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    """Plain text is not a record: RecordError naming the file."""
    path = tmp_path / "notes.json"
    path.write_text("White won, I think")
    with pytest.raises(RecordError, match="notes.json: not JSON"):
        load(path)


def test_the_result_word_follows_the_winner() -> None:
    """'white', 'black' or 'draw', as the file writes it."""
    words = [Record(4, "W", "B", (), Outcome(winner, "x", Termination.HOME)).result
             for winner in (WHITE, BLACK, None)]
    assert words == ["white", "black", "draw"]


# A version 1 file, as `oska selfplay --save` wrote it before records kept the termination.
OLD_RECORD = {
    "format": "oska-game", "version": 1, "n": 4,
    "players": {"white": "AI depth 4 (strong)", "black": "AI depth 4 (strong)"},
    "moves": ["a2-b1", "e3-d2", "a4-b3", "e1-d1", "b3-c2", "e4-d3", "b1-c1", "d2xb1",
              "c2-d2", "e2xc2", "a3-b2", "c2xa2", "a1xc1", "d1xb2"],
    "result": "black", "reason": "all white pieces captured", "opening_plies": 0,
    "forfeit": None, "seconds": [0.01] * 14,
}


def test_a_version_1_record_loads_with_its_termination_worked_out(tmp_path: Path) -> None:
    """Old files still load: the termination comes from the final position."""
    path = tmp_path / "old.json"
    path.write_text(json.dumps(OLD_RECORD))
    record = load(path)
    assert record.outcome == Outcome(BLACK, "all white pieces captured", Termination.CAPTURED)
    assert record.to_json()["version"] == 3 and from_json(record.to_json()) == record


def test_a_version_1_forfeit_loads_as_a_forfeit() -> None:
    """An old record of a forfeited game ends by forfeit, whatever the board shows."""
    data = {**OLD_RECORD, "moves": OLD_RECORD["moves"][:3], "seconds": [0.01] * 4,
            "result": "white", "reason": "Black forfeits: timeout", "forfeit": "timeout"}
    record = from_json(data)
    assert record.outcome == Outcome(WHITE, "Black forfeits: timeout", Termination.FORFEIT)
