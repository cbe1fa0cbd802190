"""How each game looks on screen: what the drawing needs beyond the game's descriptor.

The registry (``engine.registry``) says what a game is; a ``Look`` says how it is drawn:
Oska as round pieces in holes on an hourglass of wood, Hexapawn as pawns on a
chequered square board inside a wooden rim. Sizes are in
pitches (the distance between neighbouring cell centres).
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.engine.registry import GameKind, game_info


@dataclass(frozen=True)
class Look:
    """The drawing of one game.

    Attributes:
        frame_pad: the board frame's margin around the outermost cell centres.
        reach: how far the board's drawing (a wooden rim, the shadow) goes beyond the
            frame; the board is fitted into its area with it, so nothing is drawn
            outside the area.
        piece_radius: a piece's radius.
        squares: True for a chequered board of squares, False for holes in wood.
        pawns: True for pawn silhouettes, False for round pieces.
    """

    frame_pad: float
    reach: float
    piece_radius: float
    squares: bool
    pawns: bool


LOOKS = {
    # the hourglass's dark edge reaches 0.09 pitches out, its shadow 0.22 (see board_view)
    GameKind.OSKA: Look(frame_pad=0.62, reach=0.22, piece_radius=0.40, squares=False,
                        pawns=False),
    # a 0.32-pitch rim and a shadow 0.1 below it
    GameKind.HEXAPAWN: Look(frame_pad=0.5, reach=0.42, piece_radius=0.36, squares=True,
                            pawns=True),
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
