"""What ``oska check`` prints and writes: tables, disagreements grouped by kind, JSON.

The printed report has one table per function (calls per board size and problems by
kind), then a table of the kinds of disagreement with their counts, one line for each
known convention difference, and examples of every kind as board pictures. The JSON
result (``--json FILE``) holds the same in a stable form for graders; its fields are
listed in ``result_document``.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from oska_gui.console.options import side_by_side
from oska_gui.console.table import plain, render_table
from oska_gui.games.oska import oska_rules

from .check_findings import CONVENTIONS, GIVE_UP_AFTER, MOVEGEN, Convention, Finding, Stats

JSON_FORMAT, JSON_VERSION = "oska-check", 1
DETAIL_LINES = 12
EXIT_AGREE, EXIT_DISAGREE = 0, 1


class Checked(Protocol):
    """One function's results, as the checker holds them."""

    role: str
    function: str
    stats: dict[int, Stats]
    findings: list[Finding]
    skipped: int

    @property
    def kinds(self) -> tuple[str, ...]:
        """Return the kinds of problem this function can have, in table order."""
        ...


@dataclass
class KindGroup:
    """The disagreements of one kind: the function, the title and every finding."""

    key: str
    role: str
    function: str
    title: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def convention(self) -> Convention | None:
        """Return the known convention difference this kind is, or None."""
        return CONVENTIONS.get(self.key)

    @property
    def sizes(self) -> list[int]:
        """Return the board sizes where this kind was met, smallest first."""
        return sorted({finding.case.n for finding in self.findings})


def group_by_kind(findings: list[Finding]) -> list[KindGroup]:
    """Return ``findings`` grouped by kind: the most frequent kind first, ties as met."""
    groups: dict[str, KindGroup] = {}
    for finding in findings:
        group = groups.setdefault(finding.kind, KindGroup(
            finding.kind, finding.role, finding.function, finding.title))
        group.findings.append(finding)
    return sorted(groups.values(), key=lambda group: -len(group.findings))


def examples(findings: list[Finding], count: int) -> list[Finding]:
    """Return ``count`` findings to show: the first of each kind of case first, in order.

    A kind of case is its label ('jump across the middle', 'random playout'), so that
    one case met a thousand times does not hide a second one of the same problem.
    """
    seen: set[str] = set()
    chosen: list[int] = []
    for i, finding in enumerate(findings):
        if finding.case.label not in seen:
            seen.add(finding.case.label)
            chosen.append(i)
    rest = [i for i in range(len(findings)) if i not in set(chosen)]
    return [findings[i] for i in sorted((chosen + rest)[:count])]


def print_report(checkers: Sequence[Checked], args: argparse.Namespace) -> int:
    """Print the tables, the kinds of disagreement and their examples; return the exit code.

    Args:
        checkers: the checked functions' results.
        args: the command's options (``depth`` and ``show`` are read).

    Returns:
        EXIT_AGREE when every call agreed, else EXIT_DISAGREE.
    """
    for checker in checkers:
        print()
        print(stats_table(checker, args.depth))
        if checker.skipped:
            print(f"gave up on {checker.function} after {GIVE_UP_AFTER} timeouts or "
                  f"crashes: {checker.skipped} calls not made")
    findings = [finding for checker in checkers for finding in checker.findings]
    if not findings and not any(checker.skipped for checker in checkers):
        calls = sum(s.calls for checker in checkers for s in checker.stats.values())
        print(f"\nAll {calls} calls agree with this project's rules.")
        return EXIT_AGREE
    if findings:
        groups = group_by_kind(findings)
        print()
        print(kinds_table(groups))
        print_conventions(groups, len(findings))
        print_examples(groups, args)
        print("\n" + summary_line(groups, args.show))
    return EXIT_DISAGREE


def kinds_table(groups: list[KindGroup]) -> str:
    """Return the table of the kinds of disagreement: function, kind, count and sizes."""
    rows = [[group.function, plain(group.title), len(group.findings),
             ", ".join(map(str, group.sizes))] for group in groups]
    return render_table(["function", "kind", "calls", "n"], rows, "Disagreements by kind")


def print_conventions(groups: list[KindGroup], total: int) -> None:
    """Print one line for each known convention difference among ``groups``."""
    if any(group.convention for group in groups):
        print()
    for group in groups:
        if group.convention is not None:
            print(textwrap.fill(f"Known convention difference ({len(group.findings)} of "
                                f"{total}): {group.convention.sentence}.", 79,
                                subsequent_indent="  "))


def print_examples(groups: list[KindGroup], args: argparse.Namespace) -> None:
    """Print up to ``args.show`` examples of each kind, numbered across all kinds."""
    number = 0
    for group in groups:
        shown = examples(group.findings, args.show)
        if not shown:
            continue
        print(f"\n{group.function}: {plain(group.title)} "
              f"({len(shown)} of {len(group.findings)} shown)")
        for finding in shown:
            number += 1
            print(f"\nDisagreement {number}: {finding_text(finding, args.depth)}")


def summary_line(groups: list[KindGroup], show: int) -> str:
    """Return the last line: how many disagreements, of how many kinds, and conventions."""
    total = sum(len(group.findings) for group in groups)
    conventional = sum(len(group.findings) for group in groups if group.convention)
    words = f"{total} disagreement{'s' if total != 1 else ''} of {len(groups)} " \
            f"kind{'s' if len(groups) != 1 else ''}"
    if conventional == total:
        words += ", all of them known convention differences"
    elif conventional:
        words += f", {conventional} of them known convention differences"
    more = any(len(group.findings) > show for group in groups)
    return words + (f" (up to {show} shown of each kind; --show K for more)" if more else "") + "."


