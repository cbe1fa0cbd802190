"""The Swiss system: its pairing rules and the format the tournament runs, without games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from functools import cache

import pytest

from oska_gui.tournament.formats import ROUND_ROBIN, SWISS, SwissRounds, make_format
from oska_gui.tournament.games import Conditions, Entrant, GameTask
from oska_gui.tournament.matching import Matching
from oska_gui.tournament.result import GameResult, MoveTimes
from oska_gui.tournament.schedule import TournamentPlan
from oska_gui.tournament.standings import standings
from oska_gui.tournament.swiss import Round, SwissHistory, buchholz, pair_round
from oska_gui.tournament.swiss_legacy import legacy_round
from tools import swiss_bench


def play_rounds(count: int, rounds: int, games: int, seed: int) -> tuple[SwissHistory, list[Round]]:
    """Pair and play ``rounds`` rounds of random results; return the history and rounds."""
    rng = random.Random(seed)
    history, played = SwissHistory(count), []
    for _ in range(rounds):
        paired = pair_round(history)
        check_everyone_once(paired, count)
        played.append(paired)
        history.add_round(paired, {pair: rng.choice([0, 0.5, 1, 1.5, 2][:games * 2 + 1])
                                   for pair in paired.pairs}, games)
    return history, played


def check_everyone_once(paired: Round, count: int) -> None:
    """Assert that every entrant is in exactly one pair, or has the bye."""
    seen = [i for pair in paired.pairs for i in pair] + \
        ([] if paired.bye is None else [paired.bye])
    assert sorted(seen) == list(range(count))
    assert (paired.bye is None) == (count % 2 == 0)


def rematch_free_pairing_exists(entrants: list[int], met: set[frozenset]) -> bool:
    """Return whether ``entrants`` can all be paired without a pair that met (brute force)."""
    if not entrants:
        return True
    top, rest = entrants[0], entrants[1:]
    return any(frozenset((top, other)) not in met
               and rematch_free_pairing_exists([i for i in rest if i != other], met)
               for other in rest)


def test_the_first_round_pairs_the_top_half_with_the_bottom_half() -> None:
    """All on 0 points, in the order given: 0-3, 1-4, 2-5 (the Dutch system's first
    round); an odd field gives the last entrant the bye first."""
    assert pair_round(SwissHistory(6)).pairs == ((0, 3), (1, 4), (2, 5))
    seven = pair_round(SwissHistory(7))
    assert seven.pairs == ((0, 3), (1, 4), (2, 5)) and seven.bye == 6


def test_winners_meet_winners_and_losers_meet_losers() -> None:
    """After a round where the first of each pair won, the next round pairs the winners
    together and the losers together, each group's top half with its bottom half."""
    history = SwissHistory(8)
    first = pair_round(history)
    history.add_round(first, {pair: 2 for pair in first.pairs}, games=2)
    second = pair_round(history)
    winners = {pair[0] for pair in first.pairs}
    for pair in second.pairs:
        assert (pair[0] in winners) == (pair[1] in winners)
    assert {frozenset(pair) for pair in second.pairs} == \
        {frozenset((0, 2)), frozenset((4, 6)), frozenset((1, 3)), frozenset((5, 7))}


@pytest.mark.parametrize("seed", range(40))
def test_no_rematch_while_a_pairing_without_one_exists(seed: int) -> None:
    """Random fields of 2 to 9 entrants, up to count - 1 rounds of random results: every
    round pairs everyone once, and repeats a pairing only when brute force finds no
    pairing of the field without one."""
    rng = random.Random(seed)
    count = rng.randint(2, 9)
    history = SwissHistory(count)
    for _ in range(rng.randint(1, count + 1)):
        paired = pair_round(history)
        check_everyone_once(paired, count)
        met = {pair for pair, times in history.met.items() if times}
        repeats = [pair for pair in paired.pairs if frozenset(pair) in met]
        paired_ones = [i for pair in paired.pairs for i in pair]
        if repeats:
            assert not rematch_free_pairing_exists(sorted(paired_ones), met)
        history.add_round(paired, {pair: rng.choice([0, 1]) for pair in paired.pairs}, 1)


