"""The Swiss system: its pairing rules and the format the tournament runs, without games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from oska_gui.tournament.formats import ROUND_ROBIN, SWISS, SwissRounds, make_format
from oska_gui.tournament.games import Conditions, Entrant, GameTask
from oska_gui.tournament.result import GameResult, MoveTimes
from oska_gui.tournament.schedule import TournamentPlan
from oska_gui.tournament.standings import standings
from oska_gui.tournament.swiss import Round, SwissHistory, buchholz, pair_round
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
