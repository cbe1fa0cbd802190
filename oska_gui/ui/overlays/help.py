"""The help overlay: how to move, the rules in brief, and (for keyboard users) the keys.

The card is laid out at the type scale's sizes: full sentences and one shortcut a line
when they fit the window, else shorter wordings with the shortcuts in two columns. After
a touch the help speaks of tapping and leaves the keyboard out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kit import theme
from ..kit.canvas import Canvas
from ..kit.rect import Rect
from ..kit.typescale import LINE, TypeScale, type_scale
from ..kit.widgets import card, fit_lines, wrap
from ..kit.window import margin


@dataclass(frozen=True)
class Shortcut:
    """A key (or keys) and what it does, each in a long and a short wording."""

    keys: str
    meaning: str
    short_keys: str
    short: str


SHORTCUTS = (
    Shortcut("Arrows", "move the cursor over the board (a replay: step back and forth)",
             "Arrows", "cursor"),
    Shortcut("Enter  /  Space", "pick up or put down the piece at the cursor", "Enter",
             "pick, put"),
    Shortcut("/", "type a move, like b2-c1 (Enter plays it, Esc closes the line)", "/",
             "type a move"),
    Shortcut("N", "new game with the same choices", "N", "new game"),
    Shortcut("U  /  Backspace", "undo (against the computer: with its reply)", "U", "undo"),
    Shortcut("R", "redo", "R", "redo"),
    Shortcut("H", "hint: the computer suggests a move", "H", "hint"),
    Shortcut("E", "review a finished game or a replay: every move marked (Up / Down: the "
             "marked moves, Esc: back)", "E", "review"),
    Shortcut("Space  /  P", "pause or resume (computer vs computer)", "Space", "pause"),
    Shortcut("S", "single step while paused", "S", "step"),
    Shortcut("+  /  -", "faster / slower (speed or animation)", "+  -", "speed"),
    Shortcut("A", "animation: off, fast, normal, slow", "A", "animation"),
    Shortcut("C", "cell names on the board: show or hide (kept for next time)", "C",
             "cell names"),
    Shortcut("V", "sound on or off (kept for next time)", "V", "sound"),
    Shortcut("F", "flip the board (your side starts at the bottom; kept for next time)",
             "F", "flip"),
    Shortcut("M  /  Esc", "menu (start screen); Esc also drops a selection", "M", "menu"),
    Shortcut("?  /  F1", "this help", "?", "help"),
)
QUIT_SHORTCUT = Shortcut("Q", "quit", "Q", "quit")
OPEN_SHORTCUT = Shortcut("O", "open a game record file to review it", "O", "open")
HOW_TO = (  # (long, short); {verb} is Click or Tap
    ("{verb} one of your pieces, then a highlighted hole (or drag the piece there).",
     "{verb} a piece, then a highlighted hole."),
    ("Oska: step diagonally forward, or jump over an enemy piece to capture it.",
     "Step diagonally forward, or jump to capture."),
    ("Win by capturing every enemy piece, or by bringing all your pieces home first.",
     "Win: capture all, or bring all yours home."),
)
TITLE = "How to play"
CLOSE_TEXT = {False: ("Click anywhere or press any key to close", "Click or press a key to close"),
              True: ("Tap anywhere to close",)}
COLUMN_GAP = 16.0


@dataclass(frozen=True)
class HelpPage:
    """The help's content laid out for one card width: each how-to text and each
    shortcut meaning as its lines, the shortcuts in ``columns`` columns."""

    how_to: tuple[list[str], ...]
    shortcuts: tuple[tuple[str, list[str]], ...]
    columns: int
    key_width: float
    close: str

    def height(self, scale: TypeScale) -> float:
        """Return the card's height for this content at ``scale`` (padding included)."""
        body = scale.body * LINE
        how = sum(len(lines) for lines in self.how_to) * body
        per_column = -(-len(self.shortcuts) // self.columns)
        rows = [max(len(lines) for _, lines in self.shortcuts[i::per_column])
                for i in range(per_column)] if self.shortcuts else []
        keys = sum(rows) * body + (body * 0.6 if rows else 0)
        return (scale.title * LINE + body * 0.5 + how + keys + body * 0.6
                + scale.small * LINE + 2 * _pad(scale))


def _pad(scale: TypeScale) -> float:
    """Return the card's inner padding at ``scale`` (it follows the title's size, so
    a small window keeps the room for text)."""
    return scale.title * 0.55


def help_page(canvas: Canvas, inner_w: float, scale: TypeScale, shortcuts: tuple[Shortcut, ...],
              touch: bool, compact: bool) -> HelpPage:
    """Return the help's content laid out ``inner_w`` pixels wide.

    Args:
        canvas: measures the text.
        inner_w: the card's width inside its padding.
        scale: the text sizes.
        shortcuts: the shortcuts to list (none after a touch).
        touch: whether to speak of tapping instead of clicking.
        compact: use the short wordings and two columns of shortcuts.

    Returns:
        The HelpPage.
    """
    verb = "Tap" if touch else "Click"
    how_to = tuple(fit_lines(canvas, text[1 if compact else 0].format(verb=verb), inner_w,
                             scale.body, 9) for text in HOW_TO)
    columns = 2 if compact else 1
    keys = [s.short_keys if compact else s.keys for s in shortcuts]
    key_width = max((canvas.text_width(k, scale.label, True) for k in keys),
                    default=0.0) + COLUMN_GAP
    meaning_w = (inner_w - COLUMN_GAP * (columns - 1)) / columns - key_width
    listed = tuple((k, wrap(canvas, s.short if compact else s.meaning, meaning_w, scale.body))
                   for k, s in zip(keys, shortcuts, strict=True))
    close = fit_lines(canvas, CLOSE_TEXT[touch], inner_w, scale.small)[0]
    return HelpPage(how_to, listed, columns, key_width, close)


def draw_help(canvas: Canvas, width: float, height: float, can_quit: bool = True,
              touch: bool = False, can_open: bool = False) -> None:
    """Paint the help overlay over whatever is on screen.

    Args:
        canvas: where to paint.
        width: the window width in pixels.
        height: the window height in pixels.
        can_quit: whether to list the Q shortcut (the App quits on Q).
        touch: whether the last input was a touch (tap wording, no keyboard list).
        can_open: whether to list the O shortcut (the page opens a record file).
    """
    scale = type_scale(width, height)
    optional = ((QUIT_SHORTCUT,) if can_quit else ()) + ((OPEN_SHORTCUT,) if can_open else ())
    shortcuts = () if touch else SHORTCUTS + optional
    m = margin(width, height)
    card_w = min(width - 2 * m, 640.0)
    inner_w = card_w - 2 * _pad(scale)
    page = help_page(canvas, inner_w, scale, shortcuts, touch, compact=False)
    if page.height(scale) > height - 2 * m:
        page = help_page(canvas, inner_w, scale, shortcuts, touch, compact=True)
    card_h = min(page.height(scale), height - 2 * m)
    rect = Rect((width - card_w) / 2, (height - card_h) / 2, card_w, card_h)
    canvas.rect(0, 0, width, height, theme.SCRIM)
    card(canvas, rect, theme.PANEL, 16)
    _draw_page(canvas, rect.inset(_pad(scale)), page, scale)


def _draw_page(canvas: Canvas, inner: Rect, page: HelpPage, scale: TypeScale) -> None:
    """Draw the title, the how-to lines, the shortcuts and the closing note in ``inner``."""
    body = scale.body * LINE
    canvas.text(TITLE, inner.center[0], inner.y + scale.title * LINE / 2, scale.title,
                theme.TEXT, bold=True)
    y = inner.y + scale.title * LINE + body * 0.5
    for lines in page.how_to:
        for line in lines:
            canvas.text(line, inner.x, y + body / 2, scale.body, theme.TEXT_DIM, "left")
            y += body
    if page.shortcuts:
        _draw_shortcuts(canvas, Rect(inner.x, y + body * 0.6, inner.w, 0), page, scale)
    canvas.text(page.close, inner.center[0], inner.bottom - scale.small * LINE / 2,
                scale.small, theme.TEXT_FAINT)


def _draw_shortcuts(canvas: Canvas, top: Rect, page: HelpPage, scale: TypeScale) -> None:
    """Draw the shortcut table from ``top``'s top edge down, in the page's columns."""
    body = scale.body * LINE
    per_column = -(-len(page.shortcuts) // page.columns)
    width = (top.w - COLUMN_GAP * (page.columns - 1)) / page.columns
    row_y = top.y
    for row in range(per_column):
        cells = page.shortcuts[row::per_column]
        for column, (keys, lines) in enumerate(cells):
            x = top.x + column * (width + COLUMN_GAP)
            canvas.text(keys, x, row_y + body / 2, scale.label, theme.SELECT, "left", True)
            for i, line in enumerate(lines):
                canvas.text(line, x + page.key_width, row_y + body * (i + 0.5), scale.body,
                            theme.TEXT, "left")
        row_y += body * max(len(lines) for _, lines in cells)
