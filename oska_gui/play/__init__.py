"""Whole games between two players: self-play matches and game records."""
