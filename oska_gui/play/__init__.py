"""Whole games between two players: the game runner, game records (and a history of
them: ``kept_games``) and self-play matches."""
