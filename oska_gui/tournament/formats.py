"""Tournament formats: which games are played, round by round.

A format hands out the games one round at a time and hears each round's results
before it makes the next: the round robin has one round holding every game; the Swiss
system (``swiss``) pairs each round from the results so far. Either way every game
has an id made of everything that decides it (``schedule.game_id``), so a rerun finds
the finished games in the database; the Swiss pairing is a function of those results
alone, so a rerun pairs the finished rounds the same way and continues with the first
unfinished one. A round stored by an earlier version, whose pairing differed
(``swiss_legacy``), is found in the database (``Stored``) and kept as it was played.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from .games import Entrant, GameTask
from .result import GameResult
from .schedule import TournamentPlan, game_task, schedule
from .swiss import Round, SwissHistory, buchholz, pair_round
from .swiss_legacy import legacy_round

ROUND_ROBIN, SWISS = "round-robin", "swiss"
FORMATS = (ROUND_ROBIN, SWISS)


@dataclass(frozen=True)
class Extras:
    """What a format adds to an entrant's standing: points from byes, and a tie-break."""

    bye_points: float = 0.0
    buchholz: float | None = None


class Stored(Protocol):
    """What a format may ask the database about the games of a round it pairs."""

    def unused(self) -> bool:
        """Return whether the database may hold games the tournament has not used yet
        (False when all it holds are games already handed out)."""
        ...

    def present(self, ids: Collection[str]) -> set[str]:
        """Return those of ``ids`` that the database holds."""
        ...


class Format(Protocol):
    """A tournament format: its rounds of games, and what it adds to the standings."""

    @property
    def total_games(self) -> int:
        """Return the number of games of the whole tournament."""
        ...

    def next_round(self, stored: Stored | None = None) -> list[GameTask] | None:
        """Return the next round's games, or None when the tournament is over; a round
        ``stored`` holds is handed out as it was played."""
        ...

    def finish_round(self, results: Mapping[str, GameResult]) -> None:
        """Take the results of the round just handed out (by game id; more may be given)."""
        ...

    def extras(self) -> list[Extras]:
        """Return what the format adds to each entrant's standing, in entrant order."""
        ...


@dataclass
class RoundRobin:
    """Every pair plays ``plan.games`` games, all in one round (see ``schedule``)."""

    players: list[Entrant]
    plan: TournamentPlan
    handed_out: bool = False

    @property
    def total_games(self) -> int:
        """Return pairs times games a pair."""
        count = len(self.players)
        return count * (count - 1) // 2 * self.plan.games

    def next_round(self, stored: Stored | None = None) -> list[GameTask] | None:
        """Return every game the first time, then None (``stored`` changes nothing)."""
        if self.handed_out:
            return None
        self.handed_out = True
        return schedule(self.players, self.plan)

    def finish_round(self, results: Mapping[str, GameResult]) -> None:
        """Nothing to do: the round robin does not depend on results."""

    def extras(self) -> list[Extras]:
        """Return nothing added: no byes, no tie-break."""
        return [Extras() for _ in self.players]


@dataclass
class SwissRounds:
    """``rounds`` Swiss rounds (see ``swiss``), ``plan.games`` games a pairing.

    In a pairing (first, second) the first entrant has White in the pairing's even
    games. Each game's number counts the games the pair played before, so a rematch
    gets new ids and openings instead of reusing the first meeting's results.
    """

    players: list[Entrant]
    plan: TournamentPlan
    rounds: int
    history: SwissHistory = field(init=False)
    played: list[Round] = field(default_factory=list)
    current: tuple[Round, list[GameTask]] | None = None

    def __post_init__(self) -> None:
        """Start with no round played."""
        self.history = SwissHistory(len(self.players))

    @property
    def total_games(self) -> int:
        """Return rounds times pairings a round times games a pairing."""
        return self.rounds * (len(self.players) // 2) * self.plan.games

    def next_round(self, stored: Stored | None = None) -> list[GameTask] | None:
        """Return the games of the next round, paired from the results so far.

        The round ``swiss_legacy`` pairs instead is handed out when the database
        (``stored``) holds all of its games but not all of this pairing's: an earlier
        version played it so. It is looked for only where the two may differ (a round
        that is not ``straight``) and the database holds games not used yet.
        """
        if len(self.played) == self.rounds:
            return None
        paired = pair_round(self.history)
        tasks = self.tasks_of(paired)
        if not paired.straight and stored is not None and stored.unused() \
                and len(stored.present([task.game_id for task in tasks])) < len(tasks):
            before = legacy_round(self.history)
            earlier = self.tasks_of(before)
            ids = [task.game_id for task in earlier]
            if before != paired and len(stored.present(ids)) == len(ids):
                paired, tasks = before, earlier
        self.current = (paired, tasks)
        return tasks

    def tasks_of(self, paired: Round) -> list[GameTask]:
        """Return the games of the round ``paired``, pairing by pairing for each game
        number (so that the first games of every pairing come first)."""
        return [game_task(*self._colours(first, second, k), self._number(first, second, k),
                          self.plan)
                for k in range(self.plan.games) for first, second in paired.pairs]

    def _colours(self, first: int, second: int, k: int) -> tuple[Entrant, Entrant]:
        """Return (White, Black) of game ``k`` of the pairing (first, second)."""
        one, other = self.players[first], self.players[second]
        return (one, other) if k % 2 == 0 else (other, one)

    def _number(self, first: int, second: int, k: int) -> int:
        """Return the number of game ``k`` of this pairing among all the pair's games."""
        return self.history.met[frozenset((first, second))] * self.plan.games + k

    def finish_round(self, results: Mapping[str, GameResult]) -> None:
        """Add the round handed out last to the history, with its points per pairing."""
        if self.current is None:
            raise ValueError("finish_round called with no round handed out")
        paired, tasks = self.current
        points = {pair: 0.0 for pair in paired.pairs}
        names = {player.name: i for i, player in enumerate(self.players)}
        for task in tasks:
            result = results[task.game_id]
            white, black = names[result.white], names[result.black]
            if (white, black) in points:
                points[white, black] += result.score_of_white()
            else:
                points[black, white] += 1 - result.score_of_white()
        self.history.add_round(paired, points, self.plan.games)
        self.played.append(paired)
        self.current = None

    def extras(self) -> list[Extras]:
        """Return each entrant's bye points and Buchholz score."""
        ties = buchholz(self.history, self.played)
        byes = [sum(paired.bye == i for paired in self.played) for i in range(len(self.players))]
        return [Extras(count * self.plan.games, tie)
                for count, tie in zip(byes, ties, strict=True)]


def default_rounds(entrants: int) -> int:
    """Return the Swiss rounds when none are given: log2 of the field plus 2, at most
    one fewer than the entrants (enough to separate the field's top from the rest)."""
    return max(1, min(entrants - 1, math.ceil(math.log2(max(entrants, 2))) + 2))


def make_format(name: str, players: list[Entrant], plan: TournamentPlan,
                rounds: int | None) -> Format:
    """Return the format ``name`` (one of FORMATS) for ``players``.

    Raises:
        ValueError: an unknown format, or rounds given to the round robin.
    """
    if name == ROUND_ROBIN:
        if rounds is not None:
            raise ValueError("--rounds goes with --format swiss; a round robin plays "
                             "every pair")
        return RoundRobin(players, plan)
    if name == SWISS:
        return SwissRounds(players, plan, rounds or default_rounds(len(players)))
    raise ValueError(f"unknown format {name!r}: {' or '.join(FORMATS)}")
