"""The one game runner (``oska_gui.play.runner``): stepping, forfeits, rewind, records."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from oska_gui.bots.bot_process import CallResult
from oska_gui.core.types import BLACK, WHITE, Position, Termination
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.bot_player import BoardBotPlayer
from oska_gui.play.game import make_game
from oska_gui.play.levels import parse_ai
from oska_gui.play.players import DepthPlayer
from oska_gui.play.records import from_json
from oska_gui.play.runner import Forfeit, Runner, Turn, play
from oska_gui.play.search_player import ai_player, make_player
from oska_gui.play.selfplay import random_opening

RULES = oska_rules(4)


@dataclass
class Scripted:
    """A player that thinks for ``slices`` slices, then answers with ``answer(position)``."""

    name: str
    answer: Callable[[Position], Turn]
    slices: int = 1
    asked: list[float] = field(default_factory=list)
    stops: int = 0

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Count the slice; answer on the last one."""
        self.asked.append(seconds)
        if len(self.asked) % self.slices:
            return None
        return self.answer(position)

    def stop(self) -> None:
        """Count the stops."""
        self.stops += 1


def first_move(rules: OskaRules = RULES) -> Callable[[Position], Turn]:
    """Return an answer function that always plays the first legal child."""
    return lambda pos: Turn(rules.children(pos)[0], 0.5)


def forfeiting(reason: str, detail: str) -> Callable[[Position], Turn]:
    """Return an answer function that forfeits with ``reason`` and ``detail``."""
    return lambda pos: Turn(None, 0.25, reason, detail)


def test_step_gives_one_slice_and_plays_the_answer_once_it_comes() -> None:
    white = Scripted("W", first_move(), slices=3)
    runner = Runner(RULES, (white, Scripted("B", first_move())), slice_seconds=0.125)
    assert [runner.step(), runner.step()] == [None, None]
    assert runner.positions == [RULES.start()]
    turn = runner.step()
    assert turn == Turn(RULES.children(RULES.start())[0], 0.5)
    assert runner.positions == [RULES.start(), turn.child] and runner.position.turn == BLACK
    assert white.asked == [0.125] * 3


def test_run_plays_to_the_rules_end_and_the_record_round_trips() -> None:
    opening = random_opening(RULES, 2, random.Random(3))
    runner = Runner(RULES, (Scripted("W", first_move()), Scripted("B", first_move(), 2)),
                    opening)
    plies: list[int] = []
    outcome = runner.run(lambda ply, before, after, turn: plies.append(ply))
    assert outcome == RULES.outcome(runner.position) and outcome is not None
    assert plies == list(range(3, len(runner.positions)))
    assert runner.step() is None  # over: nothing more happens
    record = runner.record()
    assert record.positions() == runner.positions and record.outcome == outcome
    assert (record.white, record.black, record.opening_plies) == ("W", "B", 2)
    assert record.seconds == (None, None, *[0.5] * (len(runner.positions) - 3))
    assert from_json(record.to_json()) == record


@pytest.mark.parametrize("reason", ["illegal", "malformed", "exception", "timeout", "crash",
                                    "load"])
def test_a_forfeit_of_each_kind_ends_the_game_for_the_other_side(reason: str) -> None:
    runner = Runner(RULES, (Scripted("W", first_move()),
                            Scripted("B", forfeiting(reason, "what happened"))))
    outcome = runner.run()
    assert runner.forfeit == Forfeit(BLACK, reason, "what happened", "B")
    assert outcome.winner == WHITE and outcome.termination == Termination.FORFEIT
    assert outcome.reason == f"Black forfeits: {reason} (what happened)"
    assert len(runner.positions) == 2  # White's move, then Black gave up
    record = runner.record()
    assert record.forfeit == reason and len(record.seconds) == len(record.moves) + 1
    assert from_json(record.to_json()) == record


def test_a_child_that_no_legal_move_gives_is_an_illegal_forfeit() -> None:
    start = RULES.start()
    cheat = Scripted("W", lambda pos: Turn(Position(pos.white, 0, BLACK), 0.1))
    runner = Runner(RULES, (cheat, Scripted("B", first_move())))
    assert runner.run().winner == BLACK
    assert runner.forfeit is not None and runner.forfeit.reason == "illegal"
    assert runner.positions == [start]


