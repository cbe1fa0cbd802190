"""The learned models' files: one small file per board size, read back exactly.

The shipped folder must read back to models that score like the ones written; a file
that is not a model file must be refused with its name, never half read; and a program
that asks for one board size must read that size's file alone (the first move of a
fresh process pays for what it reads).
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from oska_gui.engine import learned
from oska_gui.engine.features import BUCKETS, NAMES
from oska_gui.engine.models import (
    FORMAT_LINE,
    GENERAL,
    WEIGHTS_DIR,
    Model,
    board_size,
    chances_key,
    folded,
    model_path,
    read_model,
    read_models,
    write_model,
    write_models,
)
from oska_gui.games.oska import oska_rules


def test_a_calibrated_models_key_names_its_board() -> None:
    """'4.chances' is board 4's calibrated model: its file is named by the key."""
    assert chances_key(4) == "4.chances" and board_size(chances_key(4)) == 4
    assert board_size("12") == 12
    assert model_path(WEIGHTS_DIR, chances_key(4)).name == "4.chances.model"


def test_the_shipped_folder_reads_back_after_writing(tmp_path: Path) -> None:
    """Writing the shipped models and reading them again gives the same models."""
    models = read_models(WEIGHTS_DIR)
    assert {"4", chances_key(4), "5", GENERAL} <= set(models)
    write_models(models, tmp_path)
    assert read_models(tmp_path) == models
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        path.name for path in WEIGHTS_DIR.iterdir())


def test_windows_inside_others_are_written_folded(tmp_path: Path) -> None:
    """A model with nested windows is stored with them folded: fewer tables, and the
    evaluator scores every position the same from either."""
    rules = oska_rules(4)
    windows = ((0, 3), (0, 2), (1, 1))
    sizes = (3 ** 9, 3 ** 7, 3 ** 3)
    nested = Model(tuple([0.1] * BUCKETS), tuple([0.01] * len(NAMES)), windows,
                   tuple(tuple((7 * k + i) % 601 - 300 for i in range(size))
                         for k, size in enumerate(sizes)))
    write_models({GENERAL: learned.shipped_model(), "4": nested}, tmp_path)
    stored = read_model(model_path(tmp_path, "4"))
    assert stored.windows == ((0, 3),) and stored == folded(nested, "4")
    before = learned.learned_evaluator(rules, nested)
    after = learned.learned_evaluator(rules, stored)
    pos = rules.start()
    for _ in range(6):
        kids = rules.children(pos)
        assert [before(kid) for kid in kids] == [after(kid) for kid in kids]
        pos = kids[-1]


def shipped_bytes(key: str) -> bytes:
    """Return the bytes of the shipped model file ``key``."""
    return model_path(WEIGHTS_DIR, key).read_bytes()


@pytest.mark.parametrize(("damage", "message"), [
    (lambda data: b"oska learned model 2" + data[len(FORMAT_LINE):], "first line"),
    (lambda data: data[:-2], "not a valid model file"),
    (lambda data: data + b"\0\0", "bytes left"),
    (lambda data: data.replace(b"weight own_pieces", b"weight own_pawns"), "named"),
    (lambda data: data.replace(b"\nwindow 0 4", b"\nwindows 0 4"), "unknown header line"),
    (lambda data: data.replace(b"\n\n", b"\n"), "not a valid model file"),
])
def test_a_damaged_file_is_refused_by_name(tmp_path: Path, damage: object,
                                           message: str) -> None:
    """Any damage to a model file is a ValueError naming the file."""
    path = tmp_path / "4.model"
    path.write_bytes(damage(shipped_bytes("4")))  # type: ignore[operator]
    with pytest.raises(ValueError, match=message) as raised:
        read_model(path)
    assert str(path) in str(raised.value)


def test_a_folder_without_the_general_model_is_refused(tmp_path: Path) -> None:
    """The general model plays every board without its own: it must be there."""
    (tmp_path / "4.model").write_bytes(shipped_bytes("4"))
    with pytest.raises(ValueError, match="general"):
        read_models(tmp_path)
    with pytest.raises(ValueError, match="general"):
        write_models({"4": read_model(tmp_path / "4.model")}, tmp_path)


def test_pattern_entries_must_fit_sixteen_bits() -> None:
    """Tables are stored as 16-bit ints: a value beyond is refused, not wrapped."""
    table, weights = tuple([0.0] * BUCKETS), tuple([0.0] * len(NAMES))
    with pytest.raises(ValueError, match="16-bit"):
        Model(table, weights, ((0, 1),), ((0, 40_000, 0, 0, 0, 0, 0, 0, 0) * 9,))
    with pytest.raises(ValueError, match="16-bit"):
        Model(table, weights, ((0, 1),), ((0.5,) * 81,))


@pytest.mark.parametrize(("n", "key"), [(4, "4"), (5, "5"), (6, GENERAL), (8, GENERAL)])
def test_one_board_size_reads_its_own_file_alone(monkeypatch: pytest.MonkeyPatch, n: int,
                                                 key: str) -> None:
    """Asking for one board size's model opens that model's file and no other."""
    opened: list[Path] = []

    def recording(path: Path) -> Model:
        """Note the file read and read it."""
        opened.append(path)
        return read_model(path)

    monkeypatch.setattr(learned, "read_model", recording)
    learned._shipped.cache_clear()
    try:
        learned.shipped_model(n)
    finally:
        learned._shipped.cache_clear()
    assert opened == [model_path(WEIGHTS_DIR, key)]


def small_model(seed: int) -> Model:
    """Return an n = 4 model with one pattern window, its entries drawn from ``seed``."""
    return Model(tuple([0.1] * BUCKETS), tuple([0.01] * len(NAMES)), ((0, 3),),
                 (tuple((seed * 7 + 13 * i) % 601 - 300 for i in range(3 ** 9)),))


def test_tables_read_in_place_outlive_a_new_file(tmp_path: Path) -> None:
    """The tables are views of the mapped file; writing the file again replaces it, so
    a model read before keeps its entries."""
    path = tmp_path / "4.model"
    write_model(small_model(1), path)
    before = read_model(path)
    assert isinstance(before.patterns[0], memoryview)
    write_model(small_model(2), path)
    assert before == small_model(1) != small_model(2) == read_model(path)


def test_without_mmap_the_tables_are_read_into_memory(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """A Python without ``mmap`` reads the same model."""
    path = tmp_path / "4.model"
    write_model(small_model(3), path)
    monkeypatch.setitem(sys.modules, "mmap", None)  # import mmap now raises ImportError
    assert read_model(path) == small_model(3)


def test_a_mapped_model_pickles_with_its_tables(tmp_path: Path) -> None:
    """The tools hand models to worker processes: a mapped model pickles as arrays."""
    path = tmp_path / "4.model"
    write_model(small_model(4), path)
    copy = pickle.loads(pickle.dumps(read_model(path)))
    assert copy == small_model(4) and not isinstance(copy.patterns[0], memoryview)
