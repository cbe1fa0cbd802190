"""Build the static web site: page, loader, the project's Python files and Pyodide.

The site is a plain folder any static host can serve::

    index.html          the page (canvas, loading indicator, status live region)
    loader.js           fetches Pyodide and starts the game in a Web Worker
    game-worker.js      the worker: runs Pyodide and ``oska_gui.web.page``
    drawing.js          draws the game's frames on the page's canvas, in the worker
    game-page.js        the page's side of the game: canvas, DOM events, mirrors
    audio.js            plays the game's sounds in the page
    snapshot-worker.js  prepares a first visit's interpreter snapshot
    sw.js               the service worker: the whole site from its cache, offline play
    build.json          the build's id (a hash of every file) and the files' sizes
    manifest.webmanifest  the web app manifest: name, icons, colours (installable page)
    icon-*.png          the app's icons, drawn by ``icons`` with the game's own pieces
    oska-python.zip     the Python modules the page imports, and nothing else
    pyodide/            the runtime, copied from ``oska_gui/web/node_modules/pyodide``

Files that compress well also get a gzip copy beside them (``name.gz``): the project's
server sends it to browsers that accept gzip, as can any static host that serves
precompressed files.

Which Python files ship is worked out from the imports of ``oska_gui.web.page``
(stdlib ``modulefinder``, without running anything): the pure-Python core, the UI logic
and the browser backend come along; the desktop (pygame) and command-line code do not.
Runs on the host with the standard library only.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import modulefinder
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path

from ..core.files import replacing, write_whole
from ..ui.kit import theme
from . import icons

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "oska_gui"
WEB_DIR = REPO_ROOT / PACKAGE / "web"
STATIC_DIR = WEB_DIR / "static"
PYODIDE_DIR = WEB_DIR / "node_modules" / "pyodide"
DEFAULT_OUT = REPO_ROOT / "site"
ENTRY_MODULES = (f"{PACKAGE}.web.page", f"{PACKAGE}.web.warm")
PYTHON_ARCHIVE = "oska-python.zip"
# package data the shipped code reads: the learned models, one file a board size, and the
# solved games the package carries (n = 4: exact values without a solve)
MODELS_DIR = REPO_ROOT / PACKAGE / "engine" / "weights"
SOLVED_DIR = REPO_ROOT / PACKAGE / "engine" / "solved"
RUNTIME_DATA = tuple(sorted(path.relative_to(REPO_ROOT).as_posix()
                            for path in (*MODELS_DIR.glob("*.model"),
                                         *SOLVED_DIR.glob("*.solved"))))
STATIC_FILES = ("index.html", "loader.js", "python-files.js", "runtime.js",
                "snapshot-worker.js", "game-worker.js", "drawing.js", "game-page.js", "audio.js")
SERVICE_WORKER = "sw.js"
BUILD_ID_MARK = "__OSKA_BUILD_ID__"  # in sw.js, replaced by the build's id
FILES_MARK = "__OSKA_FILES__"  # in sw.js, replaced by the list of the build's files
SHELL_MARK = "__OSKA_SHELL__"  # in sw.js, replaced by the files a first install caches
SIZES_MARK = "__OSKA_SIZES__"  # in sw.js, replaced by each file's size in bytes
BUILD_INFO = "build.json"
WEB_MANIFEST = "manifest.webmanifest"
APP_NAME = "Oska"
APP_DESCRIPTION = "Oska, the board game, against the computer or a friend; works offline."
# zip and png files are packed already
COMPRESSED_SUFFIXES = (".html", ".js", ".mjs", ".json", ".webmanifest", ".wasm")
# What the loader downloads with a progress bar on a first visit (the service worker keeps
# each as it arrives); a first install caches the site's other files, a small shell.
DOWNLOADS = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide.asm.mjs",
             "pyodide/pyodide-lock.json", PYTHON_ARCHIVE)
RUNTIME_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
GET_PYODIDE = (
    "Get it once with `npm install --prefix oska_gui/web`, or run the tests once with "
    "`python3 tests/run.py`, which installs it."
)
GET_NPM = (
    "npm is not installed either: install Node.js with npm first (e.g. "
    "`sudo apt-get install nodejs npm`, or from nodejs.org)."
)


class MissingRuntime(RuntimeError):
    """The Pyodide runtime files needed for the site are not installed."""


def check_runtime(pyodide_dir: Path | None = None) -> list[Path]:
    """Return the runtime files to copy, checking that every one of them exists.

    Args:
        pyodide_dir: the installed npm package ``pyodide`` (default ``PYODIDE_DIR``).

    Returns:
        The paths of ``RUNTIME_FILES`` inside ``pyodide_dir``.

    Raises:
        MissingRuntime: naming the missing files and saying how to install them.
    """
    pyodide_dir = pyodide_dir or PYODIDE_DIR
    paths = [pyodide_dir / name for name in RUNTIME_FILES]
    missing = [path.name for path in paths if not path.is_file()]
    if missing:
        where = "is missing" if not pyodide_dir.is_dir() else f"lacks {', '.join(missing)}"
        raise MissingRuntime(
            f"The Pyodide runtime for the web version {where} ({pyodide_dir}). "
            + GET_PYODIDE
            + ("" if shutil.which("npm") else " " + GET_NPM)
        )
    installed, pinned = package_version(pyodide_dir), pinned_version()
    if pinned is not None and installed != pinned:
        raise MissingRuntime(
            f"The Pyodide runtime in {pyodide_dir} is version {installed or 'unknown'}, but "
            f"oska_gui/web/package.json pins {pinned}. " + GET_PYODIDE
        )
    return paths


def package_version(package_dir: Path) -> str | None:
    """Return the ``version`` of the npm package in ``package_dir``, or None if unknown."""
    try:
        return json.loads((package_dir / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def pinned_version() -> str | None:
    """Return the Pyodide version ``oska_gui/web/package.json`` asks for, or None."""
    try:
        manifest = json.loads((WEB_DIR / "package.json").read_text(encoding="utf-8"))
        return manifest["dependencies"]["pyodide"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def browser_modules(root: Path = REPO_ROOT,
                    entries: tuple[str, ...] = ENTRY_MODULES) -> dict[str, Path]:
    """Return the project modules the page needs: ``entries`` and all they import, at any depth.

    Imports inside functions count too. Modules outside the project (the standard
    library, Pyodide's ``js``) are left out: the runtime has them. The data files
    they read at run time are listed apart, in ``RUNTIME_DATA``.

    Args:
        root: the folder holding the ``oska_gui`` package.
        entries: the dotted names of the modules the loader imports.

    Returns:
        Archive names (e.g. ``'oska_gui/games/oska.py'``) mapped to the source files.
    """
    finder = modulefinder.ModuleFinder(path=[str(root)])
    for entry in entries:
        finder.import_hook(entry)
    found = {}
    for module in finder.modules.values():
        # typeshed leaves out the undocumented Module.__file__ (None for built-ins)
        path = Path(getattr(module, "__file__", None) or "")
        if path.suffix == ".py" and path.is_relative_to(root):
            found[path.relative_to(root).as_posix()] = path
    return dict(sorted(found.items()))


def archive_files(root: Path = REPO_ROOT) -> dict[str, Path]:
    """Return every file of the Python archive: the page's modules and ``RUNTIME_DATA``."""
    return {**browser_modules(root), **{name: root / name for name in RUNTIME_DATA}}


def write_archive(target: Path, modules: dict[str, Path]) -> None:
    """Write the zip archive of Python source files the loader unpacks.

    Args:
        target: the zip file to (over)write.
        modules: archive names mapped to source files (see ``browser_modules``).
    """
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, path in modules.items():
            archive.write(path, name)


def site_inputs(pyodide_dir: Path | None = None) -> list[Path]:
    """Return every file the site is built from (static files, Python sources, runtime).

    Raises:
        MissingRuntime: when the Pyodide runtime is not installed.
    """
    static = [STATIC_DIR / name for name in (*STATIC_FILES, SERVICE_WORKER)]
    drawing = [Path(__file__), Path(icons.__file__)]  # the manifest, the icons' painter
    return [*static, *drawing, *archive_files().values(), *check_runtime(pyodide_dir)]


def is_up_to_date(out: Path, pyodide_dir: Path | None = None) -> bool:
    """Tell whether ``out`` holds a site built after its inputs last changed.

    Raises:
        MissingRuntime: when the Pyodide runtime is not installed.
    """
    try:
        sizes = json.loads((out / BUILD_INFO).read_text(encoding="utf-8"))["sizes"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    outputs = [out / name for name in built_files(sizes)]
    if not all(path.is_file() for path in outputs):
        return False
    built = min(path.stat().st_mtime for path in outputs)
    return all(path.stat().st_mtime <= built for path in site_inputs(pyodide_dir))


def built_files(names: Iterable[str]) -> list[str]:
    """Return every file a build writes into the site, given the names its info lists
    (``build.json``'s ``sizes``): those, their gzip copies, the info and the service
    worker. Nothing else in the site folder is the build's (the server sends nothing
    else)."""
    listed = list(names)
    return [*listed, *(f"{name}.gz" for name in listed if compresses(name)), SERVICE_WORKER,
            BUILD_INFO]


def compresses(name: str) -> bool:
    """Tell whether the site file ``name`` gets a gzip copy beside it."""
    return name.endswith(COMPRESSED_SUFFIXES)


def write_gzip_copy(path: Path) -> None:
    """Write ``path.gz``, a gzip copy of ``path`` that is the same on every build.

    The copy is written beside and then moved into place, so a server never answers
    with half of it (a browser would keep the truncated file as the build's).
    """
    with path.open("rb") as source, replacing(path.with_name(path.name + ".gz")) as file, \
            gzip.GzipFile(fileobj=file, mode="wb", compresslevel=9, mtime=0) as copy:
        shutil.copyfileobj(source, copy)


def css_hex(color: theme.Color) -> str:
    """Return the CSS ``#rrggbb`` form of an (r, g, b) colour."""
    return "#" + "".join(f"{channel:02x}" for channel in color[:3])


def web_manifest() -> str:
    """Return the web app manifest (JSON): what a browser needs to install the page.

    Start URL and scope are the site's folder, so the site works from any path; the
    colours are the game's table, which the page shows from its first paint.
    """
    manifest = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": APP_DESCRIPTION,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": css_hex(theme.BACKGROUND),
        "theme_color": css_hex(theme.BACKGROUND),
        "categories": ["games"],
        "icons": [{"src": icon.name, "sizes": f"{icon.size}x{icon.size}", "type": "image/png",
                   "purpose": icon.purpose} for icon in icons.site_icons()],
    }
    return json.dumps(manifest, indent=1)


def write_app_files(out: Path) -> list[str]:
    """Write the web app manifest and the icons into ``out``; return their file names."""
    (out / WEB_MANIFEST).write_text(web_manifest(), encoding="utf-8")
    return [WEB_MANIFEST, *icons.write_icons(out)]


def finish_site(out: Path, names: list[str]) -> None:
    """Write the gzip copies of the built ``names``, the build's info and the service worker.

    The build's id hashes every file's name and bytes, so any change makes a new id:
    a new service worker, a new cache and a new interpreter snapshot in the browser.
    The worker also carries the list of the build's files, which it keeps in its cache,
    their sizes (it keeps no file that arrives shorter or longer) and its shell; the
    build's info lists the files the loader downloads. The worker is written last, each
    file whole: a browser checks sw.js at any time and, finding it changed, downloads
    every file it names at once, so they must all be in place by then.

    Args:
        out: the site folder, already holding ``names``.
        names: the site's files, relative to ``out`` (``/``-separated).
    """
    digest = hashlib.sha256()
    for name in sorted(names):
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    build_id = digest.hexdigest()[:16]
    for name in names:
        if compresses(name):
            write_gzip_copy(out / name)
    sizes = {name: (out / name).stat().st_size for name in sorted(names)}
    downloads = [name for name in DOWNLOADS if name in sizes]
    info = json.dumps({"build": build_id, "sizes": sizes, "downloads": downloads}, indent=1)
    write_whole(out / BUILD_INFO, info)
    kept = {**sizes, BUILD_INFO: len(info.encode())}
    files = sorted(kept)
    shell = [name for name in files if name not in DOWNLOADS]
    worker = (STATIC_DIR / SERVICE_WORKER).read_text(encoding="utf-8")
    worker = worker.replace(BUILD_ID_MARK, build_id).replace(
        FILES_MARK, json.dumps(files)).replace(SHELL_MARK, json.dumps(shell)).replace(
        SIZES_MARK, json.dumps(kept))
    write_whole(out / SERVICE_WORKER, worker)


def build(out: Path = DEFAULT_OUT, pyodide_dir: Path | None = None) -> Path:
    """Build the static site into ``out`` (created if needed; other files there are kept).

    Args:
        out: the site folder.
        pyodide_dir: the npm package ``pyodide`` to copy the runtime from (default
            ``PYODIDE_DIR``).

    Returns:
        ``out``.

    Raises:
        MissingRuntime: when the Pyodide runtime is not installed.
    """
    runtime = check_runtime(pyodide_dir)
    (out / "pyodide").mkdir(parents=True, exist_ok=True)
    for path in runtime:
        shutil.copyfile(path, out / "pyodide" / path.name)
    for name in STATIC_FILES:
        shutil.copyfile(STATIC_DIR / name, out / name)
    write_archive(out / PYTHON_ARCHIVE, archive_files())
    names = [*STATIC_FILES, *write_app_files(out), PYTHON_ARCHIVE,
             *(f"pyodide/{path.name}" for path in runtime)]
    finish_site(out, names)
    return out
