"""``oska check`` run as a real process on correct and buggy movegen/oskaplayer files."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from cli_helpers import run_cli, table_rows, write_bot

from oska_gui.cli.check_findings import lists_convention, movegen_convention, player_convention
from oska_gui.games.oska import oska_rules

FAST = ("--games", 3, "--player-positions", 4)


def movegen_table(stdout: str) -> dict[str, dict[str, str]]:
    """Return the printed movegen table as {n: row}."""
    return {row["n"]: row for row in table_rows(stdout, "n  boards")}


def player_table(stdout: str) -> dict[str, dict[str, str]]:
    """Return the printed oskaplayer table as {n: row}."""
    return {row["n"]: row for row in table_rows(stdout, "n  positions")}


def test_a_correct_file_agrees_everywhere_on_n_4_5_6(tmp_path: Path) -> None:
    """This project's own functions, called through a file, agree: exit code 0."""
    result = run_cli("check", write_bot(tmp_path, "good"), *FAST)
    assert result.returncode == 0, result.stdout + result.stderr
    movegen, player = movegen_table(result.stdout), player_table(result.stdout)
    assert sorted(movegen) == sorted(player) == ["4", "5", "6"]
    for row in movegen.values():
        assert row["agree"] == row["boards"] and int(row["boards"]) > 100
    for row in player.values():
        assert row["legal"] == row["positions"] and int(row["no move"]) >= 2
    assert "agree with this project's rules" in result.stdout


def test_an_independent_row_column_movegen_agrees(tmp_path: Path) -> None:
    """A correct movegen written differently (rows and columns) agrees: no false alarms."""
    result = run_cli("check", write_bot(tmp_path, "student"), *FAST)
    assert result.returncode == 0, result.stdout
    assert "Disagreement" not in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "label", "kind"), [
    ("wrap", "piece at a row's edge", "extra"),
    ("middle", "jump across the middle", "missing, extra"),
    ("duplicates", "piece at a row's edge", "duplicate"),
])
def test_movegen_bugs_are_found_and_shown(tmp_path: Path, bot: str, label: str,
                                          kind: str) -> None:
    """Each movegen bug shows up in the table and as a disagreement with pictures."""
    result = run_cli("check", write_bot(tmp_path, bot), *FAST, "--sizes", "4,5", "--show", 8)
    assert result.returncode == 1, result.stdout + result.stderr
    column = kind.split(", ")[-1]
    assert all(int(row[column]) > 0 for row in movegen_table(result.stdout).values())
    header = next(line for line in result.stdout.splitlines()
                  if line.startswith("Disagreement") and f"({label})" in line)
    assert header.endswith(f": {kind}")
    assert "given" in result.stdout and ("yours only" in result.stdout
                                         or "listed twice" in result.stdout)


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "kind", "words"), [
    ("raises", "exception", "ValueError: boom in helper"),
    ("malformed", "malformed", "not a board"),
    ("illegal", "illegal", "no legal move does this"),
    ("no_pass", "illegal", "has no legal move, so the board must come back unchanged"),
    ("exits", "crash", "the bot called sys.exit(3)"),
    ("hangs", "timeout", "no answer within 1 s"),
])
def test_oskaplayer_failures_are_caught_with_their_reason(tmp_path: Path, bot: str,
                                                          kind: str, words: str) -> None:
    """A bad oskaplayer is reported per kind; hangs and crashes do not stop the check."""
    result = run_cli("check", write_bot(tmp_path, bot), *FAST, "--sizes", "4",
                     "--time-limit", 1)
    assert result.returncode == 1, result.stdout + result.stderr
    row = player_table(result.stdout)["4"]
    assert int(row[kind]) >= 1
    assert words in result.stdout
    if kind in ("timeout", "crash"):  # gives up after three, and says so
        assert row[kind] == "3" and "gave up on oskaplayer after 3" in result.stdout


def test_a_file_that_prints_junk_is_still_checked_correctly(tmp_path: Path) -> None:
    """Output of the checked file cannot corrupt the protocol or the report."""
    result = run_cli("check", write_bot(tmp_path, "junk"), *FAST, "--sizes", "4")
    assert result.returncode == 0, result.stdout
    assert "junk while loading" not in result.stdout + result.stderr


@pytest.mark.parametrize(("bot", "words"), [
    ("broken", "SyntaxError"),
    ("neither", "defines neither 'movegen' nor 'oskaplayer'"),
])
def test_files_that_cannot_be_checked_exit_with_2(tmp_path: Path, bot: str,
                                                  words: str) -> None:
    """A file that does not load, or has neither function, is a usage error."""
    result = run_cli("check", write_bot(tmp_path, bot))
    assert result.returncode == 2
    assert words in result.stderr and "Traceback" not in result.stderr


