"""Whole games between two players: the game runner, game records and self-play matches."""
