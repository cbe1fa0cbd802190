"""Cards drawn over a screen: the confirmation before a game is left (``confirm``) and
the help (``help``)."""