# A bot folder whose modules import a helper beside them: only the folder form loads them.
FOLDER_MODULES = {
    "helper.py": """
        from oska_gui import movegen as ours_movegen
        from oska_gui import oskaplayer as ours_player

        def generate(board, player):
            return ours_movegen(board, player)

        def play_at_depth_1(board, player):
            return ours_player(board, player, 1)
    """,
    "mine.py": """
        from helper import generate, play_at_depth_1

        def movegen(board, player):
            return generate(board, player)

        def oskaplayer(board, player, depth):
            return play_at_depth_1(board, player)
    """,
    "named.py": """
        from helper import generate, play_at_depth_1

        def move_gen(board, player):
            return generate(board, player)

        def play(board, player, depth):
            return play_at_depth_1(board, player)
    """,
}


def bot_folder(tmp_path: Path) -> Path:
    """Write ``FOLDER_MODULES`` into ``tmp_path/team``; return that folder."""
    folder = tmp_path / "team"
    folder.mkdir()
    for name, source in FOLDER_MODULES.items():
        (folder / name).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("module", "options", "functions"), [
    ("mine", (), "movegen, oskaplayer"),  # no function named: the standard names
    ("mine.oskaplayer", (), "movegen, oskaplayer"),  # module.function, as for any bot
    ("named", ("--movegen", "move_gen", "--oskaplayer", "play"), "move_gen, play"),
])
def test_a_module_of_a_folder_is_checked_by_its_function_names(
        tmp_path: Path, module: str, options: tuple[str, ...], functions: str) -> None:
    """FOLDER:module checks movegen and oskaplayer of that module (or the functions the
    options name), its imports of the folder working."""
    folder = bot_folder(tmp_path)
    result = run_cli("check", f"{folder}:{module}", *options, *FAST, "--sizes", "4")
    assert result.returncode == 0, result.stdout + result.stderr
    module_path = folder / module.split(".")[0]
    assert f"Checking {functions} in {module_path} against" in result.stdout
    movegen, player = movegen_table(result.stdout)["4"], player_table(result.stdout)["4"]
    assert movegen["agree"] == movegen["boards"] and int(movegen["boards"]) > 10
    assert player["legal"] == player["positions"] and int(player["positions"]) > 2


@pytest.mark.parametrize(("module", "options", "words"), [
    ("helper", (), "team/helper defines neither 'movegen' nor 'oskaplayer' (it defines: "
                   "generate, ours_movegen, ours_player, play_at_depth_1)"),
    ("mine", ("--movegen", "move_gen"), "team/mine has no function 'move_gen' (named by "
                                        "--movegen; it defines: generate, movegen,"),
    ("named", ("--oskaplayer", "play", "--movegen", "movegen"),
     "team/named has no function 'movegen' (named by --movegen;"),
    ("nowhere", (), "the bot folder '{folder}' has no module 'nowhere'"),
])
def test_a_module_lacking_a_function_is_one_line_and_exit_code_2(
        tmp_path: Path, module: str, options: tuple[str, ...], words: str) -> None:
    """A module without the standard functions, without a function an option names, or
    no such module: one line on stderr, exit code 2, no traceback, nothing checked."""
    folder = bot_folder(tmp_path)
    result = run_cli("check", f"{folder}:{module}", *options, *FAST, "--sizes", "4")
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert words.format(folder=folder) in result.stderr
    assert "n  boards" not in result.stdout


def kinds_table(stdout: str) -> dict[str, dict[str, str]]:
    """Return the printed table of the kinds of disagreement as {kind: row}."""
    return {row["kind"]: row for row in table_rows(stdout, "function")}


def test_a_pass_convention_is_one_named_kind_in_text_and_json(tmp_path: Path) -> None:
    """A movegen returning [board] and an oskaplayer returning None on a pass: two kinds.

    Every disagreement is counted under its convention, each is named in one line,
    and the JSON result holds the same counts as the tables.
    """
    result_file = tmp_path / "result.json"
    result = run_cli("check", write_bot(tmp_path, "pass_board"), *FAST,
                     "--json", result_file)
    assert result.returncode == 1, result.stdout + result.stderr
    kinds = kinds_table(result.stdout)
    assert sorted(kinds) == ["nothing when there is no move",
                             "the board itself when there is no move"]
    extra = sum(int(row["extra"]) for row in movegen_table(result.stdout).values())
    assert int(kinds["the board itself when there is no move"]["calls"]) == extra > 0
    assert kinds["the board itself when there is no move"]["n"] == "4, 5, 6"
    text = " ".join(result.stdout.split())  # the convention lines are wrapped
    assert "your movegen returns the board itself when there is no move" in text
    assert "all of them known convention differences" in text
    document = json.loads(result_file.read_text(encoding="utf-8"))
    assert (document["format"], document["version"], document["exit_code"]) == \
        ("oska-check", 1, 1)
    by_kind = {kind["kind"]: kind for kind in document["kinds"]}
    assert by_kind["pass-as-board"]["count"] == extra
    assert by_kind["nothing-on-pass"]["function"] == "oskaplayer"
    assert document["disagreements"] == sum(kind["count"] for kind in document["kinds"])
    example = by_kind["pass-as-board"]["examples"][0]
    assert example["yours_only"] == [example["board"]] and example["ours_only"] == []


