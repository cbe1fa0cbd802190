"""The one bot loader: reads a bot as people give it and starts it in its own process.

Every command and place that plays an external bot (the window's ``--white``/``--black``,
``oska match``, ``oska check``, ``oska tournament`` locally and on a cluster) reads it with
``parse_bot`` and starts it with ``open_bot``, so a bot plays the same everywhere:

- ``path/to/bot.py[:function]`` (function default ``oskaplayer``) is a bot given as a
  file, and it is that file alone (``BotFile``: its source is read here, so it can
  travel to another machine). ``open_bot`` copies it into a fresh private folder that
  is its whole import root, and removes that folder when the bot is closed: neither
  the caller's folder nor the files beside it can be imported. A file that imports a
  module beside it fails to load with a message that says to pass its folder.
  On Linux the folder's name also names its owner (this process: PID namespace, id and
  start time). If the owner is killed before it or the bot's keeper could remove the
  folder, the next bot staged on the machine removes it (``remove_orphaned_folders``);
  folders of live processes, and any folder not named so, are left alone.
- ``path/to/folder[:module.function]`` (default ``oskaplayer.oskaplayer``) is a bot
  given as a folder (``BotFolder``): that folder is its import root, where it is, so a
  bot made of several modules plays.
- ``path/to/submission.zip[:module.function]`` (same default) is a bot given as a zip
  archive (``BotArchive``, its bytes read here so that it can travel): it is unpacked
  into a fresh private folder that is its import root (the archive's one top folder,
  when the module is in there rather than at the top, as when a folder was zipped).
  A folder going to a cluster travels packed the same way (``pack_folder``).

A bot's files are read whole and may hold at most ``MAX_BOT_BYTES`` in all; a bot that
is found but cannot be used (too big, unreadable, a broken zip) raises ``BotUnusable``,
so a tournament can charge its games as ``load`` forfeits instead of stopping. A file
is kept as bytes: Python decodes it as it would (UTF-8, or its PEP 263 ``coding:``
line). Each bot's ``fingerprint`` hashes all its files and their names within it, not
where it is: the same code under another name or folder has the same fingerprint.

Either way the bot runs in its own process (``bots.external.ExternalPlayer``), and the
folder the command was run from is never on its import path (``bots.external_worker``).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import tempfile
import weakref
import zipfile
from dataclasses import dataclass
from functools import partial
from importlib.machinery import all_suffixes
from pathlib import Path, PurePosixPath

from oska_gui.bots import proctree
from oska_gui.bots.bot_process import DEFAULT_LOAD_TIMEOUT, BotCode, BotProcess, LoadError
from oska_gui.bots.external import DEFAULT_TIME_LIMIT, ExternalPlayer

DEFAULT_FUNCTION = "oskaplayer"
DEFAULT_MODULE = "oskaplayer"
SPEC_FORMS = ("path/to/bot.py[:function], path/to/folder[:module.function] or "
              "path/to/bot.zip[:module.function]")
MAX_BOT_BYTES = 20_000_000  # all of a bot's files: read whole, and sent with its games
MAX_MEMBERS = 10_000  # files in a bot's zip archive
SKIPPED_FOLDERS = ("__pycache__",)  # with hidden ones: never part of a bot's code
STAGE_PREFIX = "oska-bot-"
# a staged folder's name after STAGE_PREFIX: its owner's PID namespace, id and start time
OWNED_NAME = re.compile(rf"{re.escape(STAGE_PREFIX)}(\d+)-(\d+)-(\d+)-")


@dataclass(frozen=True)
class BotFile:
    """A bot given as a file: the file as given, the function to call and its source.

    ``siblings`` are the modules that were beside the file when it was read: a bot
    given as a file cannot import them, and a load error caused by one says so.
    Plain data, so that it can travel to another machine and be staged there.
    """

    path: str
    function: str
    source: bytes
    siblings: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """Return the bot's name as written on a command line: 'bots/a.py:oskaplayer'."""
        return f"{self.path}:{self.function}"

    @property
    def filename(self) -> str:
        """Return the file's own name ('a.py'): its copy's name, and its name in messages."""
        return os.path.basename(self.path)

    @property
    def fingerprint(self) -> str:
        """Return a short hash of the source: it changes when the bot's code does."""
        return hashlib.sha256(self.source).hexdigest()[:16]


