"""Animation timelines: pure functions of elapsed time, drawn by the board view.

A ``MoveAnimation`` plays after the move is already in the game record: the board
shows the new position, except that the moving piece is drawn where the timeline puts
it and a captured piece is drawn shrinking and fading until it is gone. Steps glide
with an ease-in-out; jumps arc over the captured piece, which starts to vanish as the
jumper passes over it. Positions are worked out from cells at drawing time, so a
window resize in the middle of an animation is harmless.

``factor`` scales every duration (0 switches animation off); a piece dropped by a drag
starts where it was dropped and only settles into its cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kit.canvas import Point

STEP_SECONDS = 0.24
JUMP_SECONDS = 0.42
VANISH_SECONDS = 0.30
SETTLE_SECONDS = 0.09
JUMP_HEIGHT = 0.6  # arc height at mid-jump, in pitches
STEP_HEIGHT = 0.08
FLASH_SECONDS = 0.55


def ease_in_out(t: float) -> float:
    """Return the smoothstep of ``t`` clamped to [0, 1]: slow start, slow end."""
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


def lerp(a: Point, b: Point, t: float) -> Point:
    """Return the point a fraction ``t`` of the way from ``a`` to ``b``."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def arc(t: float) -> float:
    """Return the height profile of a hop: 0 at both ends, 1 in the middle."""
    t = min(1.0, max(0.0, t))
    return 4 * t * (1 - t)


@dataclass
class MoveAnimation:
    """One move being shown: the mover travelling from ``frm`` to ``to``.

    ``over`` is the captured cell (-1 for none) and ``victim`` its piece's side;
    ``origin`` is the pixel the mover starts from when it was dropped by a drag
    (then it only settles). Durations are in seconds.
    """

    frm: int
    to: int
    over: int
    mover: int
    victim: int | None
    travel: float
    vanish: float
    origin: Point | None = None
    elapsed: float = 0.0

    @classmethod
    def of_move(cls, frm: int, to: int, over: int, mover: int, factor: float,
                origin: Point | None = None) -> MoveAnimation | None:
        """Return the animation of a move, or None when ``factor`` is 0 (animation off).

        Args:
            frm: the cell the piece leaves.
            to: the cell it arrives on.
            over: the captured cell, or -1.
            mover: the moving side (0 White, 1 Black); the victim is the other side.
            factor: the animation speed factor (1 normal, bigger is slower).
            origin: the drop point of a dragged piece, or None.
        """
        if factor <= 0:
            return None
        capture = over >= 0
        if origin is not None:
            travel = SETTLE_SECONDS * factor
        else:
            travel = (JUMP_SECONDS if capture else STEP_SECONDS) * factor
        vanish = VANISH_SECONDS * factor if capture else 0.0
        return cls(frm, to, over, mover, 1 - mover if capture else None, travel, vanish, origin)

    @property
    def vanish_start(self) -> float:
        """Return when the captured piece starts to vanish: as the jumper passes over."""
        return 0.0 if self.origin is not None else self.travel / 2

    @property
    def duration(self) -> float:
        """Return the total length of the animation in seconds."""
        return max(self.travel, self.vanish_start + self.vanish)

    @property
    def done(self) -> bool:
        """Return True once the animation has played to its end."""
        return self.elapsed >= self.duration

    def advance(self, dt: float) -> bool:
        """Move the clock on by ``dt`` seconds; return True when the animation is done."""
        self.elapsed += max(0.0, dt)
        return self.done

    def finish(self) -> None:
        """Jump to the end of the animation."""
        self.elapsed = self.duration

    def travel_fraction(self) -> float:
        """Return the eased fraction of the mover's way already travelled (0 to 1)."""
        if self.travel <= 0:
            return 1.0
        return ease_in_out(self.elapsed / self.travel)

    def mover_point(self, start: Point, end: Point, pitch: float) -> tuple[float, float, float]:
        """Return where to draw the mover: (x, y, lift) with lift 0 (on the board) to 1.

        Args:
            start: the pixel centre of the ``frm`` cell.
            end: the pixel centre of the ``to`` cell.
            pitch: the distance between neighbouring cells, for the arc's height.
        """
        t = self.travel_fraction()
        x, y = lerp(self.origin or start, end, t)
        if self.origin is not None:
            return x, y, 0.0
        raw = min(1.0, self.elapsed / self.travel) if self.travel > 0 else 1.0
        height = JUMP_HEIGHT if self.over >= 0 else STEP_HEIGHT
        lift = arc(raw) * height / JUMP_HEIGHT
        return x, y - arc(raw) * height * pitch, lift

    def victim_scale(self) -> float:
        """Return the captured piece's size and opacity factor: 1 until it vanishes, then 0."""
        if self.over < 0:
            return 0.0
        if self.elapsed <= self.vanish_start:
            return 1.0
        if self.vanish <= 0:
            return 0.0
        return 1.0 - ease_in_out((self.elapsed - self.vanish_start) / self.vanish)


@dataclass
class Flash:
    """A short fading mark on a cell (gentle feedback for an illegal click)."""

    cell: int
    elapsed: float = 0.0
    duration: float = FLASH_SECONDS

    def advance(self, dt: float) -> bool:
        """Move the clock on by ``dt`` seconds; return True when the flash has faded."""
        self.elapsed += max(0.0, dt)
        return self.elapsed >= self.duration

    def strength(self) -> float:
        """Return the flash's opacity factor, 1 at first fading to 0."""
        return max(0.0, 1.0 - self.elapsed / self.duration) if self.duration > 0 else 0.0