def fewest_rematches(history: SwissHistory) -> int:
    """Return the fewest rematches any pairing of the field can make, by brute force
    over every pairing and, in an odd field, every bye the rules allow (to an entrant
    without one, or to any when all have had one)."""
    entrants = list(range(history.count))

    @cache
    def fewest(left: tuple[int, ...]) -> int:
        """Return the fewest rematches of a pairing of ``left``."""
        if not left:
            return 0
        top, rest = left[0], left[1:]
        return min((history.met[frozenset((top, other))] > 0)
                   + fewest(tuple(i for i in rest if i != other)) for other in rest)

    if history.count % 2 == 0:
        return fewest(tuple(entrants))
    byes = [i for i in entrants if i not in history.byes] or entrants
    return min(fewest(tuple(i for i in entrants if i != bye)) for bye in byes)


def rematches_of(paired: Round, history: SwissHistory) -> int:
    """Return how many of the round's pairs met before."""
    return sum(history.met[frozenset(pair)] > 0 for pair in paired.pairs)


@pytest.mark.parametrize("seed", range(60))
def test_a_round_makes_the_fewest_rematches_any_pairing_can(seed: int) -> None:
    """Random fields of 1 to 10 entrants, up to twice as many rounds as entrants (so
    that rematches become unavoidable), random results of one game: every round pairs
    everyone once, gives the bye to an entrant without one while there is one, and makes
    exactly as many rematches as the fewest that brute force finds, byes included."""
    rng = random.Random(seed)
    count = rng.randint(1, 10)
    history = SwissHistory(count)
    for _ in range(rng.randint(1, 2 * count)):
        paired = pair_round(history)
        check_everyone_once(paired, count)
        assert paired.bye is None or paired.bye not in history.byes \
            or len(history.byes) == count
        assert rematches_of(paired, history) == fewest_rematches(history)
        history.add_round(paired, {pair: rng.choice([0, 0.5, 1]) for pair in paired.pairs}, 1)


@pytest.mark.parametrize(("count", "rounds"), [(32, 31), (48, 30), (64, 30)])
def test_long_tournaments_make_no_rematch_a_pairing_could_avoid(count: int,
                                                                rounds: int) -> None:
    """Fields of 32, 48 and 64 over 30 rounds of random results (where the search of
    earlier versions gave up and made 12 to 24 rematches in a round that needed none):
    each round makes as many rematches as the fewest a maximum matching of the pairs
    that never met allows."""
    rng = random.Random(1)
    history = SwissHistory(count)
    for _ in range(rounds):
        paired = pair_round(history)
        check_everyone_once(paired, count)
        new_pairs = Matching(range(count), lambda a, b: not history.met[frozenset((a, b))])
        assert rematches_of(paired, history) == count // 2 - new_pairs.size
        history.add_round(paired, {pair: rng.choice([0, 0.5, 1]) for pair in paired.pairs}, 1)


def test_the_maximum_matching_agrees_with_brute_force() -> None:
    """Random graphs of up to 11 vertices: the matching is as large as the largest that
    brute force finds, before and after a pair of vertices is taken out, and uses edges
    of the graph only."""
    rng = random.Random(5)

    def largest(vertices: tuple[int, ...], edges: set[frozenset]) -> int:
        """Return the size of a maximum matching by trying every one."""
        if not vertices:
            return 0
        top, rest = vertices[0], vertices[1:]
        return max([largest(rest, edges)] + [
            1 + largest(tuple(v for v in rest if v != other), edges)
            for other in rest if frozenset((top, other)) in edges])

    for _ in range(400):
        count = rng.randint(0, 11)
        edges = {frozenset((a, b)) for a in range(count) for b in range(a + 1, count)
                 if rng.random() < rng.random()}
        matching = Matching(range(count), lambda a, b, edges=edges: frozenset((a, b)) in edges)
        assert matching.size == largest(tuple(range(count)), edges)
        if count >= 2:
            one, other = rng.sample(range(count), 2)
            smaller = matching.without(one, other)
            assert smaller.size == largest(tuple(v for v in range(count)
                                                 if v not in (one, other)), edges)
            matching = smaller
        assert all(frozenset((v, mate)) in edges and matching.mate[mate] == v
                   for v, mate in matching.mate.items() if mate is not None)


