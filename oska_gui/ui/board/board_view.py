"""Painting the board: wood, holes or squares, pieces, marks, arrows and animations.

``BoardView`` gathers everything one frame of the board shows and ``draw`` paints it
in layers: board, last-move marks, destinations, pieces (the moving one and a captured
one from the animation), selection, hint arrow, illegal-click flashes, the piece in
flight or being dragged, the keyboard cursor's ring, then the cell names on top. The
centre pixel of every cell shows what stands there in a fixed colour (see ``theme``):
the screenshot tests rely on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from oska_gui.core.types import Move
from oska_gui.play.game import GameAdapter, Position

from ..kit import theme
from ..kit.canvas import Canvas, Color
from ..kit.rect import Rect, clamp
from ..kit.typescale import MIN_TEXT
from ..kit.widgets import arrow
from .animation import Flash, MoveAnimation
from .board_geometry import BoardLayout, offset_polygon
from .looks import look_of

NAME_SIZE = 0.22  # a cell name's size in pitches, kept between MIN_TEXT and NAME_MAX
NAME_MAX = 16.0
NAME_MIN_PITCH = 2.8 * MIN_TEXT  # a smaller board has no room for 12 px names beside its
# pieces (they would hide them): it shows none
NAME_SPOT = 0.34  # an Oska name tag's centre, this many pitches right of and below the
# hole's: on the wood between the hole and its lower neighbours


@dataclass
class BoardView:
    """What the board shows in one frame (see the module docstring for the layers).

    ``targets`` maps each destination cell of the selected piece to the cell it would
    capture (-1 for none); ``drag`` is the dragged piece's cell and pointer position;
    ``cursor`` is the keyboard cursor's cell (None while the pointer is used);
    ``replaced`` is the move played where ``hint`` was better (the review's), drawn as
    a red arrow under the hint's blue one.
    """

    layout: BoardLayout
    game: GameAdapter
    position: Position
    last_move: Move | None = None
    selected: int | None = None
    targets: dict[int, int] = field(default_factory=dict)
    hint: Move | None = None
    flashes: list[Flash] = field(default_factory=list)
    animation: MoveAnimation | None = None
    drag: tuple[int, float, float] | None = None
    coordinates: bool = False
    cursor: int | None = None
    replaced: Move | None = None


def draw_board(canvas: Canvas, layout: BoardLayout) -> None:
    """Paint the empty board (it never changes while the layout stays the same)."""
    if look_of(layout.kind).squares:
        _squares(canvas, layout)
    else:
        _wood(canvas, layout)
        _holes(canvas, layout)


def draw(canvas: Canvas, view: BoardView) -> None:
    """Paint ``view`` on ``canvas`` over the empty board drawn by ``draw_board``."""
    _last_move(canvas, view)
    _targets(canvas, view)
    _pieces(canvas, view)
    _victims(canvas, view)
    _selection(canvas, view)
    _hint(canvas, view)
    _flashes(canvas, view)
    _flying(canvas, view)
    _cursor(canvas, view)
    if view.coordinates and view.layout.pitch >= NAME_MIN_PITCH:  # on top: no ring hides one
        _coordinates(canvas, view)


# -- the board -----------------------------------------------------------------------


def _wood(canvas: Canvas, layout: BoardLayout) -> None:
    """Paint Oska's hourglass: a soft shadow, a dark rim, the wood and its grain."""
    pitch = layout.pitch
    frame = list(layout.frame)
    shadow = [(x + pitch * 0.05, y + pitch * 0.12) for x, y in offset_polygon(frame, pitch * 0.1)]
    canvas.polygon(shadow, theme.WOOD_SHADOW)
    canvas.polygon(offset_polygon(frame, pitch * 0.09), theme.WOOD_EDGE)
    canvas.polygon(frame, theme.WOOD)
    _grain(canvas, layout)
    canvas.polygon(offset_polygon(frame, -pitch * 0.05), (*theme.WOOD_LIGHT, 110),
                   max(1.0, pitch * 0.03))


def _grain(canvas: Canvas, layout: BoardLayout) -> None:
    """Draw faint wavy grain lines across the hourglass, clipped to its outline."""
    rect, frame = layout.rect, layout.frame
    gap = max(3.0, layout.pitch * 0.16)
    steps = int(rect.h / gap)
    for i in range(1, steps):
        y = rect.y + i * gap + (i * 7 % 5) * gap * 0.08
        span = _span(frame, y)
        if span is None:
            continue
        left, right = span
        shade = theme.WOOD_GRAIN if i % 3 else theme.WOOD_LIGHT
        canvas.line(left + 2, y, right - 2, y, (*shade, 70 + (i * 37 % 50)), 1)


def _span(polygon: tuple, y: float) -> tuple[float, float] | None:
    """Return the leftmost and rightmost x where the horizontal line at ``y`` meets the
    outline of ``polygon``, or None when it misses it."""
    xs = []
    count = len(polygon)
    for i in range(count):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % count]
        if (y1 <= y < y2) or (y2 <= y < y1):
            xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return (min(xs), max(xs)) if len(xs) >= 2 else None


