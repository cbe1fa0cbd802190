"""The play layer's concepts are each defined once, and every player has the one face.

A player, a level, the table of levels, the game loop, the bot loader and the game
record each have one definition in the package; no two classes share a name; every
player the package makes answers the ``Player`` protocol's questions.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest
from tie_helpers import fixed_depth_choices

from oska_gui.core.types import BLACK, WHITE
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.games.oska import oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import LEVELS, LevelKey, parse_ai
from oska_gui.play.players import DepthPlayer, ForcedMoves, RandomMoves, Unloadable
from oska_gui.play.runner import Runner
from oska_gui.play.search_player import ai_player, make_player

PACKAGE = Path(__file__).resolve().parent.parent / "oska_gui"


def definitions() -> Counter[str]:
    """Return how many times each top-level class and constant name is defined."""
    names: Counter[str] = Counter()
    for path in PACKAGE.rglob("*.py"):
        if "node_modules" in path.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                names[node.name] += 1
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


@pytest.mark.parametrize("name", ["Player", "Level", "LevelKey", "LEVELS", "Runner", "Record",
                                  "Turn", "Settings"])
def test_each_concept_has_one_definition(name: str) -> None:
    assert definitions()[name] == 1


def test_no_two_classes_share_a_name() -> None:
    classes: Counter[str] = Counter()
    for path in PACKAGE.rglob("*.py"):
        if "node_modules" not in path.parts:
            classes.update(node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                           if isinstance(node, ast.ClassDef))
    assert [name for name, count in classes.items() if count > 1] == []


def test_every_level_key_but_the_bot_side_names_a_level() -> None:
    assert [level.key for level in LEVELS] == [key for key in LevelKey
                                               if key != LevelKey.EXTERNAL]
    for level in LEVELS:  # the commands' --ai reads the same table
        assert parse_ai(level.key).level == level


def test_every_kind_of_player_plays_a_game_through_the_runner() -> None:
    """Each player the package makes answers name, status, think, stop and close, and
    plays a whole game against another kind."""
    rules = oska_rules(4)
    game = make_game("oska", 4)
    depth = DepthPlayer("depth 2", oska_evaluator(rules, "simple"), 2, rules)
    players = [depth, make_player(game, "easy", "strong"), ai_player(game, parse_ai("0.01s")),
               RandomMoves(depth, rules, random.Random(1), 0.5), ForcedMoves(depth, rules)]
    for player in players:
        runner = Runner(rules, (player, depth), slice_seconds=0.01)
        assert runner.run() is not None and runner.record().white == player.name
        assert isinstance(player.status, str)
        player.stop()
        player.close()
    lost = Runner(rules, (depth, Unloadable("broken.py", "SyntaxError")))
    assert lost.run().winner == WHITE and lost.forfeit is not None
    assert (lost.forfeit.side, lost.forfeit.reason) == (BLACK, "load")


def test_a_depth_level_plays_the_move_a_fixed_depth_search_plays() -> None:
    """Where equally scored moves tie at the root, a depth level (a sliced ``Thinker``)
    chooses as ``analyse`` does, not as a search deepening a ply at a time would."""
    rules = oska_rules(5)
    choices = fixed_depth_choices(rules, oska_evaluator(rules, "strong"), 3, 60)
    for pos, chosen, _ in choices:
        player, turn = ai_player(make_game("oska", 5), parse_ai("3")), None
        while turn is None:
            turn = player.think(pos, 1.0)
        assert turn.child == chosen
    assert any(differs for _, _, differs in choices), \
        "no tie went another way: the test would not see the difference"
