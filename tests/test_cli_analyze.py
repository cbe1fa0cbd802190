"""``oska analyze`` run as a real process, checked against the search and the solver."""

from __future__ import annotations

import json
import random

import pytest
from cli_helpers import run_cli
from tie_helpers import fixed_depth_choices

from oska_gui.cli.analyze import exact_ranking
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.search import analyse, best_child, is_game_end
from oska_gui.engine.solver import solve, solver_for
from oska_gui.games.oska import BLACK, WHITE, oska_rules


def field(stdout: str, name: str) -> str:
    """Return the text after 'name:' on the first line starting with it."""
    line = next(line for line in stdout.splitlines() if line.startswith(name + ":"))
    return line[len(name) + 1:].strip()


def test_best_move_score_and_line_are_the_searchs() -> None:
    """On a mid-game n = 5 position the printed move, score and line are analyse()'s."""
    rules = oska_rules(5)
    rng = random.Random(3)
    pos = rules.start()
    for _ in range(8):
        pos = rng.choice(rules.children(pos))
    assert rules.outcome(pos) is None
    result = run_cli("analyze", ",".join(rules.to_rows(pos)), "wb"[pos.turn], "--depth", 4,
                     "--solve-limit", 0)
    assert result.returncode == 0, result.stderr
    progress = analyse(rules, oska_evaluator(rules, "strong"), pos, 4)
    line = [pos, *progress.line]
    moves = [rules.move_text(rules.move_between(a, b))
             for a, b in zip(line, line[1:], strict=False)]
    assert field(result.stdout, "Best move") == moves[0]
    assert field(result.stdout, "Line").split() == moves
    assert field(result.stdout, "After it") == str(rules.to_rows(progress.best))
    if not is_game_end(progress.score):
        assert field(result.stdout, "Score").startswith(f"{progress.score:+d} for ")
    assert "Exact" not in result.stdout  # --solve-limit 0: no solving


def test_a_fixed_depth_chooses_as_analyse_where_root_moves_tie() -> None:
    """``--depth`` deepens as ``analyse`` (``oskaplayer``) does, so between tied root
    moves it prints the same choice, not the one a ply-at-a-time search would make."""
    rules = oska_rules(5)
    choices = fixed_depth_choices(rules, oska_evaluator(rules, "strong"), 3, 60)
    pos, chosen = next((pos, chosen) for pos, chosen, differs in choices if differs)
    result = run_cli("analyze", ",".join(rules.to_rows(pos)), "wb"[pos.turn], "--depth", 3,
                     "--solve-limit", 0)
    assert result.returncode == 0, result.stderr
    assert field(result.stdout, "After it") == str(rules.to_rows(chosen))


def test_a_winning_capture_and_the_exact_values_of_every_move() -> None:
    """White's capture of the last black piece wins at once; the solver ranks both moves."""
    board = ["-w--", "-b-", "--", "---", "----"]
    result = run_cli("analyze", json.dumps(board), "white")
    assert result.returncode == 0, result.stderr
    assert field(result.stdout, "Best move") == "a2xc2 (exact: the fastest win)"
    assert field(result.stdout, "Score").startswith("White wins in 1 plies")
    assert field(result.stdout, "Exact").startswith("White wins in 1 plies with perfect play")
    rules = oska_rules(4)
    pos = rules.from_rows(board, WHITE)
    for child in rules.children(pos):
        value = solve(rules, child)  # for Black, who moves next
        verdict = {1: "loses", 0: "draws", -1: "wins"}[value.result]
        move = rules.move_text(rules.move_between(pos, child))
        row = next(line for line in result.stdout.splitlines() if line.startswith(move + " "))
        assert row.split(None, 1)[1] == f"White {verdict} in {value.plies + 1} plies"


def test_a_side_without_moves_passes() -> None:
    """Black, blocked, must pass: the best move is 'pass' and the board stays the same."""
    board = ["-ww-", "-b-", "--", "---", "----"]
    rules = oska_rules(4)
    assert not rules.has_move(rules.from_rows(board, BLACK))
    result = run_cli("analyze", "--depth", 3, "--", ",".join(board), "b")
    assert result.returncode == 0, result.stderr
    assert "Black has no legal move and must pass." in result.stdout
    assert field(result.stdout, "Best move").split()[0] == "pass"
    assert field(result.stdout, "After it") == str(board)


