"""The game flow: computer replies, undo/redo by mode, passes, hints, pause/step, forfeits."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from ui_fakes import must_pass_position

from oska_gui.games.oska import BLACK, WHITE
from oska_gui.play.bot_player import BoardBotPlayer
from oska_gui.play.game import make_game
from oska_gui.play.levels import levels_for
from oska_gui.play.search_player import SearchPlayer, make_player
from oska_gui.session.match import Announced, Match, Played
from oska_gui.session.settings import Mode, Settings

GAME4 = make_game("oska", 4)
FAST = dict(levels=("beginner", "beginner"), animation="off", pace="instant")


def run_until(match: Match, done, frames: int = 5000) -> None:
    """Call ``match.update`` until ``done()`` holds (fails after ``frames`` frames)."""
    for _ in range(frames):
        if done():
            return
        match.update(0.02, 0.01)
    raise AssertionError(f"not done after {frames} frames: {match.status_text}")


def test_human_move_then_computer_reply_in_the_record() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=WHITE, **FAST))
    assert match.human_to_move and match.status_text == "Your move (White)"
    legal = match.legal_moves()[0]
    assert match.play(legal.child)
    assert not match.play(legal.child)  # not the human's turn any more
    events = match.take_events()
    assert isinstance(events[0], Played) and events[0].move == legal.move
    run_until(match, lambda: match.human_to_move)
    assert match.history.cursor == 2
    reply = match.take_events()
    assert len(reply) == 1 and reply[0].before == legal.child
    assert reply[0].after in GAME4.children(legal.child)


def test_illegal_child_is_refused() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVH, **FAST))
    assert not match.play(GAME4.start())
    assert match.history.cursor == 0


def test_undo_in_hvc_takes_back_the_computer_reply_too_and_redo_replays() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=WHITE, **FAST))
    assert not match.can_undo()
    for _ in range(2):
        match.play(match.legal_moves()[0].child)
        run_until(match, lambda: match.human_to_move)
    assert match.history.cursor == 4
    assert match.undo()
    assert match.history.cursor == 2 and match.human_to_move
    assert match.undo() and match.history.cursor == 0
    assert not match.undo()
    assert match.redo() and match.history.cursor == 2
    assert match.redo() and match.history.cursor == 4
    assert not match.can_redo()


def black_thinking(level: str, n: int, frames: int = 1) -> Match:
    """Return a match of Oska ``n`` against the computer (Black, at ``level``) after your
    first move and ``frames`` frames of its thinking."""
    settings = Settings(mode=Mode.HVC, human_side=WHITE, levels=(level, level),
                        animation="off")
    match = Match(make_game("oska", n), settings)
    match.play(match.legal_moves()[0].child)
    match.update(1.0, 0.005)  # past the reply delay
    for _ in range(frames):
        match.update(0.02, 0.005)
    return match


def test_undo_while_the_computer_thinks_takes_back_the_human_move() -> None:
    match = black_thinking("strongest", 8)
    assert match.thinking == BLACK and "thinking" in match.status_text
    assert match.undo()
    assert match.history.cursor == 0 and match.thinking is None and match.human_to_move


def test_human_as_black_lets_the_computer_open_and_cannot_undo_past_it() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=BLACK, **FAST))
    assert not match.human_to_move
    run_until(match, lambda: match.human_to_move)
    assert match.history.cursor == 1 and not match.can_undo()


def test_hvh_undo_is_one_ply() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVH, **FAST))
    match.play(match.legal_moves()[0].child)
    match.play(match.legal_moves()[0].child)
    assert match.undo() and match.history.cursor == 1
    assert match.turn == BLACK


def test_forced_pass_is_announced_then_played() -> None:
    start = must_pass_position()
    assert GAME4.pass_child(start) is not None and GAME4.outcome(start) is None
    match = Match(GAME4, Settings(mode=Mode.HVH, animation="normal"), start=start)
    assert not match.human_to_move
    assert "passes" in match.status_text
    match.update(0.02, 0.01)
    events = match.take_events()
    assert events == [Announced("White has no legal move and passes")]
    run_until(match, lambda: match.history.cursor == 1)
    played = match.take_events()
    assert played[0].move.is_pass
    assert match.turn == BLACK and match.human_to_move
    assert match.status_text == "Black to move"


def test_undo_skips_a_pass() -> None:
    start = must_pass_position()
    match = Match(GAME4, Settings(mode=Mode.HVH, animation="off"), start=start)
    run_until(match, lambda: match.history.cursor == 1)
    assert not match.can_undo()  # the only earlier position is the forced pass


def test_game_over_says_who_won_and_why() -> None:
    match = Match(GAME4, Settings(mode=Mode.CVC, **FAST))
    run_until(match, lambda: match.over)
    outcome = GAME4.outcome(match.position)
    assert match.status_text == outcome.describe()
    assert match.outcome == outcome
    for before, after in match.history.pairs():
        assert after in GAME4.children(before)


@pytest.mark.slow
def test_hint_suggests_a_legal_move_and_goes_away_after_moving() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=WHITE, **FAST))
    assert match.request_hint() and match.hint_pending
    run_until(match, lambda: match.hint is not None)
    hint = match.hint
    assert hint in [legal.move for legal in match.legal_moves()]
    assert GAME4.move_text(hint) in match.status_text
    match.play(match.legal_moves()[0].child)
    assert match.hint is None


def test_no_hint_on_the_computer_turn() -> None:
    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=BLACK, **FAST))
    assert not match.request_hint()


def test_cvc_pause_and_single_step() -> None:
    match = Match(GAME4, Settings(mode=Mode.CVC, **FAST))
    match.toggle_pause()
    for _ in range(20):
        match.update(0.05, 0.01)
    assert match.history.cursor == 0 and match.status_text.startswith("Paused")
    match.single_step()
    run_until(match, lambda: match.history.cursor == 1)
    for _ in range(20):
        match.update(0.05, 0.01)
    assert match.history.cursor == 1 and match.paused
    match.toggle_pause()
    run_until(match, lambda: match.history.cursor >= 3)


def test_a_game_stepped_to_its_end_is_no_longer_paused() -> None:
    match = Match(GAME4, Settings(mode=Mode.CVC, **FAST))
    match.toggle_pause()
    while not match.over:
        match.single_step()
        run_until(match, lambda: not match.step_once or match.over)
    assert not match.paused and not match.status_text.startswith("Paused")
    match.toggle_pause()  # nothing to pause any more
    assert not match.paused


def test_cvc_undo_takes_back_one_move_and_pauses() -> None:
    match = Match(GAME4, Settings(mode=Mode.CVC, **FAST))
    run_until(match, lambda: match.history.cursor == 3)
    assert match.undo() and match.history.cursor == 2 and match.paused


def test_busy_scene_holds_the_computer_back() -> None:
    match = Match(GAME4, Settings(mode=Mode.CVC, **FAST))
    for _ in range(10):
        match.update(0.05, 0.01, busy=True)
    assert match.history.cursor == 0


@dataclass
class Reply:
    """A stand-in for a judged ``bot_process.CallResult``."""

    board: list[str] | None
    ok: bool = True
    detail: str = ""
    seconds: float = 0.01

    @property
    def reason(self) -> str | None:
        """Return None for a legal answer, else the forfeit's key."""
        return None if self.ok else "crash"

    @property
    def summary(self) -> str:
        """Return why the bot forfeits in one line, as the real CallResult does."""
        return self.detail


