"""The words of the game screen: what the side panel and the game-over banner say.

Pure functions of the match and the settings (no drawing, no pygame), so the game
screen's view model (``game_view.GameView``) is built from them and tests can read
them without a canvas.
"""

from __future__ import annotations

from oska_gui.core.types import SIDE_NAMES, Outcome
from oska_gui.play.levels import Level
from oska_gui.session.match import Match
from oska_gui.session.settings import Mode, Settings

MoveRow = tuple[int, list[tuple[str, str]]]


def move_rows(match: Match) -> list[MoveRow]:
    """Return the move list: (move number, [(ply text, 'past'|'current'|'future')...]).

    White always moves first, so ply i belongs to move i // 2 + 1; plies after the
    cursor (taken back, can be redone) are 'future'.
    """
    game, history = match.game, match.history
    rows: list[MoveRow] = []
    for ply, (before, after) in enumerate(history.pairs()):
        text = game.move_text(game.move_between(before, after))
        state = ("current" if ply == history.cursor - 1 else
                 "past" if ply < history.cursor else "future")
        if ply % 2 == 0:
            rows.append((ply // 2 + 1, []))
        rows[-1][1].append((text, state))
    return rows


def mode_text(match: Match) -> str:
    """Return a short label of who plays, for the panel's title line ('replay' in one)."""
    if match.replay is not None:
        return "replay"
    settings = match.settings
    if settings.mode == Mode.HVC:
        return f"you play {SIDE_NAMES[settings.human_side]}"
    return "computer vs computer" if settings.mode == Mode.CVC else "two players"


def role(match: Match, side: int) -> tuple[str, ...]:
    """Return who plays ``side``: 'You', 'Human', the computer's level or, in a replay,
    the recorded player's name; for a computer its wordings from the longest
    ('Computer · Master · thinks up to 2 s') to the shortest ('Master'), a level's in
    fewest words ('Hard · 5 moves') before that."""
    player = match.players.get(side)
    if player is not None:
        level = getattr(player, "level", None)  # a search player's; a bot has none
        brief = ((f"{level.name} · {level.brief()}",)
                 if isinstance(level, Level) and level.brief() else ())
        return (f"Computer · {player.name}", player.name, *brief, player.name.split(" · ")[0])
    if match.replay is not None:
        return ((match.replay.white, match.replay.black)[side],)
    return ("You",) if match.settings.mode == Mode.HVC else ("Human",)


def status_detail(match: Match, display: Settings, selecting: bool, touch: bool = False,
                  keyboard: bool = False) -> str:
    """Return the line under the status: the replay's place, the computer-vs-computer
    speed, what the hint means, or how to move.

    Args:
        match: the game.
        display: the current display preferences (the pace).
        selecting: True while the human has a piece selected.
        touch: True when the player uses a finger ('Tap' rather than 'Click').
        keyboard: True when the player's last press was a key (arrows and Enter).

    Returns:
        The line, or '' when there is nothing to add.
    """
    if match.replay is not None:
        history = match.history
        return f"Replay: move {history.cursor} of {len(history.positions) - 1}"
    if match.settings.mode == Mode.CVC:
        return f"Speed: {display.pace}" + ("  ·  paused" if match.paused else "")
    if match.hint is not None:
        detail = "The blue arrow shows the suggested move"
        return f"{detail}: {match.hint_proof}" if match.hint_proof else detail
    if match.human_to_move and not selecting:
        if keyboard:
            return (f"Arrows and Enter: a piece, then a highlighted "
                    f"{match.game.info.cell_word}; / types a move")
        verb = "Tap" if touch else "Click"
        return f"{verb} a piece, then a highlighted {match.game.info.cell_word}"
    return ""


def banner_title(match: Match, outcome: Outcome) -> str:
    """Return the game-over banner's title: 'Draw', 'You win!' or who won."""
    if outcome.winner is None:
        return "Draw"
    if match.settings.mode == Mode.HVC and outcome.winner not in match.players:
        return "You win!"
    return f"{SIDE_NAMES[outcome.winner]} wins"