def _holes(canvas: Canvas, layout: BoardLayout) -> None:
    """Draw the cups the pieces sit in: a dark rim shading the top, a lighter floor."""
    r = layout.hole_radius
    for x, y in layout.centers:
        canvas.circle(x, y - r * 0.04, r, theme.HOLE_RIM)
        canvas.circle(x, y + r * 0.08, r * 0.86, theme.HOLE)
        canvas.circle(x, y, r * 1.02, (*theme.WOOD_LIGHT, 90), max(1.0, r * 0.06))


def _squares(canvas: Canvas, layout: BoardLayout) -> None:
    """Paint the Hexapawn board: a wooden rim and checkered squares."""
    rect, pitch = layout.rect, layout.pitch
    rim = pitch * 0.32
    canvas.rect(rect.x - rim + pitch * 0.05, rect.y - rim + pitch * 0.1, rect.w + 2 * rim,
                rect.h + 2 * rim, theme.WOOD_SHADOW, rim)
    canvas.rect(rect.x - rim, rect.y - rim, rect.w + 2 * rim, rect.h + 2 * rim,
                theme.WOOD_EDGE, rim * 0.8)
    canvas.rect(rect.x - rim * 0.55, rect.y - rim * 0.55, rect.w + rim * 1.1, rect.h + rim * 1.1,
                theme.WOOD, rim * 0.5)
    half = pitch / 2
    n = layout.n
    for cell, (x, y) in enumerate(layout.centers):
        row, col = divmod(cell, n)
        color = theme.SQUARE_LIGHT if (row + col) % 2 == 0 else theme.SQUARE_DARK
        canvas.rect(x - half, y - half, pitch + 0.5, pitch + 0.5, color)


# -- marks -----------------------------------------------------------------------------


def _last_move(canvas: Canvas, view: BoardView) -> None:
    """Mark where the last move came from and went to with amber rings."""
    move = view.last_move
    if move is None or move.is_pass:
        return
    layout = view.layout
    width = max(2.0, layout.pitch * 0.045)
    for cell, scale in ((move.frm, 0.36), (move.to, 0.47)):
        x, y = layout.center(cell)
        canvas.circle(x, y, layout.pitch * scale, theme.LAST_MOVE, width)


def _targets(canvas: Canvas, view: BoardView) -> None:
    """Show the selected piece's destinations as green dots (drawn under the pieces)."""
    layout = view.layout
    for cell in view.targets:
        x, y = layout.center(cell)
        canvas.circle(x, y, layout.pitch * 0.15, (*theme.TARGET, 90))
        canvas.circle(x, y, layout.pitch * 0.11, theme.TARGET)


def _victims(canvas: Canvas, view: BoardView) -> None:
    """Ring in red each piece the selected piece could capture (drawn over the pieces)."""
    layout = view.layout
    for over in view.targets.values():
        if over >= 0:
            x, y = layout.center(over)
            canvas.circle(x, y, layout.radius * 1.14, theme.TARGET_CAPTURE,
                          max(2.0, layout.pitch * 0.055))


def _selection(canvas: Canvas, view: BoardView) -> None:
    """Ring the selected piece in gold (unless it is being dragged)."""
    if view.selected is None or view.drag is not None:
        return
    layout = view.layout
    x, y = layout.center(view.selected)
    width = max(2.0, layout.pitch * 0.06)
    canvas.circle(x, y, layout.radius * 1.3, (*theme.SELECT, 90), width * 1.6)
    canvas.circle(x, y, layout.radius * 1.14, theme.SELECT, width)