class FakeBot:
    """A bot answering after ``delay`` polls with a fixed answer (or the first move)."""

    name = "fake.py:oskaplayer"

    def __init__(self, answer: list[str] | None = None, ok: bool = True, delay: int = 2):
        """Prepare the bot's canned answer."""
        self.answer, self.ok, self.delay = answer, ok, delay
        self.asked: list = []
        self.cancelled = 0
        self._polls = 0

    def request(self, board: list[str], player: str, depth: int) -> None:
        """Remember the question."""
        self.asked.append((board, player, depth))
        self._polls = 0

    def poll(self) -> Reply | None:
        """Answer after a few polls."""
        self._polls += 1
        if self._polls < self.delay:
            return None
        board, player, _ = self.asked[-1]
        rules = GAME4.rules
        answer = self.answer
        if answer is None:
            pos = rules.from_rows(board, "wb".index(player))
            answer = rules.to_rows(GAME4.legal_moves(pos)[0].child)
        return Reply(answer, self.ok, "" if self.ok else "it crashed")

    def cancel(self) -> None:
        """Count cancellations."""
        self.cancelled += 1


def test_board_bot_plays_through_the_player_seam() -> None:
    bot = FakeBot()

    def make(game, settings, side):
        """Let the bot play every computer side."""
        return BoardBotPlayer(game, bot, depth=3)

    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=BLACK, **FAST), make)
    run_until(match, lambda: match.human_to_move)
    assert bot.asked[0] == (GAME4.rules.to_rows(GAME4.start()), "w", 3)
    assert match.history.cursor == 1


