"""Colours of the game: a warm wooden board on a dark slate table.

Piece bodies, empty holes and squares have fixed colours at their very centre, so a
screenshot test can tell what stands on a cell from one pixel. ``TEXT_PAIRS`` lists
every text colour with every background it is drawn on; each pair has a WCAG contrast
of at least 4.5:1 (tests/test_ui_readable.py).
"""

from __future__ import annotations

from .contrast import over as _over

Color = tuple[int, ...]

BACKGROUND: Color = (30, 34, 41)
PANEL: Color = (41, 46, 55)
PANEL_EDGE: Color = (58, 64, 76)
CARD: Color = (50, 56, 67)

TEXT: Color = (238, 233, 222)
TEXT_DIM: Color = (185, 190, 200)
TEXT_FAINT: Color = (155, 161, 173)  # still 4.5:1 on every dark surface it is used on
TEXT_DARK: Color = (40, 32, 24)
TEXT_ERROR: Color = (255, 130, 112)

WOOD: Color = (199, 150, 93)
WOOD_LIGHT: Color = (219, 174, 116)
WOOD_GRAIN: Color = (186, 136, 82)
WOOD_EDGE: Color = (122, 79, 43)
WOOD_SHADOW: Color = (0, 0, 0, 90)
HOLE_RIM: Color = (96, 60, 31)
HOLE: Color = (139, 94, 54)
NAME_TAG: Color = (22, 24, 30, 215)  # the dark tag a cell name sits on

SQUARE_LIGHT: Color = (235, 211, 163)
SQUARE_DARK: Color = (181, 129, 80)

PIECE_BODY: tuple[Color, Color] = ((243, 235, 217), (52, 47, 50))  # White, Black
PIECE_RIM: tuple[Color, Color] = ((190, 177, 152), (22, 20, 22))
PIECE_RING: tuple[Color, Color] = ((222, 211, 188), (70, 64, 67))
PIECE_SHINE: tuple[Color, Color] = ((255, 255, 255, 120), (255, 255, 255, 46))
PIECE_SHADOW: Color = (0, 0, 0, 85)

SELECT: Color = (255, 206, 84)
TARGET: Color = (74, 168, 96)
TARGET_CAPTURE: Color = (212, 86, 62)
LAST_MOVE: Color = (255, 150, 60, 125)
HINT: Color = (80, 170, 255)
REPLACED: Color = (232, 74, 62)  # the review's move played where the hint's was better
CURSOR: Color = (255, 255, 255)  # the keyboard cursor: white inside a dark ring
CURSOR_EDGE: Color = (20, 22, 28)
FLASH: Color = (232, 74, 62)

BUTTON: Color = (60, 67, 80)
BUTTON_HOVER: Color = (76, 85, 101)
BUTTON_DISABLED: Color = (46, 51, 60)
BUTTON_ACTIVE: Color = (214, 160, 72)
BUTTON_ACTIVE_HOVER: Color = (230, 178, 92)

# the review's marks (?!, ?, ??) in the move list and on the graph, and the graph itself
MARK_INACCURACY: Color = (86, 180, 233)
MARK_MISTAKE: Color = (240, 170, 40)
MARK_BLUNDER: Color = (255, 128, 120)
GRAPH_WHITE: Color = (238, 233, 222, 150)  # the area of White's win chance
GRAPH_LINE: Color = (255, 206, 84)

BANNER: Color = (22, 24, 30, 225)
TOAST: Color = (20, 22, 28, 220)
SCRIM: Color = (10, 12, 16, 170)

_SURFACES = (BACKGROUND, PANEL, CARD)
_BOARD_EXTREMES = (PIECE_BODY[0], SQUARE_LIGHT, PIECE_BODY[1], HOLE)  # lightest, darkest
_ON_BOARD = tuple(_over(cover, board) for cover in (BANNER, TOAST, NAME_TAG)
                  for board in _BOARD_EXTREMES)

TEXT_PAIRS: tuple[tuple[Color, tuple[Color, ...]], ...] = (
    (TEXT, (*_SURFACES, BUTTON, BUTTON_HOVER, BUTTON_DISABLED, *_ON_BOARD)),
    (TEXT_DIM, (*_SURFACES, BUTTON, *_ON_BOARD)),
    (TEXT_FAINT, (*_SURFACES, BUTTON_DISABLED)),
    (SELECT, (*_SURFACES, BUTTON, BUTTON_HOVER, *_ON_BOARD)),
    (TEXT_DARK, (BUTTON_ACTIVE, BUTTON_ACTIVE_HOVER)),
    (TEXT_ERROR, _SURFACES),
    (MARK_INACCURACY, _SURFACES),
    (MARK_MISTAKE, _SURFACES),
    (MARK_BLUNDER, _SURFACES),
)
