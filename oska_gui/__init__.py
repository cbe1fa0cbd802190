"""Oska (any n >= 4), Hexapawn and miniChess: rules, a shared alpha-beta AI and front ends.

The classic assignment functions are importable from here:
``movegen``, ``oskaplayer`` (Oska) and ``hexapawn``, ``move_maker``, ``move_chooser``.
"""

from oska_gui.spec.hexapawn import hexapawn, move_chooser, move_maker
from oska_gui.spec.oska import movegen, oskaplayer

__all__ = ["hexapawn", "move_chooser", "move_maker", "movegen", "oskaplayer"]