def test_one_two_and_three_entrants_play_every_round() -> None:
    """One entrant has a bye each round; two meet each round (rematches are all there
    is); three give the bye to each in turn, then to the lowest ranked."""
    for count in (1, 2, 3):
        history, played = play_rounds(count, 4, games=2, seed=count)
        assert all(len(paired.pairs) == count // 2 for paired in played)
        if count == 3:
            assert sorted(paired.bye for paired in played[:3]) == [0, 1, 2]


def test_each_entrant_has_at_most_one_bye_while_others_have_none() -> None:
    """An odd field of 9 over 9 rounds: nine different entrants get the bye."""
    history, played = play_rounds(9, 9, games=2, seed=3)
    byes = [paired.bye for paired in played]
    assert sorted(byes) == list(range(9))
    assert sum(history.points) == 9 * 4 * 2 + 9 * 2  # every game's points, and each bye's


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    """Ranked last but already given a bye: the bye goes to the next lowest."""
    history = SwissHistory(5, points=[4.0, 3.0, 2.0, 1.0, 0.0], byes={4})
    assert pair_round(history).bye == 3


def test_colours_balance() -> None:
    """With two games a pairing everyone has White as often as Black; with one, the
    entrant that had White less often so far gets it (then the lower number)."""
    history, played = play_rounds(10, 5, games=2, seed=1)
    assert all(history.whites[i] == 5 for i in range(10))
    history = SwissHistory(4, whites=Counter({0: 3, 1: 1, 2: 2, 3: 2}))
    paired = pair_round(history)
    assert paired.pairs == ((2, 0), (1, 3))  # 0-2 and 1-3, White to the fewer Whites


def test_buchholz_sums_the_points_of_the_opponents_met() -> None:
    """Two rounds of four entrants by hand: the sum of each one's opponents' points."""
    history = SwissHistory(4)
    rounds = [Round(((0, 1), (2, 3))), Round(((0, 2), (1, 3)))]
    history.add_round(rounds[0], {(0, 1): 1, (2, 3): 0}, games=1)
    history.add_round(rounds[1], {(0, 2): 1, (1, 3): 0.5}, games=1)
    assert history.points == [2.0, 0.5, 0.0, 1.5]
    assert buchholz(history, rounds) == [0.5, 3.5, 3.5, 0.5]


def test_a_thousand_entrants_are_paired_without_rematches() -> None:
    """A field of 1,001 over 6 rounds: everyone once per round and no pair meets twice."""
    history, played = play_rounds(1001, 6, games=2, seed=2)
    pairs = [frozenset(pair) for paired in played for pair in paired.pairs]
    assert len(pairs) == len(set(pairs)) == 6 * 500


# -- the Swiss format as the tournament runs it ----------------------------------------

def field(count: int) -> list[Entrant]:
    """Return ``count`` AI entrants (named, never played here)."""
    return [Entrant(f"AI {i}", ai=str(i + 1)) for i in range(count)]


def made_up_results(tasks: list[GameTask], stronger: Callable[[str, str], str]
                    ) -> dict[str, GameResult]:
    """Return a finished result for each task: the ``stronger`` of the two names wins."""
    results = {}
    for task in tasks:
        winner = 0 if stronger(task.white.name, task.black.name) == task.white.name else 1
        results[task.game_id] = GameResult(task.game_id, task.white.name, task.black.name,
                                           winner, "made up", None, 10, MoveTimes(),
                                           MoveTimes())
    return results


PLAN = TournamentPlan(Conditions(n=4, depth=1, time_limit=1.0), games=2, opening_plies=0,
                      seed=1)


def run_swiss(count: int, rounds: int) -> tuple[SwissRounds, list[GameTask]]:
    """Play a Swiss tournament of made-up results where the lower number always wins."""
    swiss = make_format(SWISS, field(count), PLAN, rounds)
    assert isinstance(swiss, SwissRounds)
    every = []
    while (tasks := swiss.next_round()) is not None:
        swiss.finish_round(made_up_results(tasks, lambda a, b: min(a, b, key=len_then_text)))
        every += tasks
    return swiss, every


def len_then_text(name: str) -> tuple[int, str]:
    """Order 'AI 2' before 'AI 10'."""
    return len(name), name


def test_a_swiss_tournament_plays_its_rounds_and_ranks_the_field_in_order() -> None:
    """8 entrants of known order, 3 rounds of 2 games a pairing: 24 games, all ids
    different, colours alternating in each pairing; the standings by points then
    Buchholz put the strongest first and the weakest last."""
    swiss, every = run_swiss(8, 3)
    assert len(every) == swiss.total_games == 3 * 4 * 2
    assert len({task.game_id for task in every}) == len(every)
    results = made_up_results(every, lambda a, b: min(a, b, key=len_then_text))
    lines = standings([p.name for p in swiss.players], list(results.values()),
                      swiss.extras())
    assert lines[0].name == "AI 0" and lines[0].points == 6
    assert lines[-1].name == "AI 7" and lines[-1].points == 0
    assert lines[0].buchholz is not None


def test_an_odd_field_scores_the_bye_as_a_won_pairing() -> None:
    """5 entrants, 4 rounds: 4 different byes, each worth the games of a pairing, in
    points but not in games."""
    swiss, every = run_swiss(5, 4)
    extras = swiss.extras()
    assert sorted(extra.bye_points for extra in extras) == [0, 2, 2, 2, 2]
    results = made_up_results(every, lambda a, b: min(a, b, key=len_then_text))
    lines = standings([p.name for p in swiss.players], list(results.values()), extras)
    assert sum(line.points for line in lines) == len(every) + 4 * 2
    assert sum(line.games for line in lines) == 2 * len(every)


def test_a_rematch_plays_new_games() -> None:
    """Two entrants over three rounds meet three times: six different game ids."""
    _, every = run_swiss(2, 3)
    assert len({task.game_id for task in every}) == 6


def test_rounds_belong_to_the_swiss_format() -> None:
    """--rounds with a round robin is an error; a Swiss field gets a default."""
    with pytest.raises(ValueError, match="--rounds goes with --format swiss"):
        make_format(ROUND_ROBIN, field(4), PLAN, 3)
    swiss = make_format(SWISS, field(100), PLAN, None)
    assert isinstance(swiss, SwissRounds) and swiss.rounds == 9


def test_spearman_of_the_benchmark() -> None:
    """The same order gives 1, the reverse -1, one swap of neighbours of 4 gives 0.8."""
    names = ["a", "b", "c", "d"]
    assert swiss_bench.spearman(names, names) == 1
    assert swiss_bench.spearman(names[::-1], names) == -1
    assert swiss_bench.spearman(["b", "a", "c", "d"], names) == pytest.approx(0.8)


# -- rounds stored by earlier versions -------------------------------------------------


class FakeStored:
    """A database that holds the games ``ids`` (``formats.Stored``)."""

    def __init__(self, ids: Collection[str], unused: bool = True) -> None:
        """Hold ``ids``; ``unused``: whether some of them are not used yet."""
        self.ids, self.more = set(ids), unused

    def unused(self) -> bool:
        """Return whether the database holds games not used yet."""
        return self.more

    def present(self, ids: Collection[str]) -> set[str]:
        """Return those of ``ids`` held."""
        return self.ids & set(ids)


def diverging_history() -> SwissHistory:
    """Return the first history of seeded random results (fields of 6 to 14, one game a
    pairing) after which earlier versions paired the next round otherwise."""
    for seed in range(500):
        rng = random.Random(seed)
        count = 6 + seed % 9
        history = SwissHistory(count)
        for _ in range(2 * count):
            paired = pair_round(history)
            if legacy_round(history) != paired:
                return history
            history.add_round(paired, {pair: rng.choice([0, 1]) for pair in paired.pairs}, 1)
    raise AssertionError("no seed gave a round paired otherwise")


def test_a_round_stored_by_an_earlier_version_stays_as_it_was_played() -> None:
    """A round that earlier versions paired otherwise: handed out as they paired it when
    the database holds all of its games; as paired now when it holds only some of them,
    or every game of this pairing too, or nothing it has not used."""
    history = diverging_history()
    swiss = SwissRounds(field(history.count), PLAN, rounds=10**6)
    swiss.history = history
    now, before = pair_round(history), legacy_round(history)
    assert not now.straight
    ids = {paired: [task.game_id for task in swiss.tasks_of(paired)]
           for paired in (now, before)}
    for stored, expected in ((FakeStored(ids[before]), before),
                             (FakeStored([]), now),
                             (FakeStored(ids[before][:-1]), now),
                             (FakeStored(ids[before] + ids[now]), now),
                             (FakeStored(ids[before], unused=False), now),
                             (None, now)):
        tasks = swiss.next_round(stored)
        assert tasks is not None
        assert [task.game_id for task in tasks] == ids[expected]
        assert swiss.current is not None and swiss.current[0] == expected


def test_a_straight_round_is_what_earlier_versions_paired() -> None:
    """Random fields and results: whenever every entrant took its first choice without a
    rematch (``straight``), the search of earlier versions paired the round the same, so
    it need not be looked for."""
    rng = random.Random(11)
    for _ in range(150):
        count = rng.randint(2, 16)
        history = SwissHistory(count)
        for _ in range(rng.randint(1, count)):
            paired = pair_round(history)
            if paired.straight:
                assert legacy_round(history) == paired
            history.add_round(paired, {pair: rng.choice([0, 0.5, 1]) for pair in paired.pairs},
                              1)