def _cursor(canvas: Canvas, view: BoardView) -> None:
    """Ring the keyboard cursor's cell in white inside a dark edge (seen on any cell)."""
    if view.cursor is None:
        return
    layout = view.layout
    x, y = layout.center(view.cursor)
    width = max(2.0, layout.pitch * 0.045)
    canvas.circle(x, y, layout.radius * 1.32, theme.CURSOR_EDGE, width * 2.2)
    canvas.circle(x, y, layout.radius * 1.32, theme.CURSOR, width)


def _hint(canvas: Canvas, view: BoardView) -> None:
    """Draw the move a better one replaces (``replaced``) as a red arrow, then the
    suggested move as a blue arrow over it."""
    layout = view.layout
    width = max(3.0, layout.pitch * 0.09)
    replaced = view.replaced
    if replaced is not None and not replaced.is_pass:
        arrow(canvas, layout.center(replaced.frm), layout.center(replaced.to), width,
              (*theme.REPLACED, 220))
    move = view.hint
    if move is None or move.is_pass:
        return
    canvas.circle(*layout.center(move.frm), layout.radius * 1.18, theme.HINT,
                  max(2.0, layout.pitch * 0.06))
    arrow(canvas, layout.center(move.frm), layout.center(move.to), width,
          (*theme.HINT, 220))


def _flashes(canvas: Canvas, view: BoardView) -> None:
    """Draw fading red rings on the cells of illegal clicks."""
    layout = view.layout
    for flash in view.flashes:
        x, y = layout.center(flash.cell)
        color = (*theme.FLASH, int(220 * flash.strength()))
        canvas.circle(x, y, layout.pitch * 0.47, color, max(2.0, layout.pitch * 0.07))


def _coordinates(canvas: Canvas, view: BoardView) -> None:
    """Write each cell's notation name on a dark tag beside its piece: on the wood at the
    lower right of an Oska hole, in the lower right corner of a square. The tag keeps
    the name readable on any cell and the piece (and the centre pixel) visible."""
    layout, game = view.layout, view.game
    size = clamp(layout.pitch * NAME_SIZE, MIN_TEXT, NAME_MAX)
    for cell, (x, y) in enumerate(layout.centers):
        name = game.cell_name(cell)
        tag = _name_tag(layout, x, y, canvas.text_width(name, size, True) + size * 0.5,
                        size * 1.3)
        canvas.rect(tag.x, tag.y, tag.w, tag.h, theme.NAME_TAG, tag.h * 0.3)
        canvas.text(name, *tag.center, size, theme.TEXT, bold=True)


def _name_tag(layout: BoardLayout, x: float, y: float, w: float, h: float) -> Rect:
    """Return where the name tag (``w`` x ``h``) of the cell centred at (x, y) goes."""
    if look_of(layout.kind).squares:
        edge = layout.pitch / 2 - 2
        return Rect(x + edge - w, y + edge - h, w, h)
    spot = layout.pitch * NAME_SPOT
    return Rect(x + spot - w / 2, y + spot - h / 2, w, h)


# -- pieces ----------------------------------------------------------------------------


def _pieces(canvas: Canvas, view: BoardView) -> None:
    """Draw the pieces at rest, and the captured piece of an animation as it vanishes."""
    layout, game, position = view.layout, view.game, view.position
    hidden = set()
    anim = view.animation
    if anim is not None:
        hidden.add(anim.to)
    if view.drag is not None:
        hidden.add(view.drag[0])
    for cell in range(layout.cell_count):
        side = game.piece_at(position, cell)
        if side is not None and cell not in hidden:
            piece(canvas, layout.kind, layout.radius, *layout.center(cell), side)
    if anim is not None and anim.victim is not None:
        scale = anim.victim_scale()
        if scale > 0.02:
            piece(canvas, layout.kind, layout.radius, *layout.center(anim.over), anim.victim,
                  scale=scale, alpha=scale)