def stats_table(checker: Checked, depth: int) -> str:
    """Return the table of one function's results per board size."""
    rows = []
    for n, stats in sorted(checker.stats.items()):
        counts = [stats.problems[kind] for kind in checker.kinds]
        extra = [] if checker.role == MOVEGEN else [stats.special]
        rows.append([n, stats.calls, *extra, stats.agreeing, *counts])
    if checker.role == MOVEGEN:
        headers = ["n", "boards", "agree"]
        title = f"{checker.function}(board, player)"
    else:
        headers = ["n", "positions", "no move", "legal"]
        title = f"{checker.function}(board, player, {depth})"
    return render_table(headers + list(checker.kinds), rows, title)


def finding_text(finding: Finding, depth: int) -> str:
    """Return a disagreement in full: the call, what is wrong and the boards as pictures."""
    case = finding.case
    extra_arg = "" if finding.role == MOVEGEN else f", {depth}"
    lines = [f"{finding.function}(board, {case.player!r}{extra_arg}) on n = {case.n} "
             f"({case.label}): {', '.join(finding.kinds)}",
             f"board = {list(case.rows)}"]
    detail = finding.detail.strip().splitlines()
    if len(detail) > DETAIL_LINES:
        detail = detail[:2] + ["..."] + detail[-(DETAIL_LINES - 3):]
    lines += [plain(line) for line in detail]
    rules = oska_rules(case.n)
    blocks = [("given", rules.picture(case.position(rules)))]
    for caption, boards in named_boards(finding):
        for i, rows in enumerate(boards, start=1):
            number = f" {i}" if len(boards) > 1 else ""
            blocks.append((caption + number, rules.picture(rules.from_rows(list(rows), 0))))
            lines.append(f"{caption}{number}: {list(rows)}")
    pictures = [side_by_side(blocks[i:i + 5]) for i in range(0, len(blocks), 5)]
    return "\n".join(lines) + "\n" + textwrap.indent("\n\n".join(pictures), "    ")


def named_boards(finding: Finding) -> list[tuple[str, list[tuple[str, ...]]]]:
    """Return the boards of a finding with their captions, as the report shows them."""
    return [("ours only", finding.missing), ("yours only", finding.extra),
            ("listed twice", finding.duplicates),
            ("returned", [finding.returned] if finding.returned else [])]


def result_document(checkers: Sequence[Checked], args: argparse.Namespace, label: str,
                    exit_code: int) -> dict[str, Any]:
    """Return the machine-readable result of a check (the ``--json`` file's content).

    Fields (version 1): ``format`` ('oska-check'), ``version``, ``file`` (the checked
    code as named), ``sizes``, ``games``, ``seed``, ``depth``, ``exit_code``,
    ``disagreements`` (their count); ``functions``: per checked function its ``role``
    ('movegen' or 'oskaplayer'), ``name``, ``calls_not_made`` and per board size
    ``n``, ``calls``, ``agree``, ``no_move`` (oskaplayer only) and ``problems`` ({kind:
    count}); ``kinds``: per kind of disagreement its ``kind`` (a key), ``title``,
    ``function``, ``count``, ``sizes``, ``convention`` (the one-line explanation, or
    null) and ``examples`` (as printed: ``n``, ``player``, ``board``, ``case``,
    ``problems``, ``detail``, ``ours_only``, ``yours_only``, ``listed_twice``,
    ``returned``).
    """
    findings = [finding for checker in checkers for finding in checker.findings]
    return {
        "format": JSON_FORMAT, "version": JSON_VERSION, "file": label,
        "sizes": sorted({n for checker in checkers for n in checker.stats}),
        "games": args.games, "seed": args.seed, "depth": args.depth,
        "exit_code": exit_code, "disagreements": len(findings),
        "functions": [function_document(checker) for checker in checkers],
        "kinds": [kind_document(group, args.show) for group in group_by_kind(findings)],
    }


def function_document(checker: Checked) -> dict[str, Any]:
    """Return one function's part of the JSON result (see ``result_document``)."""
    sizes = []
    for n, stats in sorted(checker.stats.items()):
        entry: dict[str, Any] = {"n": n, "calls": stats.calls, "agree": stats.agreeing}
        if checker.role != MOVEGEN:
            entry["no_move"] = stats.special
        entry["problems"] = {kind: stats.problems[kind] for kind in checker.kinds}
        sizes.append(entry)
    return {"role": checker.role, "name": checker.function,
            "calls_not_made": checker.skipped, "sizes": sizes}


def kind_document(group: KindGroup, show: int) -> dict[str, Any]:
    """Return one kind of disagreement for the JSON result (see ``result_document``)."""
    return {"kind": group.key, "title": group.title, "function": group.function,
            "role": group.role, "count": len(group.findings), "sizes": group.sizes,
            "convention": group.convention.sentence if group.convention else None,
            "examples": [finding_document(finding) for finding in
                         examples(group.findings, show)]}


def finding_document(finding: Finding) -> dict[str, Any]:
    """Return one disagreement for the JSON result (see ``result_document``)."""
    boards = {caption.replace(" ", "_"): [list(rows) for rows in found]
              for caption, found in named_boards(finding) if caption != "returned"}
    return {"n": finding.case.n, "player": finding.case.player,
            "board": list(finding.case.rows), "case": finding.case.label,
            "problems": finding.kinds, "detail": finding.detail, **boards,
            "returned": list(finding.returned) if finding.returned else None}