def test_compulsory_captures_are_named_and_bugs_kept_apart(tmp_path: Path) -> None:
    """Only jumps when one exists is a named convention; a second bug is its own kind."""
    result = run_cli("check", write_bot(tmp_path, "captures_only"), *FAST, "--sizes", "5")
    assert result.returncode == 1, result.stdout + result.stderr
    assert list(kinds_table(result.stdout)) == ["only the captures when one is possible"]
    assert "capturing is never compulsory" in " ".join(result.stdout.split())
    assert "Disagreement 1:" in result.stdout and "ours only" in result.stdout


def test_a_bug_is_not_mistaken_for_a_convention(tmp_path: Path) -> None:
    """The wrap-around bug is reported by its problems, with no convention line."""
    result = run_cli("check", write_bot(tmp_path, "wrap"), *FAST, "--sizes", "4")
    assert result.returncode == 1
    assert list(kinds_table(result.stdout)) == ["extra"]
    assert "Known convention difference" not in result.stdout


def test_an_unwritable_json_path_stops_before_checking(tmp_path: Path) -> None:
    """--json into a missing folder is a usage error found before any call is made."""
    result = run_cli("check", write_bot(tmp_path, "good"), "--json",
                     tmp_path / "missing" / "r.json")
    assert result.returncode == 2
    assert "--json" in result.stderr and "cannot write there" in result.stderr
    assert "Checking" not in result.stdout


@pytest.mark.parametrize(("board", "player", "answer", "expected"), [
    # White cannot move: its piece is blocked
    (["-w--", "bb-", "-b", "---", "----"], "w", [["-w--", "bb-", "-b", "---", "----"]],
     "pass-as-board"),
    # the game is over (Black all home on row 0) but White still has moves
    (["b---", "---", "w-", "---", "----"], "w", [], "nothing-after-end"),
    (["w---", "b--", "--", "---", "----"], "w", [], ""),  # a real missing move
])
def test_movegen_conventions_are_recognised_exactly(board: list[str], player: str,
                                                    answer: list[list[str]],
                                                    expected: str) -> None:
    """Each convention is matched on its own situation and nowhere else."""
    rules = oska_rules(len(board[0]))
    pos = rules.from_rows(board, "wb".index(player))
    ours = {tuple(rules.to_rows(kid)) for kid in rules.real_children(pos)}
    theirs = [tuple(rows) for rows in answer]
    assert movegen_convention(rules, pos, tuple(board), player, theirs, ours) == expected


def test_captures_only_is_recognised_only_when_steps_were_left_out() -> None:
    """Only jumps where steps exist too is the convention; all moves, or fewer, is not."""
    board = ["-w--", "-b-", "--", "---", "----"]  # a step to b1 and a jump over b2
    rules = oska_rules(4)
    pos = rules.from_rows(board, 0)
    ours = {tuple(rules.to_rows(kid)) for kid in rules.real_children(pos)}
    jumps = [rows for rows in ours if "".join(rows).count("b") == 0]
    assert len(jumps) == 1 and len(ours) > 1
    assert movegen_convention(rules, pos, tuple(board), "w", jumps, ours) == "captures-only"
    assert movegen_convention(rules, pos, tuple(board), "w", sorted(ours), ours) == ""


def test_lists_and_nothing_conventions_of_answers() -> None:
    """Boards as lists of characters, and None or [] on a pass, are named; others not."""
    board = ["wwww", "---", "--", "---", "bbbb"]
    as_lists = [list(row) for row in board]
    assert lists_convention([as_lists], 4, "movegen") == "rows-as-lists"
    assert lists_convention([board], 4, "movegen") == ""
    assert lists_convention([as_lists], 5, "movegen") == ""
    assert player_convention(as_lists, 4, has_move=True) == "player-rows-as-lists"
    assert player_convention(None, 4, has_move=False) == "nothing-on-pass"
    assert player_convention([], 4, has_move=False) == "nothing-on-pass"
    assert player_convention(None, 4, has_move=True) == ""