@dataclass(frozen=True)
class BotFolder:
    """A bot given as a folder: the folder as given, its module and function in it.

    ``fingerprint`` is a short hash of the folder's Python files when it was read.
    """

    path: str
    module: str
    function: str
    fingerprint: str

    @property
    def name(self) -> str:
        """Return the bot's name as written on a command line: 'bots/team:main.oskaplayer'."""
        return f"{self.path}:{self.module}.{self.function}"


@dataclass(frozen=True)
class BotArchive:
    """A bot as a zip archive: one given as a .zip, or a folder packed to travel.

    ``path`` is the archive (or the folder) as given; ``data`` the archive's bytes;
    ``prefix`` the folder inside it that is the import root ('' for its top, else e.g.
    'team/'); ``fingerprint`` a short hash of its files, as for a folder.
    """

    path: str
    module: str
    function: str
    data: bytes
    prefix: str
    fingerprint: str

    @property
    def name(self) -> str:
        """Return the bot's name as written on a command line: 'team.zip:main.oskaplayer'."""
        return f"{self.path}:{self.module}.{self.function}"


BotSpec = BotFile | BotFolder | BotArchive


class BotUnusable(ValueError):
    """The bot is there but cannot be used: too big, unreadable, a broken archive."""


def parse_bot(text: str, module_alone: bool = False) -> BotSpec:
    """Read a bot given as 'path/to/bot.py[:function]' or 'path/to/folder[:module.function]'.

    Args:
        text: the bot as given; a path that holds ':' itself is read whole.
        module_alone: also take 'path/to/folder:module' (and the same after a zip), the
            function left at its default: for a command that names the functions to
            call itself (``oska check``). A dotted name is still module.function.

    Returns:
        A BotFile with the file's bytes, a BotFolder, or a BotArchive with its bytes.

    Raises:
        ValueError: no such file or folder, a bad function or module name, or no such
            module in the folder; BotUnusable (a ValueError too) when the bot is there
            but cannot be used: unreadable, over ``MAX_BOT_BYTES`` in all, or a zip
            that is broken, unsafe or without the module. The message is one line for
            people.
    """
    path, suffix = _split(text)
    kind = _kind(path)
    if kind == "folder":
        return _read_folder(path, suffix, module_alone)
    if kind == "file" and path.lower().endswith(".zip"):
        return _read_archive(path, suffix, module_alone)
    if kind == "file":
        return _read_file(path, suffix)
    raise ValueError(f"no such bot file or folder: {path!r:.200} (write it as {SPEC_FORMS})")


def bot_path(text: str) -> str:
    """Return the path in a bot given as text (the file, folder or zip), read as
    ``parse_bot`` reads it, whether or not there is a bot there."""
    return _split(text)[0]


def open_bot(bot: BotSpec | str, time_limit: float = DEFAULT_TIME_LIMIT,
             load_timeout: float = DEFAULT_LOAD_TIMEOUT, echo: bool = False) -> ExternalPlayer:
    """Return the bot as an opponent ready to start (its process starts when first asked).

    A bot given as a file is copied into a fresh private folder first, which is
    removed when the player is closed (or, failing that, when it is collected or the
    program ends).

    Args:
        bot: a bot read by ``parse_bot``, or its text (read here).
        time_limit: seconds allowed per move.
        load_timeout: seconds the bot may take to load.
        echo: show the bot's own output on stderr instead of discarding it.

    Raises:
        ValueError: ``bot`` is text that ``parse_bot`` refuses.
        LoadError: the file could not be copied (a full disk, say).
    """
    spec = parse_bot(bot) if isinstance(bot, str) else bot
    if isinstance(spec, BotArchive):
        folder = _stage_archive(spec)
        root = os.path.join(folder, _root_name(spec))
        code = BotCode(root, spec.module, label=os.path.join(
            _root_name(spec), *spec.module.split(".")), staged=True)
        process = BotProcess(code, load_timeout, echo)
        remove = weakref.finalize(process, shutil.rmtree, folder, ignore_errors=True)
        return ExternalPlayer(process, spec.function, spec.name, time_limit, release=remove)
    if isinstance(spec, BotFolder):
        code = BotCode(os.path.abspath(spec.path), spec.module,
                       label=os.path.join(spec.path, *spec.module.split(".")))
        return ExternalPlayer(BotProcess(code, load_timeout, echo), spec.function, spec.name,
                              time_limit)
    folder = _stage(spec)
    code = BotCode(os.path.join(folder, spec.filename), label=spec.filename,
                   explain_missing=partial(_unseen_sibling, spec), staged=True)
    process = BotProcess(code, load_timeout, echo)
    remove = weakref.finalize(process, shutil.rmtree, folder, ignore_errors=True)
    return ExternalPlayer(process, spec.function, spec.name, time_limit, release=remove)


