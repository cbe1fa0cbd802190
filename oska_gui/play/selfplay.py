"""Self-play matches between two players, for tuning and strength tests.

The players are usually ``players.DepthPlayer``: an evaluator searched to a depth.
``play_game`` plays one game from a seeded random opening (a few random plies, so that
deterministic players still meet varied positions) with the ``runner``; ``match`` plays
every opening twice, once with each player as White, and totals the result from the
first player's point of view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from oska_gui.core.types import BLACK, WHITE, Position, Rules
from oska_gui.play.records import Record

from .players import Player
from .runner import play


@dataclass
class MatchResult:
    """Wins, draws and losses of the first player of a match, and the games played."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[Record] = field(default_factory=list, repr=False)

    @property
    def played(self) -> int:
        """Return the number of games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Return the first player's score as a fraction: (wins + draws / 2) / games."""
        return (self.wins + self.draws / 2) / self.played if self.played else 0.0

    def add(self, other: MatchResult) -> None:
        """Add the games and results of ``other`` to this result (in place)."""
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.games.extend(other.games)


def random_opening(rules: Rules, plies: int, rng: random.Random) -> list[Position]:
    """Return the positions of up to ``plies`` random moves from the start.

    Stops early rather than step into a finished game, so the last position returned
    is always still playable. The list starts with the starting position.
    """
    line = [rules.start()]
    for _ in range(plies):
        kids = [kid for kid in rules.children(line[-1]) if rules.terminal(kid) is None]
        if not kids:
            break
        line.append(rng.choice(kids))
    return line


def play_game(rules: Rules, white: Player, black: Player, opening_plies: int,
              rng: random.Random) -> Record:
    """Play one game: ``opening_plies`` random plies drawn from ``rng``, then the players.

    Args:
        rules: the board size's rules.
        white, black: the players of each colour.
        opening_plies: how many random plies to play before the players take over.
        rng: the source of the random opening (the players themselves are deterministic).

    Returns:
        The finished game's record.
    """
    return play(rules, (white, black), random_opening(rules, opening_plies, rng))


def match(rules: Rules, first: Player, second: Player, openings: int, opening_plies: int,
          seed: int) -> MatchResult:
    """Play ``openings`` seeded random openings twice each, swapping colours.

    Args:
        rules: the board size's rules.
        first, second: the players; results are counted for ``first``.
        openings: how many different openings (2 games each).
        opening_plies: random plies per opening.
        seed: the seed of the openings, so a match is reproducible.

    Returns:
        ``first``'s wins, draws and losses, with the game records.
    """
    result = MatchResult()
    rng = random.Random(seed)
    for _ in range(openings):
        state = rng.getstate()
        for first_colour in (WHITE, BLACK):
            rng.setstate(state)  # the same opening for both colour assignments
            pair = (first, second) if first_colour == WHITE else (second, first)
            record = play_game(rules, pair[0], pair[1], opening_plies, rng)
            _count(result, record, first_colour)
    return result


def _count(result: MatchResult, record: Record, colour: int) -> None:
    """Record ``record`` in ``result`` as a win, draw or loss for the side ``colour``."""
    result.games.append(record)
    if record.outcome.winner is None:
        result.draws += 1
    elif record.outcome.winner == colour:
        result.wins += 1
    else:
        result.losses += 1