def test_rewind_takes_back_plies_stops_the_players_and_forgets_a_forfeit() -> None:
    white = Scripted("W", first_move())
    black = Scripted("B", forfeiting("timeout", "slow"), slices=2)
    opening = random_opening(RULES, 3, random.Random(1))
    runner = Runner(RULES, (white, black), opening)
    runner.run()
    assert runner.forfeit is not None
    runner.rewind(1)
    assert runner.positions == opening[:2] and runner.forfeit is None
    assert (runner.opening_plies, runner.seconds, white.stops, black.stops) == (1, [None], 1, 1)
    with pytest.raises(ValueError, match="ply must be 0 to 1"):
        runner.rewind(2)


def test_bad_setups_are_clear_errors() -> None:
    one = Scripted("W", first_move())
    with pytest.raises(ValueError, match="two players"):
        Runner(RULES, (one,))
    start = RULES.start()
    with pytest.raises(ValueError, match="opening ply 1"):
        Runner(RULES, (one, one), [start, start])
    with pytest.raises(ValueError, match="not over"):
        Runner(RULES, (one, one)).record()


def test_a_blocking_and_a_sliced_player_give_the_same_game_from_the_same_seed() -> None:
    """The search in one slice (selfplay.Player) or in many tiny ones (the CLI's AI)."""
    rules = oska_rules(5)
    evaluate = oska_evaluator(rules, "strong")
    blocking = [DepthPlayer(f"depth 3 {side}", evaluate, 3, rules) for side in (WHITE, BLACK)]
    opening = random_opening(rules, 3, random.Random(7))
    whole = play(rules, blocking, opening)
    sliced = [ai_player(make_game("oska", 5), parse_ai("3")) for _ in (WHITE, BLACK)]
    runner = Runner(rules, sliced, opening, slice_seconds=0.0005)
    runner.run()
    assert runner.positions == whole.positions() and runner.outcome == whole.outcome
    assert len(runner.positions) > 10


class FirstMoveBot:
    """A ``BoardBot`` that answers every request, at the second poll, with the first
    legal board (or, when ``broken``, with an exception)."""

    name = "first.py:oskaplayer"

    def __init__(self, broken: bool = False) -> None:
        """Prepare the bot; ``broken`` makes every answer an exception."""
        self.broken = broken
        self.asked: list[tuple[list[str], str]] = []
        self._polls = 0

    def request(self, board: list[str], player: str, depth: int) -> None:
        """Remember the question."""
        self.asked.append((board, player))
        self._polls = 0

    def poll(self) -> CallResult | None:
        """Answer (as a judged CallResult) at the second poll."""
        self._polls += 1
        if self._polls < 2:
            return None
        if self.broken:
            return CallResult("exception", detail="ValueError: boom")
        board, player = self.asked[-1]
        kids = RULES.real_children(RULES.from_rows(board, "wb".index(player)))
        return CallResult("ok", RULES.to_rows(kids[0]) if kids else board)  # or it passes

    def cancel(self) -> None:
        """Nothing to cancel."""


@pytest.mark.parametrize("broken", [False, True])
def test_the_windows_players_play_through_the_runner(broken: bool) -> None:
    """The GUI's search player and bot player are runner Players too."""
    game = make_game("oska", 4)
    bot = FirstMoveBot(broken)
    runner = Runner(RULES, (make_player(game, "easy", "strong"), BoardBotPlayer(game, bot, 2)),
                    slice_seconds=0.01)
    outcome = runner.run()
    if broken:
        assert outcome.winner == WHITE and runner.forfeit is not None
        assert (runner.forfeit.reason, runner.forfeit.detail) == ("exception", "ValueError: boom")
        assert runner.forfeit.told.reason == ("bot first.py forfeits: raised an exception: "
                                              "ValueError: boom")
        assert len(runner.positions) == 2
    else:
        assert outcome == RULES.outcome(runner.position) and len(bot.asked) > 2
        assert runner.record().positions() == runner.positions


def test_a_bot_with_no_move_passes_by_returning_the_board_unchanged() -> None:
    """White's last runner is walled in by its own pieces: the bot's unchanged board is
    the forced pass, not a forfeit."""
    game = make_game("oska", 4)
    walled = RULES.from_rows(["----", "b--", "--", "w--", "ww--"], WHITE)
    runner = Runner(RULES, (BoardBotPlayer(game, FirstMoveBot(), 2), Scripted("B", first_move())),
                    [walled])
    while runner.step() is None:
        pass
    assert runner.forfeit is None and runner.positions == [walled, *RULES.children(walled)]