# -- reading -------------------------------------------------------------------------


def _split(text: str) -> tuple[str, str | None]:
    """Return the path and what follows its last ':' (None when nothing does).

    The text is all path when it names something as a whole (a path holding ':'), or
    when neither its part before ':' exists nor its part after reads as names.
    """
    path, sep, suffix = text.rpartition(":")
    if sep and path and not _kind(text) and (_kind(path) or _are_names(suffix)):
        return path, suffix
    return text, None


def _are_names(text: str) -> bool:
    """Return True when ``text`` is dotted Python names: 'play' or 'team.main.play'."""
    return all(part.isidentifier() for part in text.split("."))


def _read_file(path: str, function: str | None) -> BotFile:
    """Return the BotFile of the file ``path`` (raises ValueError, see ``parse_bot``)."""
    function = DEFAULT_FUNCTION if function is None else function
    if not function.isidentifier():
        hint = (" (module.function follows a folder: path/to/folder:module.function)"
                if _are_names(function) else "")
        raise ValueError(f"{function!r:.80} is not a function name: a bot given as a file is "
                         f"written path/to/bot.py[:function]{hint}")
    source = _read_bytes(path, "the bot file")
    return BotFile(path, function, source, _modules_beside(path))


def _read_bytes(path: str, what: str) -> bytes:
    """Return the bytes of the file ``path`` (``what`` names it in messages).

    Raises:
        BotUnusable: it cannot be read, or holds over ``MAX_BOT_BYTES``.
    """
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BOT_BYTES + 1)
    except OSError as error:
        raise BotUnusable(f"cannot read {what} {path!r:.200}: {error.strerror or error}") \
            from None
    if len(raw) > MAX_BOT_BYTES:
        raise BotUnusable(f"{what} {path!r:.200} is over {MAX_BOT_BYTES:,} bytes, the most "
                          "a bot may have")
    return raw


def _modules_beside(path: str) -> tuple[str, ...]:
    """Return the names of the modules and packages in the folder of the file ``path``."""
    folder = os.path.dirname(path) or os.curdir
    own = Path(path).name
    names = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = _module_name(entry) if entry.name != own else None
                if name:
                    names.add(name)
    except OSError:  # an unreadable folder: nothing beside the file to point at
        return ()
    return tuple(sorted(names))


def _module_name(entry: os.DirEntry) -> str | None:
    """Return the module name under which ``entry`` could be imported, or None."""
    try:
        if entry.is_dir():
            return entry.name if entry.name.isidentifier() else None
    except OSError:  # a link to nowhere, a folder we may not look into
        return None
    for suffix in all_suffixes():
        stem = entry.name.removesuffix(suffix)
        if stem != entry.name and stem.isidentifier():
            return stem
    return None


def _read_folder(path: str, suffix: str | None, module_alone: bool) -> BotFolder:
    """Return the BotFolder of the folder ``path`` (``module_alone`` and the ValueError it
    raises: see ``parse_bot``)."""
    module, function = _module_function(path, suffix, "folder", module_alone)
    where = os.path.join(*module.split("."))
    base = os.path.join(path, where)
    if _kind(base) != "folder" and not any(_kind(base + end) == "file"
                                           for end in all_suffixes()):
        raise ValueError(f"the bot folder {path!r:.200} has no module {module!r:.80} "
                         f"(no {where}.py in it)")
    return BotFolder(path, module, function, _fingerprint(_folder_files(path)))


def _module_function(path: str, suffix: str | None, kind: str,
                     module_alone: bool) -> tuple[str, str]:
    """Return the module and function of 'module.function' after a folder or zip ``path``
    (default ``oskaplayer.oskaplayer``; with ``module_alone`` a lone 'module' too, with
    the default function); raises ValueError when it is not that."""
    text = f"{DEFAULT_MODULE}.{DEFAULT_FUNCTION}" if suffix is None else suffix
    if module_alone and text.isidentifier():
        return text, DEFAULT_FUNCTION
    module, dot, function = text.rpartition(".")
    if not dot or not module or not _are_names(text):
        wanted = "module or module.function" if module_alone else "module.function"
        raise ValueError(f"after a bot {kind} give {wanted}, e.g. "
                         f"{path}:{DEFAULT_MODULE}.{DEFAULT_FUNCTION}, not {text!r:.80}")
    return module, function


