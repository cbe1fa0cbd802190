"""Hints never hang a piece without proof, and the root filter they use is faithful."""

from __future__ import annotations

import random

import pytest

from oska_gui.engine.search import analyse
from oska_gui.play.game import make_game
from oska_gui.play.selfplay import random_opening
from oska_gui.session.hints import VERIFY_PLIES, HintPlayer, RootChoices, hangs_piece


def finish(player: HintPlayer, position) -> object:  # noqa: ANN001
    """Run ``player`` on ``position`` until it answers; return the child it suggests."""
    player.start(position)
    while (child := player.advance(0.05)) is None:
        pass
    return child


@pytest.mark.slow
def test_a_hint_hangs_a_piece_only_when_something_proves_it_best() -> None:
    """On midgame positions the hint is safe, or exact, or forced, or confirmed deeper."""
    rng = random.Random(5)
    checked = 0
    for n in (4, 5, 6):
        game = make_game("oska", n)
        for _ in range(6):
            line = random_opening(game.rules, rng.randint(2, 3 * n), rng)
            pos = line[-1]
            if not game.legal_moves(pos):
                continue
            hint = HintPlayer(game)
            child = finish(hint, pos)
            assert child in game.children(pos)
            checked += 1
            if not hangs_piece(game, child) or hint._finder.solution is not None:
                continue
            if all(hangs_piece(game, kid) for kid in game.children(pos)):
                continue
            progress = hint._finder.last_progress
            deeper = analyse(game.rules, hint._finder.evaluate, pos,
                             progress.depth + VERIFY_PLIES)
            assert deeper.best == child or progress.score > 0
    assert checked >= 12


def test_hanging_means_the_opponent_can_capture_at_once() -> None:
    """A step next to an enemy piece with a free cell behind it hangs; a step away does not."""
    game = make_game("oska", 4)
    rules = game.rules
    pos = rules.from_rows(["-w--", "---", "-b", "---", "----"], 0)
    kids = {rules.move_text(rules.move_between(pos, kid)): kid for kid in rules.children(pos)}
    assert hangs_piece(game, kids["a2-b2"])  # c2 jumps it into the cell it left
    assert not hangs_piece(game, kids["a2-b1"])


def test_root_choices_offer_only_the_allowed_moves_at_the_root() -> None:
    """The search of a filtered game picks among the allowed children only."""
    game = make_game("oska", 5)
    rules = game.rules
    root = rules.start()
    kids = rules.children(root)
    allowed = kids[-2:]
    filtered = RootChoices(rules, root, allowed)
    assert filtered.children(root) == allowed
    assert filtered.children(kids[0]) == rules.children(kids[0])
    best = analyse(filtered, game.evaluator("strong"), root, 3).best
    assert best in allowed


def test_a_hint_from_the_solver_says_the_exact_result() -> None:
    """On n = 4 the hint is solved exactly, and the match words its result."""
    game = make_game("oska", 4)
    rules = game.rules
    pos = rules.from_rows(["----", "-w-", "--", "b--", "----"], 0)
    hint = HintPlayer(game)
    child = finish(hint, pos)
    assert hint._finder.solution is not None
    assert hint.proven == f"with perfect play you win in {hint._finder.solution.plies} plies"
    assert child in rules.children(pos)
