"""Pygame-free UI logic shared by the desktop (pygame) and browser (canvas) front ends.

A front end turns its native events into ``events`` objects, feeds them to the app,
calls ``update(dt)`` each frame and lets the app draw on its ``Canvas`` implementation.
"""