def _folder_files(path: str) -> list[tuple[str, bytes]]:
    """Return (name within the folder, with '/', bytes) of every file of the bot folder.

    Hidden files and folders and ``__pycache__`` are left out: they are not the bot's
    code. Raises BotUnusable over ``MAX_BOT_BYTES`` in all, or for an unreadable file.
    """
    files, total = [], 0
    for folder, subfolders, names in os.walk(path):
        subfolders[:] = sorted(name for name in subfolders
                               if not name.startswith(".") and name not in SKIPPED_FOLDERS)
        for name in sorted(names):
            file = Path(folder, name)
            if name.startswith(".") or not file.is_file():
                continue
            data = _read_bytes(str(file), "the file")
            total += len(data)
            if total > MAX_BOT_BYTES:
                raise BotUnusable(f"the bot folder {path!r:.200} holds over "
                                  f"{MAX_BOT_BYTES:,} bytes, the most a bot may have")
            files.append((file.relative_to(path).as_posix(), data))
    return files


def _fingerprint(files: list[tuple[str, bytes]]) -> str:
    """Return a short hash of a bot's files: their names (within the bot) and bytes."""
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0"
                      + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:16]


def _read_archive(path: str, suffix: str | None, module_alone: bool) -> BotArchive:
    """Return the BotArchive of the zip file ``path`` (``module_alone`` and the ValueError
    it raises: see ``parse_bot``)."""
    module, function = _module_function(path, suffix, "zip", module_alone)
    data = _read_bytes(path, "the bot archive")
    files = _archive_files(path, data)
    prefix = _import_root(path, module, [name for name, _ in files])
    inside = [(name[len(prefix):], content) for name, content in files
              if name.startswith(prefix)]
    return BotArchive(path, module, function, data, prefix, _fingerprint(inside))