def test_finished_games_time_budgets_and_unsolvable_positions() -> None:
    """A finished game is said to be over; --time searches; a big position is not solved."""
    captured = run_cli("analyze", "ww--,---,--,---,----", "b")
    assert captured.returncode == 0, captured.stderr
    assert "The game is over: White wins: all black pieces captured" in captured.stdout
    lists = [["e", "e", "e", "b"], ["e", "e", "e"], ["e", "e"], ["e", "e", "e"],
             ["w", "e", "e", "e"]]
    home = run_cli("analyze", json.dumps(lists), "w")
    assert home.returncode == 0, home.stderr
    assert "The game is over: Draw: both sides home" in home.stdout
    assert "Best move" not in home.stdout
    timed = run_cli("analyze", "wwwww,----,---,--,---,----,bbbbb", "w", "--time", 0.3,
                    "--solve-limit", 2000)
    assert timed.returncode == 0, timed.stderr
    assert int(field(timed.stdout, "Search").split()[1].rstrip(",")) >= 1
    assert "not solved, more than 2,000 positions are reachable" in timed.stdout


def test_bad_input_gets_a_clear_message_and_exit_code_2() -> None:
    """Wrong rows, players, JSON or missing arguments: exit 2, a message, no traceback."""
    cases = ((["wwww,---,--,---,bbb", "w"], "row 4 has 3 cells"),
             (["wwww,---,--,---,bbbb", "x"], "the player must be 'w' or 'b'"),
             (["[\"wwww\", ", "w"], "not valid JSON"),
             (["wwwx,---,--,---,bbbb", "w"], "unknown character 'x'"),
             (["wwww,---,--,---,bbbb"], "the following arguments are required: PLAYER"))
    for args, words in cases:
        result = run_cli("analyze", *args)
        assert result.returncode == 2, args
        assert words in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_printed_best_move_never_loses_the_value_where_it_is_known() -> None:
    """On 40 seeded n = 4 positions where the choice matters (some move loses value),
    the Best move printed is one that keeps the value (the shipped solved file answers;
    the solver checks it), and the search's own choice is labelled as the search's."""
    rules = oska_rules(4)
    rng = random.Random(11)
    solver = solver_for(rules)
    checked = 0
    while checked < 40:
        pos = rules.start()
        for _ in range(rng.randrange(6, 16)):  # past 6 plies the solver's trees are small
            if rules.outcome(pos) is not None:
                break
            pos = rng.choice(rules.children(pos))
        if rules.outcome(pos) is not None or not rules.has_move(pos):
            continue
        ranked = solver.ranked_children(pos)
        if len({value.result for _, value in ranked}) == 1:
            continue  # every move keeps the value: the choice does not matter
        checked += 1
        exact = exact_ranking(rules, pos, 0)
        assert exact is not None and "solved file" in exact.source
        assert exact.ranked[0][1] == ranked[0][1], rules.to_rows(pos)
    board = ["w--w", "-w-", "--", "b-b", "b--b"]
    result = run_cli("analyze", ",".join(board), "w", "--depth", 2)
    best = field(result.stdout, "Best move").split()[0]
    kid = next(kid for kid in rules.children(rules.from_rows(board, WHITE))
               if rules.move_text(rules.move_between(rules.from_rows(board, WHITE), kid)) == best)
    assert solver.solve(kid).result == -1  # the opponent, to move, loses: White keeps the win
    assert field(result.stdout, "Search's Best move")


def test_a_board_that_starts_with_an_empty_cell_is_not_taken_for_an_option() -> None:
    """Rows starting with '-' are a board, not an option: no '--' is needed before it,
    and the board read is the one given (an option such as --depth still works)."""
    board = "---w,w--,--,---,w-bb"
    result = run_cli("analyze", board, "b", "--depth", 2, "--solve-limit", 0)
    assert result.returncode == 0, result.stderr
    rules = oska_rules(4)
    pos = rules.from_rows(board.split(","), BLACK)
    chosen = best_child(rules, oska_evaluator(rules, "strong"), pos, 2)
    assert field(result.stdout, "After it") == str(rules.to_rows(chosen))
