"""External Oska bots as opponents that cannot hurt the caller.

Other people's code may hang, crash, call ``sys.exit``, print to stdout, raise or return
nonsense. Each bot therefore runs in its own process (``bot_process.BotProcess``)
with a time limit per move: a hang is a ``timeout``, a dead process a ``crash``, and the
process is started again on the next request.

``ExternalPlayer`` is an ``oskaplayer(board, player, depth)`` opponent for the match
command, the tournament and the desktop GUI: ``request(board, player, depth)``, then
``poll()`` once per frame until it returns the judged ``bot_process.CallResult``;
``close()`` at the end. Every returned board is checked with the rules
(``judge_move``): it must be one of ``movegen``'s boards, or the unchanged board when
the player has no move. Which code a bot is, and where it is loaded from, is decided by
``oska_gui.play.bot_loader``, which makes these players from what people type.

Forfeit reasons (``CallResult.reason``): see ``bot_process.REASONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from oska_gui.bots.bot_process import BotProcess, CallResult, LoadError
from oska_gui.games.board_forms import read_board, read_player

DEFAULT_TIME_LIMIT = 5.0


# -- judging a returned board -----------------------------------------------------------


def judge_move(board: list[str], player: str, value: Any) -> CallResult:
    """Check that ``value`` is a legal answer of ``oskaplayer(board, player, depth)``.

    A legal answer is a list of row strings equal to one of the boards after a legal
    move of ``player``, or the unchanged board when ``player`` has no legal move.

    Args:
        board: the (valid) board the bot was given, as row strings.
        player: 'w' or 'b'.
        value: what the bot returned.

    Returns:
        A CallResult: 'ok' with the board as its value when legal, else status
        'malformed' or 'illegal' and why.
    """
    rules, rows, _ = read_board(board)
    try:
        their_rules, their_rows, form = read_board(value)
    except (TypeError, ValueError) as error:
        return CallResult("malformed", detail=f"not a board: {error}")
    if form.as_lists:
        return CallResult("malformed", detail="returned rows as lists; it was given row strings")
    if their_rules.n != rules.n:
        return CallResult("malformed", detail=f"returned a board of size n = {their_rules.n} "
                                          f"for a board of size n = {rules.n}")
    pos = rules.from_rows(rows, read_player(player))
    legal = [rules.to_rows(kid) for kid in rules.real_children(pos)]
    if their_rows in legal or (not legal and their_rows == rows):
        return CallResult("ok", their_rows)
    if not legal:
        return CallResult("illegal", detail="has no legal move, so the board must come back "
                                        f"unchanged; changed {describe_change(rows, their_rows)}")
    if their_rows == rows:
        return CallResult("illegal", detail=f"returned the board unchanged although it has "
                                        f"{len(legal)} legal moves")
    return CallResult("illegal", detail=f"no legal move does this; changed "
                                    f"{describe_change(rows, their_rows)}")


def describe_change(before: list[str], after: list[str]) -> str:
    """Return the cells that differ, e.g. 'a4 w>-, b3 ->w' (cells named as in notation)."""
    changes = []
    for r, (old_row, new_row) in enumerate(zip(before, after, strict=True)):
        for c, (old, new) in enumerate(zip(old_row, new_row, strict=True)):
            if old != new:
                changes.append(f"{chr(ord('a') + r)}{c + 1} {old}>{new}")
    return ", ".join(changes) or "nothing"


# -- the opponent ---------------------------------------------------------------------


class ExternalPlayer:
    """An external ``oskaplayer(board, player, depth)`` as a non-blocking opponent.

    ``request(board, player, depth)`` starts a move; ``poll()`` returns None while the
    bot thinks and the judged ``CallResult`` once it answered, failed or ran out of time. A new
    request can follow at once: the process is restarted when it had to be killed.
    """

    def __init__(self, process: BotProcess, function: str, name: str,
                 time_limit: float = DEFAULT_TIME_LIMIT,
                 release: Callable[[], object] | None = None) -> None:
        """Prepare the opponent (nothing starts yet).

        Args:
            process: the process that hosts the bot's code (not started yet).
            function: the name of the bot's ``oskaplayer`` function in that code.
            name: how the bot is named, e.g. 'bots/mine.py:oskaplayer'.
            time_limit: seconds allowed per move.
            release: called once the bot is closed, after its process has stopped
                (e.g. to remove the folder its code was copied to).
        """
        self.process = process
        self.function = function
        self.time_limit = time_limit
        self._name = name
        self._release = release
        self._asked: tuple[list[str], str] | None = None

    @property
    def name(self) -> str:
        """Return the bot's name, e.g. 'bots/mine.py:oskaplayer'."""
        return self._name

    def wait_ready(self) -> None:
        """Start the bot and wait until it has loaded (blocking; optional).

        Raises:
            LoadError: the code cannot be loaded or has no such function.
        """
        functions = self.process.wait_ready()
        if self.function not in functions:
            raise LoadError(f"{self.process.label} has no function {self.function!r} "
                            f"(it defines: {', '.join(functions) or 'nothing callable'})")

    def request(self, board: list[str], player: str, depth: int) -> None:
        """Ask the bot for its move; returns at once (``poll`` gives the answer).

        Args:
            board: the position as the spec's row strings (validated here).
            player: 'w' or 'b', the side to move.
            depth: the search depth passed on to the bot.

        Raises:
            ValueError/TypeError: bad board or player; RuntimeError: a request is
                still in progress.
        """
        _, rows, _ = read_board(board)
        read_player(player)
        self.process.call(self.function, [rows, player, depth], self.time_limit)
        self._asked = (rows, player)

    def poll(self, wait: float = 0.0) -> CallResult | None:
        """Return the judged reply to the last request, or None while the bot still thinks.

        Args:
            wait: block up to this many seconds (0: return at once).
        """
        result = self.process.poll(wait)
        if result is None or self._asked is None:
            return None
        rows, player = self._asked
        self._asked = None
        return reply_of(result, rows, player)

    def ask(self, board: list[str], player: str, depth: int) -> CallResult:
        """Ask for a move and wait for the judged reply (blocking form of request + poll)."""
        self.request(board, player, depth)
        while True:
            reply = self.poll(wait=1.0)
            if reply is not None:
                return reply

    @property
    def busy(self) -> bool:
        """Return True while a request is in progress."""
        return self.process.busy

    def cancel(self) -> None:
        """Abandon the request in progress (e.g. the user took a move back)."""
        self._asked = None
        self.process.cancel()

    def close(self) -> None:
        """Stop the bot's process and release what it was loaded from (see ``release``).

        The player is done then: a bot that is to play again is opened anew.
        """
        self._asked = None
        self.process.close()
        if self._release is not None:
            self._release()
            self._release = None


def reply_of(result: CallResult, board: list[str], player: str) -> CallResult:
    """Judge the CallResult of ``oskaplayer(board, player, ...)`` as a move.

    Args:
        result: how the call ended, as the bot's process reported it.
        board: the board the bot was given, as row strings.
        player: 'w' or 'b'.

    Returns:
        The result with status 'ok' and the legal board as its value, or why the bot
        forfeits ('unplain' becomes 'malformed'); time and mutation kept.
    """
    if result.status == "unplain":
        return replace(result, status="malformed")
    if not result.ok:
        return result
    return replace(judge_move(board, player, result.value), seconds=result.seconds,
                   mutated=result.mutated)
