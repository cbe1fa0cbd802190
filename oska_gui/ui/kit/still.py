"""What a screen that changes only with input shares: it follows the window's size and has
nothing to animate (the start screen, the Games screen)."""

from __future__ import annotations


class StillScene:
    """The time and size side of a screen that changes only with input."""

    width: float
    height: float

    def resize(self, width: float, height: float) -> None:
        """Adopt a new window size."""
        self.width, self.height = width, height

    def update(self, dt: float) -> None:
        """Let ``dt`` seconds pass: nothing on the screen moves by itself."""

    @property
    def animating(self) -> bool:
        """Return False: the screen changes only with input."""
        return False
