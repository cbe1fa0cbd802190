"""The start screen: the options of the next game (``start_scene``) and its layout
(``menu_layout``)."""
