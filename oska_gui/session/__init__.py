"""A game as a front end runs it, without drawing: the window's match (whose turn,
computer moves through the runner, passes, undo and redo, pause), hints, the saved game,
the kept games (``game_history``), the player's settings and the memory work spread over
frames.

Both front ends (the desktop window and the browser page) and the UI's scenes use it;
it draws nothing and imports no pygame.
"""