def _archive_files(path: str, data: bytes) -> list[tuple[str, bytes]]:
    """Return (name, bytes) of the files of the zip archive ``data`` read from ``path``.

    Raises:
        BotUnusable: not a zip, over ``MAX_MEMBERS`` files or ``MAX_BOT_BYTES`` unpacked,
            a name that would land outside its folder (absolute, '..'), or a member that
            cannot be read.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) > MAX_MEMBERS:
                raise BotUnusable(f"{path!r:.200} holds over {MAX_MEMBERS:,} files")
            if sum(info.file_size for info in members) > MAX_BOT_BYTES:
                raise BotUnusable(f"{path!r:.200} unpacks to over {MAX_BOT_BYTES:,} bytes, "
                                  "the most a bot may have")
            for info in members:
                parts = PurePosixPath(info.filename).parts
                if info.filename.startswith("/") or ".." in parts or "\\" in info.filename:
                    raise BotUnusable(f"{path!r:.200} holds {info.filename!r:.100}, which "
                                      "would be unpacked outside its folder")
            return [(info.filename, archive.read(info)) for info in members]
    except BotUnusable:  # one of the checks above: its own words
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError,
            RuntimeError, EOFError, ValueError) as error:
        raise BotUnusable(f"{path!r:.200} is not a zip archive Python can read: "
                          f"{error}") from None


def _import_root(path: str, module: str, names: list[str]) -> str:
    """Return the folder in the archive (``names``) where ``module`` is: '' or 'top/'.

    The archive's top comes first; else its one top folder, as when a folder was zipped.
    Raises BotUnusable when neither holds the module.
    """
    where = "/".join(module.split("."))
    tops = {name.split("/", 1)[0] + "/" for name in names if "/" in name}
    for prefix in ["", *sorted(tops)] if len(tops) == 1 else [""]:
        if any(name == f"{prefix}{where}.py" or name.startswith(f"{prefix}{where}/")
               for name in names):
            return prefix
    raise BotUnusable(f"the bot archive {path!r:.200} has no module {module!r:.80} (no "
                      f"{where}.py at its top{' or in its one folder' if len(tops) == 1 else ''})")


def pack_folder(bot: BotFolder) -> BotArchive:
    """Return the bot folder ``bot`` packed as a zip archive, to travel to a cluster.

    Its fingerprint is the folder's: a packed folder plays the same games. Raises
    BotUnusable as ``parse_bot`` does for the folder.
    """
    files = _folder_files(bot.path)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return BotArchive(bot.path, bot.module, bot.function, out.getvalue(), "", bot.fingerprint)


def _kind(path: str) -> str | None:
    """Return 'file' or 'folder' for what ``path`` names, None for nothing (also for a
    name too long to look up)."""
    try:
        found = Path(path)
        return "file" if found.is_file() else "folder" if found.is_dir() else None
    except OSError:  # ENAMETOOLONG and the like: nothing has such a name
        return None


# -- staging a file ------------------------------------------------------------------


def _stage(bot: BotFile) -> str:
    """Copy the bot's source into a fresh private folder, under its own file name.

    The folder's name names this process as its owner; folders left by owners that are
    gone are removed first.

    Returns:
        The folder, which holds nothing else.

    Raises:
        LoadError: the folder or the file could not be written.
    """
    remove_orphaned_folders()
    folder = None
    try:
        folder = tempfile.mkdtemp(prefix=STAGE_PREFIX + _owner_tag())
        with open(os.path.join(folder, bot.filename), "wb") as file:
            file.write(bot.source)
    except OSError as error:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        raise LoadError(f"cannot copy {bot.filename} to a folder of its own: "
                        f"{error.strerror or error}") from None
    return folder


def _root_name(bot: BotArchive) -> str:
    """Return the name of the import root folder an archive is unpacked into: the
    archive's (or folder's) own name, so that tracebacks read 'team/main.py'."""
    stem = Path(bot.path.rstrip("/" + os.sep)).name.removesuffix(".zip")
    return stem if stem and not stem.startswith(".") else "bot"


def _stage_archive(bot: BotArchive) -> str:
    """Unpack the bot's import root into a fresh private folder; return that folder.

    The files land in ``FOLDER/NAME`` (``_root_name``): the host is told it is staged,
    so if this process dies, FOLDER goes with the bot; FOLDER is named for its owner,
    as ``_stage`` names its folders. Raises LoadError when the files cannot be written.
    """
    remove_orphaned_folders()
    folder = None
    try:
        folder = tempfile.mkdtemp(prefix=STAGE_PREFIX + _owner_tag())
        root = Path(folder, _root_name(bot))
        for name, data in _archive_files(bot.path, bot.data):
            if name.startswith(bot.prefix):
                target = root.joinpath(*PurePosixPath(name[len(bot.prefix):]).parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        root.mkdir(exist_ok=True)
    except (OSError, BotUnusable) as error:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        raise LoadError(f"cannot unpack {_root_name(bot)} into a folder of its own: "
                        f"{getattr(error, 'strerror', None) or error}") from None
    return folder


def _owner_tag() -> str:
    """Return 'NAMESPACE-PID-START-' naming this process for good, '' where unknown."""
    namespace, pid = proctree.pid_namespace(), os.getpid()
    started = proctree.start_time(pid)
    return f"{namespace}-{pid}-{started}-" if namespace and started is not None else ""


def remove_orphaned_folders() -> list[str]:
    """Remove the staged folders whose owner process is gone; return their paths.

    Only folders in the temporary folder named by ``_stage`` for a process of this PID
    namespace, owned by this user and not links are looked at; nothing happens where
    the owner cannot be told (no /proc).
    """
    namespace = proctree.pid_namespace()
    if not namespace:
        return []
    try:
        with os.scandir(tempfile.gettempdir()) as scan:
            entries = list(scan)
    except OSError:  # an unreadable temporary folder: there is nothing we can clean
        return []
    removed = []
    for entry in entries:
        owner = OWNED_NAME.match(entry.name)
        if (owner and owner[1] == namespace
                and proctree.start_time(int(owner[2])) != int(owner[3])
                and _ours(entry)):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


def _ours(entry: os.DirEntry) -> bool:
    """Return True when ``entry`` is a real folder (not a link) owned by this user."""
    try:
        return (entry.is_dir(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_uid == os.getuid())
    except OSError:  # it went away while we looked
        return False


def _unseen_sibling(bot: BotFile, module: str) -> str | None:
    """Return why the bot file fails to import ``module``, if it is a module beside it.

    Args:
        bot: the bot given as a file.
        module: the top-level name of the module that could not be found.

    Returns:
        A message that says to pass the bot's folder instead, or None when ``module``
        was not beside the file (then it is simply missing, and the traceback says so).
    """
    if module not in bot.siblings:
        return None
    folder = os.path.dirname(bot.path) or os.curdir
    stem = Path(bot.filename).stem
    spec = f"{folder}:{stem}.{bot.function}" if stem.isidentifier() else (
        f"{folder}:NAME.{bot.function} once {bot.filename} is renamed to a Python name")
    return (f"{bot.filename} imports {module!r}, which a bot given as a file cannot see: "
            f"pass its folder instead: {spec}")
