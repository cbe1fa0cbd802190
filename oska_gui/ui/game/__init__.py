"""The game screen: the scene (input and state), its commands and buttons, the pointer's
and the typed line's moves, the panel's texts, the split of the window into board and
panel (``layout``) and the drawing (``game_view``)."""
