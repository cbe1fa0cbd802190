"""The learned evaluator's weights: the ``Model`` and its files, one file per board size.

A model is a table of values by race-margin bucket, one weight per feature count
(``features.NAMES``) and, for a solved board size, pattern tables (``patterns``).
The package ships one file per model in ``weights/``: ``any.model`` for the general
model, ``4.model`` and ``5.model`` for the boards with their own, and
``4.chances.model``, the n = 4 model the game review reads as win chances (see
``learned``). A program asks for one board size and reads that file alone: the first
move of a fresh process (the spec's graders call ``oskaplayer`` in fresh processes)
must not pay for every size.

A model file is a short text header, a blank line, then the pattern tables::

    oska learned model 1
    table -2.51 -1.83 ...           the margin buckets' values (logit units)
    weight margin 0.0412            one line per feature, by name
    ...
    window 1 3 19683                one line per pattern window: first row, rows, entries
    (blank line)
    the pattern tables' entries, window after window: 16-bit little-endian integers

Numbers in the header are Python's shortest exact ``repr`` of each float, so a model
reads back exactly. The tables, 1.1 million entries on n = 5, are memory-mapped
(``mmap``, in CPython and Pyodide alike) and read in place through a ``memoryview``:
mapping them costs a twentieth of a millisecond whatever their size (importing ``mmap``
half a millisecond more), and the search touches only the pages it looks up. Copying
them into arrays took 4 to 5 ms on n = 5, and parsing them as JSON text tens. Where
``mmap`` is missing or fails, the tables are read into memory instead; a big-endian
machine gets byte-swapped arrays. A model file is replaced, never rewritten in place
(``write_model``), so a program that has mapped the old one keeps reading it. A pattern
window inside another is stored folded into it (``patterns.fold_contained``, done by
``write_models``): the same scores, and the evaluator reads it without folding anything.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from oska_gui.core.files import write_whole
from oska_gui.engine.features import BUCKETS, NAMES
from oska_gui.engine.patterns import Window, fold_contained, window_sizes
from oska_gui.games.oska import OskaRules, oska_rules

GENERAL = "any"  # the key of the model for board sizes without one of their own
# a board's calibrated model, for win chances, is keyed by its size and this: "4.chances"
CHANCES = "chances"
WEIGHTS_DIR = Path(__file__).with_name("weights")
SUFFIX = ".model"
FORMAT_LINE = "oska learned model 1"
ENTRY_TYPE: Final = "h"  # a pattern entry: a C short, 16 bits (within +/- 32 logits: plenty)


def entries(values: Sequence[int]) -> Sequence[int]:
    """Return ``values`` as pattern entries: an array of them, or a memoryview of them
    (a mapped model file's), as it is; any other sequence of ints as an array.

    Raises ValueError for values that are not whole numbers of 16 bits.
    """
    if isinstance(values, array) and values.typecode == ENTRY_TYPE:
        return values
    if isinstance(values, memoryview) and values.format == ENTRY_TYPE:
        return values
    try:
        return array(ENTRY_TYPE, values)
    except (TypeError, OverflowError) as error:
        raise ValueError(f"pattern entries must be 16-bit whole numbers: {error}") from None


def copied_entries(values: Sequence[int]) -> array:
    """Return a new array of the pattern entries ``values`` (an array or a memoryview)."""
    table = array(ENTRY_TYPE)
    if isinstance(values, memoryview):
        table.frombytes(values.cast("B"))
    else:
        table.extend(values)
    return table


@dataclass(frozen=True)
class Model:
    """The learned weights: one value per margin bucket and one per feature count.

    A model of one board size may also hold pattern tables (``patterns.PatternSpace``):
    its ``windows``, and for each an array of values indexed by the window's contents,
    in evaluator units (thousandths of a logit, whole numbers: the tables are large).
    The tables are kept as ``array('h')`` (any sequence of ints given is converted), or
    as the ``memoryview`` of a mapped model file that ``read_model`` gives: compact, and
    read from a file without a loop; they are not to be changed.
    """

    table: tuple[float, ...]
    weights: tuple[float, ...]
    windows: tuple[Window, ...] = ()
    patterns: tuple[Sequence[int], ...] = ()

    def __post_init__(self) -> None:
        """Check the sizes against the feature space and store the tables as arrays;
        raises ValueError if the sizes differ or an entry is not a 16-bit int."""
        if len(self.table) != BUCKETS or len(self.weights) != len(NAMES):
            raise ValueError(f"a model needs {BUCKETS} table values and {len(NAMES)} weights, "
                             f"got {len(self.table)} and {len(self.weights)}")
        if len(self.windows) != len(self.patterns):
            raise ValueError(f"{len(self.windows)} windows need as many pattern tables, "
                             f"got {len(self.patterns)}")
        object.__setattr__(self, "patterns", tuple(map(entries, self.patterns)))

    def __reduce__(self) -> tuple:
        """Pickle the model with its tables as arrays (a view of a mapped file cannot be
        pickled), for the worker processes of the tools."""
        return Model, (self.table, self.weights, self.windows,
                       tuple(map(copied_entries, self.patterns)))

    def check_patterns(self, rules: OskaRules) -> None:
        """Raise ValueError unless the pattern tables fit ``rules``' board (or are none)."""
        if not self.windows:
            return
        sizes = window_sizes(rules, self.windows)
        if tuple(map(len, self.patterns)) != sizes:
            raise ValueError(f"pattern tables {self.windows} on n = {rules.n} need "
                             f"sizes {sizes}, got {tuple(map(len, self.patterns))}")

    def to_json(self) -> dict:
        """Return the model as a JSON-ready dict, the weights named after their features."""
        data: dict = {"table": list(self.table),
                      "weights": dict(zip(NAMES, self.weights, strict=True))}
        if self.windows:
            data["pattern_windows"] = [list(window) for window in self.windows]
            data["patterns"] = [list(values) for values in self.patterns]
        return data

    @classmethod
    def from_json(cls, data: dict) -> Model:
        """Return the model stored by ``to_json`` (or read by ``read_model``); raises
        ValueError if it does not fit."""
        weights = data["weights"]
        if set(weights) != set(NAMES):
            raise ValueError(f"the weights must be named {NAMES}")
        windows = tuple((int(first), int(rows)) for first, rows in data.get("pattern_windows", ()))
        return cls(tuple(map(float, data["table"])), tuple(float(weights[n]) for n in NAMES),
                   windows, tuple(data.get("patterns", ())))


def models_to_json(models: dict[str, Model]) -> dict:
    """Return the models by board size (or ``GENERAL``) as a JSON-ready dict."""
    return {"models": {key: model.to_json() for key, model in models.items()}}


def models_from_json(data: dict) -> dict[str, Model]:
    """Return the models stored by ``models_to_json``; raises ValueError if malformed."""
    models = {key: Model.from_json(value) for key, value in data["models"].items()}
    if GENERAL not in models:
        raise ValueError(f"the weights need a general model under {GENERAL!r}")
    return models


# -- files ---------------------------------------------------------------------------


def chances_key(n: int) -> str:
    """Return the key of board size ``n``'s calibrated model (see ``learned``)."""
    return f"{n}.{CHANCES}"


def board_size(key: str) -> int:
    """Return the board size of a board model's key ('4' or '4.chances': 4)."""
    return int(key.split(".")[0])


def model_path(folder: Path, key: str) -> Path:
    """Return the file of the model ``key`` (a board size or ``GENERAL``) in ``folder``."""
    return folder / f"{key}{SUFFIX}"


def write_model(model: Model, path: Path) -> None:
    """Write ``model`` to the model file ``path`` (see the module text for the format)."""
    data = model.to_json()
    lines = [FORMAT_LINE, " ".join(["table", *map(repr, model.table)])]
    lines += [f"weight {name} {value!r}" for name, value in data["weights"].items()]
    body = array(ENTRY_TYPE)
    for (first, rows), values in zip(model.windows, model.patterns, strict=True):
        lines.append(f"window {first} {rows} {len(values)}")
        body.extend(entries(values))
    if sys.byteorder != "little":
        body.byteswap()
    # a new file replaces the old one: a program that mapped the old one keeps its pages
    write_whole(path, "\n".join(lines).encode("ascii") + b"\n\n" + body.tobytes())


def read_model(path: Path) -> Model:
    """Return the model of the model file ``path``, its tables mapped (see the module text).

    Raises:
        OSError: if the file cannot be read.
        ValueError: naming the file, if it is not a model file or does not fit the
            feature space.
    """
    with path.open("rb") as file:
        try:
            lines = []
            while (line := file.readline()) not in (b"\n", b""):
                lines.append(line.decode("ascii").rstrip("\n"))
            return Model.from_json(parse_model(lines, table_bytes(file)))
        except (ValueError, KeyError, IndexError) as error:
            raise ValueError(f"{path} is not a valid model file: {error}") from None


def table_bytes(file: BinaryIO) -> memoryview:
    """Return the rest of the open model file ``file`` (from its position on), mapped
    into memory where the platform can, else read."""
    start = file.tell()
    try:
        import mmap  # here: the fallback below serves a Python built without it

        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (ImportError, OSError, ValueError):
        return memoryview(file.read())
    return memoryview(mapped)[start:]


def parse_model(lines: list[str], tables: memoryview) -> dict:
    """Return the ``Model.to_json`` form of a model file's header ``lines``, its pattern
    tables views of ``tables`` (the file's bytes after the header's blank line).

    Raises:
        ValueError, KeyError, IndexError: if the header is malformed or the tables are
            not as long as it says.
    """
    if not lines or lines[0] != FORMAT_LINE:
        raise ValueError(f"the first line must be {FORMAT_LINE!r}")
    data: dict = {"weights": {}, "pattern_windows": [], "patterns": []}
    size = array(ENTRY_TYPE).itemsize
    start = 0
    for line in lines[1:]:
        kind, *fields = line.split(" ")
        if kind == "table":
            data["table"] = [float(value) for value in fields]
        elif kind == "weight":
            name, value = fields
            data["weights"][name] = float(value)
        elif kind == "window":
            first, rows, count = map(int, fields)
            end = start + count * size
            if count < 0 or end > len(tables):
                raise ValueError(f"the pattern tables end before window ({first}, {rows})")
            data["pattern_windows"].append((first, rows))
            data["patterns"].append(native_entries(tables[start:end]))
            start = end
        else:
            raise ValueError(f"unknown header line {line!r:.40}")
    if start != len(tables):
        raise ValueError("bytes left after the pattern tables")
    return data


def native_entries(stored: memoryview) -> Sequence[int]:
    """Return the pattern entries of ``stored``, a file's little-endian 16-bit integers:
    a view of them, or on a big-endian machine a swapped copy."""
    if sys.byteorder == "little":
        return stored.cast(ENTRY_TYPE)
    table = array(ENTRY_TYPE, stored.tobytes())
    table.byteswap()
    return table


def write_models(models: dict[str, Model], folder: Path) -> None:
    """Write each of ``models`` (keyed by board size or ``GENERAL``) to its file in
    ``folder``, pattern windows folded into those holding them, and delete the model
    files of other keys there; raises ValueError without a general model."""
    if GENERAL not in models:
        raise ValueError(f"the weights need a general model under {GENERAL!r}")
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob(f"*{SUFFIX}"):
        if old.stem not in models:
            old.unlink()
    for key, model in models.items():
        write_model(folded(model, key), model_path(folder, key))


def folded(model: Model, key: str) -> Model:
    """Return ``model`` with its pattern windows inside others folded into them (the
    same scores, fewer tables); ``key`` is its key (a board's, or ``GENERAL``)."""
    if not model.windows:
        return model
    windows, tables = fold_contained(oska_rules(board_size(key)), model.windows, model.patterns)
    return Model(model.table, model.weights, windows, tables)


def read_models(folder: Path) -> dict[str, Model]:
    """Return every model of ``folder`` by key; raises ValueError without a general one."""
    models = {path.stem: read_model(path) for path in sorted(folder.glob(f"*{SUFFIX}"))}
    if GENERAL not in models:
        raise ValueError(f"{folder} needs a general model, {GENERAL}{SUFFIX}")
    return models