def _flying(canvas: Canvas, view: BoardView) -> None:
    """Draw the animated mover and the dragged piece above everything else."""
    layout = view.layout
    anim = view.animation
    if anim is not None:
        x, y, lift = anim.mover_point(layout.center(anim.frm), layout.center(anim.to),
                                      layout.pitch)
        piece(canvas, layout.kind, layout.radius, x, y, anim.mover, lift=lift)
    if view.drag is not None:
        cell, x, y = view.drag
        side = view.game.piece_at(view.position, cell)
        if side is not None:
            piece(canvas, layout.kind, layout.radius, x, y, side, lift=0.7)


def piece(canvas: Canvas, kind: str, radius: float, x: float, y: float, side: int,
          scale: float = 1.0, alpha: float = 1.0, lift: float = 0.0) -> None:
    """Draw one piece of ``side`` centred at (x, y) in the game's look: a disc or a pawn.

    Args:
        canvas: where to draw.
        kind: the game, a ``GameKind`` (its look gives the piece's shape).
        radius: the piece's radius in pixels.
        x: the centre's x in pixels.
        y: the centre's y in pixels.
        side: 0 White, 1 Black.
        scale: size factor (a captured piece shrinks to 0).
        alpha: opacity factor (a captured piece fades out).
        lift: 0 on the board to 1 high in the air (bigger, with a farther shadow).
    """
    r = radius * scale * (1 + 0.12 * lift)
    if r < 0.5:
        return
    shadow = theme.PIECE_SHADOW
    shade = (*shadow[:3], int(shadow[3] * alpha * (1 - 0.5 * lift)))
    if look_of(kind).pawns:  # a flat shadow under the pawn's base
        canvas.rect(x - r * (0.95 - 0.2 * lift), y + r * (0.62 + 0.4 * lift),
                    r * (2.0 - 0.4 * lift), r * 0.42, shade, r * 0.2)
        _pawn(canvas, x, y, r, side, alpha)
        return
    spread = 1.0 - 0.12 * lift  # a piece high in the air casts a smaller, farther shadow
    canvas.circle(x + r * (0.07 + 0.2 * lift), y + r * (0.13 + 0.45 * lift), r * spread, shade)
    canvas.circle(x, y, r, _fade(theme.PIECE_RIM[side], alpha))
    canvas.circle(x, y - r * 0.03, r * 0.9, _fade(theme.PIECE_BODY[side], alpha))
    canvas.circle(x, y, r * 0.62, _fade(theme.PIECE_RING[side], alpha), max(1.0, r * 0.07))
    shine = theme.PIECE_SHINE[side]
    canvas.circle(x - r * 0.3, y - r * 0.34, r * 0.42, (*shine[:3], int(shine[3] * alpha * 0.3)))
    canvas.circle(x - r * 0.36, y - r * 0.42, r * 0.2, (*shine[:3], int(shine[3] * alpha * 0.6)))


def _pawn(canvas: Canvas, x: float, y: float, r: float, side: int, alpha: float) -> None:
    """Draw a chess pawn silhouette of ``side`` (about 2r tall) centred at (x, y)."""
    rim, body = _fade(theme.PIECE_RIM[side], alpha), _fade(theme.PIECE_BODY[side], alpha)
    edge = max(1.0, r * 0.09)
    base = (x - r * 0.95, y + r * 0.55, r * 1.9, r * 0.42)
    trunk = [(x - r * 0.28, y - r * 0.35), (x + r * 0.28, y - r * 0.35),
             (x + r * 0.62, y + r * 0.62), (x - r * 0.62, y + r * 0.62)]
    head = (x, y - r * 0.6, r * 0.42)
    canvas.rect(base[0] - edge, base[1] - edge, base[2] + 2 * edge, base[3] + 2 * edge, rim,
                r * 0.2)
    canvas.polygon(offset_polygon(trunk, edge), rim)
    canvas.circle(head[0], head[1], head[2] + edge, rim)
    canvas.rect(*base, body, r * 0.16)
    canvas.polygon(trunk, body)
    canvas.circle(*head, body)
    shine = theme.PIECE_SHINE[side]
    canvas.circle(x - r * 0.14, y - r * 0.72, r * 0.14, (*shine[:3], int(shine[3] * alpha)))


def _fade(color: Color, alpha: float) -> Color:
    """Return ``color`` with its opacity multiplied by ``alpha`` (opaque if alpha is 1)."""
    if alpha >= 1:
        return color
    return (*color[:3], int((color[3] if len(color) > 3 else 255) * alpha))
