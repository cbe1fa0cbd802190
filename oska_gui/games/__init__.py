"""The rules of each game: Oska on any n >= 4 and the Hexapawn family of pawn games."""
