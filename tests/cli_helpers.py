"""Shared helpers of the command-line tests: running ``python -m oska_gui`` and test bots.

The bots are small Python files written into a test's tmp_path. Each misbehaves in
one way (or plays correctly while printing junk), so the tests can check that the
match and check commands catch it with the right reason and carry on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CLI_TIMEOUT = 120  # seconds; far above any run here, only there to stop a runaway test

# A move generator written the way many people do: rows and columns, shrinking rows
# above the middle and growing rows below it. WRAP drops the "column >= 0" check (a
# negative index then wraps round to the row's end); BAD_MIDDLE computes a jump's
# landing column as a straight line in column numbers, wrong across the middle row.
STUDENT_MOVEGEN = """
WRAP = {wrap}
BAD_MIDDLE = {bad_middle}


def row_lengths(n):
    return list(range(n, 1, -1)) + list(range(3, n + 1))


def next_columns(lengths, row, next_row, column):
    if lengths[next_row] < lengths[row]:
        candidates = [column - 1, column]
    else:
        candidates = [column, column + 1]
    low = -len(lengths) if WRAP else 0
    return [c if low <= c < lengths[next_row] else None for c in candidates]


def changed(board, changes):
    rows = [list(row) for row in board]
    for (r, c), ch in changes.items():
        rows[r][c] = ch
    return ["".join(row) for row in rows]


def movegen(board, player):
    lengths = row_lengths((len(board) + 3) // 2)
    forward = 1 if player == "w" else -1
    enemy = "b" if player == "w" else "w"
    out = []
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            r1 = r + forward
            if ch != player or not 0 <= r1 < len(board):
                continue
            for side, c1 in enumerate(next_columns(lengths, r, r1, c)):
                if c1 is None:
                    continue
                if board[r1][c1] == "-":
                    out.append(changed(board, {{(r, c): "-", (r1, c1): player}}))
                    continue
                r2 = r1 + forward
                if board[r1][c1] != enemy or not 0 <= r2 < len(board):
                    continue
                if BAD_MIDDLE:
                    c2 = c1 + (c1 - c)
                    c2 = c2 if 0 <= c2 < lengths[r2] else None
                else:
                    c2 = next_columns(lengths, r1, r2, c1)[side]
                if c2 is not None and board[r2][c2] == "-":
                    out.append(changed(board, {{(r, c): "-", (r1, c1): "-", (r2, c2): player}}))
    return out
"""

BOTS = {
    # plays correctly: this project's functions, the player at depth 1
    "good": """
        from oska_gui import movegen
        from oska_gui import oskaplayer as ours

        def oskaplayer(board, player, depth):
            return ours(board, player, 1)
    """,
    # plays correctly but prints junk everywhere, also while loading
    "junk": """
        import os
        import sys
        from oska_gui import movegen
        from oska_gui import oskaplayer as ours

        print("junk while loading")

        def oskaplayer(board, player, depth):
            print("junk", board)
            print('{"id": 1, "status": "ok", "value": null}')
            sys.__stdout__.write("more junk\\n")
            sys.__stdout__.flush()
            os.write(1, b"raw junk\\n")
            print("junk on stderr", file=sys.stderr)
            return ours(board, player, 1)
    """,
    # a legal-looking board that no move produces: a piece vanishes
    "illegal": """
        def oskaplayer(board, player, depth):
            rows = list(board)
            row = next(i for i, r in enumerate(rows) if player in r)
            rows[row] = rows[row].replace(player, "-", 1)
            return rows
    """,
    # not a board at all
    "malformed": """
        def oskaplayer(board, player, depth):
            return "".join(board)
    """,
    "raises": """
        def oskaplayer(board, player, depth):
            return helper(board)

        def helper(board):
            raise ValueError("boom in helper")
    """,
    "hangs": """
        def oskaplayer(board, player, depth):
            while True:
                pass
    """,
    "exits": """
        import sys

        def oskaplayer(board, player, depth):
            sys.exit(3)
    """,
    # dies hard, without Python noticing
    "killed": """
        import os

        def oskaplayer(board, player, depth):
            os._exit(9)
    """,
    # moves even when it has no legal move (the board must come back unchanged)
    "no_pass": """
        from oska_gui import movegen

        def oskaplayer(board, player, depth):
            mine = movegen(board, player)
            if mine:
                return mine[0]
            other = movegen(board, "b" if player == "w" else "w")
            return other[0] if other else board
    """,
    # lists every board twice
    "duplicates": """
        from oska_gui import movegen as ours

        def movegen(board, player):
            boards = ours(board, player)
            return boards + boards[:1]
    """,
    # known convention differences: the board itself as movegen's pass, None as oskaplayer's
    "pass_board": """
        from oska_gui import movegen as ours
        from oska_gui import oskaplayer as theirs

        def movegen(board, player):
            return ours(board, player) or [list(board)]

        def oskaplayer(board, player, depth):
            return theirs(board, player, 1) if ours(board, player) else None
    """,
    # captures made compulsory: only the jumps when there is one
    "captures_only": """
        from oska_gui import movegen as ours

        def movegen(board, player):
            boards = ours(board, player)
            other = "b" if player == "w" else "w"
            before = "".join(board).count(other)
            jumps = [b for b in boards if "".join(b).count(other) < before]
            return jumps or boards
    """,
    "broken": """
        def oskaplayer(board, player, depth)
            return board
    """,
    "neither": """
        def play(board):
            return board
    """,
    "student": STUDENT_MOVEGEN.format(wrap=False, bad_middle=False),
    "wrap": STUDENT_MOVEGEN.format(wrap=True, bad_middle=False),
    "middle": STUDENT_MOVEGEN.format(wrap=False, bad_middle=True),
}


def write_bot(folder: Path, name: str) -> Path:
    """Write the bot called ``name`` into ``folder`` as ``name.py``; return its path."""
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(BOTS[name]).lstrip(), encoding="utf-8")
    return path


def cli_command(*args: object) -> tuple[list[str], dict[str, str]]:
    """Return the argv and environment that run ``python -m oska_gui ARGS``.

    The repository is put on PYTHONPATH so the package imports however pytest was started.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return [sys.executable, "-m", "oska_gui", *map(str, args)], env


def run_cli(*args: object, cwd: Path | None = None,
            preexec_fn: Callable[[], None] | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m oska_gui ARGS`` as a real process; return its completed process.

    stdout and stderr are captured as text; ``preexec_fn`` runs in the child before the
    command (e.g. to set a resource limit).
    """
    argv, env = cli_command(*args)
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=CLI_TIMEOUT, check=False, preexec_fn=preexec_fn)


def table_rows(text: str, first_header: str) -> list[dict[str, str]]:
    """Return the rows of the printed table whose header line starts with ``first_header``.

    Columns are separated by two or more spaces; each row becomes {header: value}.
    """
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split() and
                 line.split()[0] == first_header.split()[0] and first_header in line)
    rule = lines[start + 1]
    spans = []
    column = 0
    for part in rule.split("  "):
        if part:
            spans.append((column, column + len(part)))
        column += len(part) + 2
    header = [lines[start][a:b].strip() for a, b in spans]
    rows = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        cells = [line[a:b].strip() for a, b in spans[:-1]] + [line[spans[-1][0]:].strip()]
        rows.append(dict(zip(header, cells, strict=True)))
    return rows
