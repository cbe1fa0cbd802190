"""How each game looks on screen: what the drawing needs beyond the game's descriptor.

The registry (``engine.registry``) says what a game is; a ``Look`` says how it is drawn:
Oska as round pieces in holes on an hourglass of wood, Hexapawn as pawns on a
chequered square board inside a wooden rim that holds the coordinates. Sizes are in
pitches (the distance between neighbouring cell centres).
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.engine.registry import GameKind, game_info

from . import theme
from .canvas import Color


@dataclass(frozen=True)
class Look:
    """The drawing of one game.

    Attributes:
        frame_pad: the board frame's margin around the outermost cell centres.
        border: the width of a wooden rim outside the frame (0: none).
        piece_radius: a piece's radius.
        squares: True for a chequered board of squares, False for holes in wood.
        pawns: True for pawn silhouettes, False for round pieces.
        empty_coordinate_ink: the colour of a cell name on an empty cell.
    """

    frame_pad: float
    border: float
    piece_radius: float
    squares: bool
    pawns: bool
    empty_coordinate_ink: Color


LOOKS = {
    GameKind.OSKA: Look(frame_pad=0.62, border=0.0, piece_radius=0.40, squares=False,
                        pawns=False, empty_coordinate_ink=theme.COORDINATE_ON_HOLE),
    GameKind.HEXAPAWN: Look(frame_pad=0.5, border=0.32, piece_radius=0.36, squares=True,
                            pawns=True, empty_coordinate_ink=theme.TEXT_DARK),
}


def look_of(kind: object) -> Look:
    """Return how the game ``kind`` is drawn.

    Args:
        kind: a ``GameKind`` or its value.

    Returns:
        Its ``Look``.

    Raises:
        ValueError: for an unknown game.
    """
    return LOOKS[game_info(kind).kind]