@pytest.mark.parametrize(("answer", "ok", "reason"), [
    (None, False, "the bot's process died or the bot called sys.exit: it crashed"),
    (["wwww", "---", "--", "---", "bbbb"], True, "no legal move produces"),
])
def test_bot_failure_ends_the_game_as_a_forfeit(answer, ok, reason) -> None:
    bot = FakeBot(answer, ok)
    match = Match(GAME4, Settings(mode=Mode.HVC, human_side=BLACK, **FAST),
                  lambda game, settings, side: BoardBotPlayer(game, bot, 2))
    run_until(match, lambda: match.over)
    assert match.outcome.winner == BLACK
    assert reason in match.status_text
    assert match.status_text.startswith("Black wins: bot fake.py forfeits: ")


def test_levels_and_perfect_availability() -> None:
    assert "perfect" in [level.key for level in levels_for(GAME4.perfect_available)]
    six = make_game("oska", 6)
    assert "perfect" not in [level.key for level in levels_for(six.perfect_available)]
    player = make_player(make_game("oska", 6), "perfect", "strong")
    assert player.level.key == "strongest"
    with pytest.raises(ValueError, match="unknown level"):
        make_player(GAME4, "godlike", "strong")
    assert isinstance(make_player(GAME4, "easy", "nonsense"), SearchPlayer)


def test_perfect_player_picks_a_best_move_by_the_solver() -> None:
    """From an n = 4 midgame position, the perfect player's move has the best exact value."""
    from oska_gui.engine.solver import solve

    rules = GAME4.rules
    pos = GAME4.start()
    for text in ("a2-b1", "e1-d1", "a3-b2", "e2-d2", "b2-c1", "d1xb2"):
        pos = rules.play(pos, rules.parse_move(text, pos))
    player = make_player(GAME4, "perfect", "strong")
    player.start(pos)
    child = None
    for _ in range(100_000):
        child = player.advance(0.05)
        if child is not None:
            break
    values = {kid: -solve(rules, kid).result for kid in GAME4.children(pos)}
    assert child in values
    assert values[child] == max(values.values())


def test_the_thinking_line_says_how_far_ahead_in_plain_words() -> None:
    """Strongest (6 s a move), not Master (2 s): 20 slices of 5 ms on a loaded machine
    can pass 2 s of the thinking clock, and the computer would have moved already."""
    match = black_thinking("strongest", 6, frames=20)
    status = match.status_text
    assert match.thinking == BLACK and "depth" not in status
    assert re.search(r"Black is thinking… looking \d+ moves? ahead · \d+\.\d s", status), status
