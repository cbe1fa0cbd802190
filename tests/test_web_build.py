"""Fast, browser-free tests of the web site build and the local server.

Those marked ``browser`` need the Pyodide runtime in ``oska_gui/web/node_modules``
(``python3 tests/run.py`` installs it); without it they fail with the build's own
how-to-get-it message.
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import socket
import struct
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from oska_gui.web import build as site
from oska_gui.web.serve import accepts_gzip, serving_in_background

REPO_ROOT = Path(__file__).resolve().parent.parent
HOST_ONLY = {"oska_gui/web/build.py", "oska_gui/web/serve.py", "oska_gui/web/__main__.py",
             "oska_gui/web/icons.py"}
# Scheme-qualified or protocol-relative addresses: anything that could leave the origin.
EXTERNAL_URL = re.compile(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", re.IGNORECASE)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site built once for this module."""
    return site.build(tmp_path_factory.mktemp("site"))


def shipped_names(out: Path) -> list[str]:
    """Return the file names inside the site's Python archive."""
    with zipfile.ZipFile(out / site.PYTHON_ARCHIVE) as archive:
        return archive.namelist()


def imported_modules(source: str) -> set[str]:
    """Return the top-level names of every module a Python source imports."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.browser
def test_build_writes_the_whole_site(built: Path) -> None:
    """The build writes the page, loader, worker, archive and an exact copy of the runtime."""
    for name in ("index.html", "loader.js", "python-files.js", "snapshot-worker.js", "sw.js",
                 "build.json", site.PYTHON_ARCHIVE, "manifest.webmanifest"):
        assert (built / name).is_file(), name
    runtime = sorted(p.name for p in (built / "pyodide").iterdir() if p.suffix != ".gz")
    assert runtime == sorted(site.RUNTIME_FILES)
    for name in site.RUNTIME_FILES:
        assert (built / "pyodide" / name).read_bytes() == (site.PYODIDE_DIR / name).read_bytes()


@pytest.mark.browser
def test_build_info_names_every_file_and_the_worker_carries_the_build_id(built: Path) -> None:
    """The build info's sizes are the files' own; sw.js holds its build id and the list
    of every file of the build, which it keeps in its cache."""
    manifest = json.loads((built / "build.json").read_text())
    icons = {icon.name for icon in site.icons.site_icons()}
    assert set(manifest["sizes"]) == {*site.STATIC_FILES, site.PYTHON_ARCHIVE,
                                      "manifest.webmanifest", *icons,
                                      *(f"pyodide/{name}" for name in site.RUNTIME_FILES)}
    for name, size in manifest["sizes"].items():
        assert (built / name).stat().st_size == size, name
    worker = (built / "sw.js").read_text()
    assert re.fullmatch(r"[0-9a-f]{16}", manifest["build"])
    assert f'const BUILD = "{manifest["build"]}";' in worker
    assert site.BUILD_ID_MARK not in worker
    files = re.search(r"^const FILES = (.*);$", worker, re.MULTILINE)
    assert files and json.loads(files[1]) == sorted([*manifest["sizes"], "build.json"])
    shell = re.search(r"^const SHELL = (.*);$", worker, re.MULTILINE)
    assert manifest["downloads"] == list(site.DOWNLOADS)
    assert shell and json.loads(shell[1]) == [
        name for name in json.loads(files[1]) if name not in site.DOWNLOADS]


@pytest.mark.browser
def test_the_worker_comes_last_and_knows_every_files_size(built: Path) -> None:
    """sw.js is written after every file it names (a browser that finds a new sw.js
    downloads them all at once: it used to find it while the gzip copies were being
    written and kept a cut-short runtime) and carries each file's size (it keeps no
    file that arrives with another); no half-written file is left beside the site."""
    worker = built / "sw.js"
    info = built / "build.json"
    sizes = json.loads(info.read_text())["sizes"]
    kept = re.search(r"^const SIZES = (.*);$", worker.read_text(), re.MULTILINE)
    assert kept and json.loads(kept[1]) == {**sizes, "build.json": info.stat().st_size}
    before = [info, *(built / f"{name}.gz" for name in sizes if site.compresses(name))]
    assert all(path.stat().st_mtime_ns <= worker.stat().st_mtime_ns for path in before)
    assert not list(built.rglob("*.partial"))


@pytest.mark.browser
def test_gzip_copies_hold_the_same_bytes_and_shrink_the_runtime(built: Path) -> None:
    """Every text and wasm file has an exact gzip copy; the zip archives have none."""
    sizes = json.loads((built / "build.json").read_text())["sizes"]
    plain = compressed = 0
    for name in sizes:
        copy = built / f"{name}.gz"
        if name.endswith((".zip", ".png")):  # packed already
            assert not copy.exists(), name
            continue
        assert gzip.decompress(copy.read_bytes()) == (built / name).read_bytes(), name
        plain += sizes[name]
        compressed += copy.stat().st_size
    assert compressed < 0.5 * plain


@pytest.mark.browser
def test_the_build_id_changes_with_any_file(tmp_path: Path) -> None:
    """Two builds of the same inputs share an id; a changed page gets a new one."""
    first = json.loads((site.build(tmp_path / "a") / "build.json").read_text())["build"]
    again = json.loads((site.build(tmp_path / "a") / "build.json").read_text())["build"]
    assert first == again
    site.finish_site(tmp_path / "a", ["index.html"])  # a different set of files
    other = json.loads((tmp_path / "a" / "build.json").read_text())["build"]
    assert other != first


@pytest.mark.browser
def test_archive_holds_the_core_ui_and_browser_backend(built: Path) -> None:
    """The archive holds the Python the page imports."""
    names = set(shipped_names(built))
    for needed in ("oska_gui/__init__.py", "oska_gui/games/oska.py", "oska_gui/engine/search.py",
                   "oska_gui/ui/__init__.py", "oska_gui/ui/kit/__init__.py",
                   "oska_gui/ui/kit/events.py", "oska_gui/ui/kit/canvas.py",
                   "oska_gui/web/__init__.py", "oska_gui/web/page.py",
                   "oska_gui/web/canvas2d.py", "oska_gui/engine/weights/5.model"):
        assert needed in names, needed
    assert all(name.endswith(".py") or name in site.RUNTIME_DATA for name in names)


@pytest.mark.browser
def test_archive_leaves_out_desktop_cli_and_host_tools(built: Path) -> None:
    """The archive leaves out what the browser does not import."""
    names = set(shipped_names(built))
    assert not names & HOST_ONLY
    assert not [n for n in names if n.startswith(("oska_gui/desktop/", "oska_gui/cli/"))]
    assert "oska_gui/bootstrap.py" not in names


@pytest.mark.browser
def test_shipped_python_never_imports_pygame(built: Path) -> None:
    """No shipped module imports pygame (Pyodide has none offline)."""
    with zipfile.ZipFile(built / site.PYTHON_ARCHIVE) as archive:
        for name in archive.namelist():
            if not name.endswith(".py"):
                continue  # the learned models are binary data, not code
            assert "pygame" not in imported_modules(archive.read(name).decode()), name


def test_imports_are_found_at_any_depth(tmp_path: Path) -> None:
    """Module discovery follows relative and function-level imports only."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "entry.py").write_text("def f():\n    from . import lazy\n    return lazy\n")
    (pkg / "lazy.py").write_text("from .deep import x\n")
    (pkg / "deep.py").write_text("import json\nx = 1\n")
    (pkg / "unused.py").write_text("")
    found = site.browser_modules(tmp_path, ("pkg.entry",))
    assert list(found) == ["pkg/__init__.py", "pkg/deep.py", "pkg/entry.py", "pkg/lazy.py"]


@pytest.mark.browser
def test_page_and_loader_name_no_outside_address(built: Path) -> None:
    """The page and loader name no address outside the site."""
    for name in (*site.STATIC_FILES, "sw.js"):
        text = (built / name).read_text(encoding="utf-8")
        assert not EXTERNAL_URL.search(text), (name, EXTERNAL_URL.search(text))
    assert 'indexURL: "./pyodide/"' in (built / "loader.js").read_text()


def test_missing_runtime_says_how_to_get_it(tmp_path: Path) -> None:
    """A missing or partial Pyodide install is named with the way to get it."""
    with pytest.raises(site.MissingRuntime, match=r"npm install --prefix oska_gui/web"):
        site.build(tmp_path / "out", pyodide_dir=tmp_path / "nowhere")
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "pyodide.js").write_text("")
    with pytest.raises(site.MissingRuntime, match=r"lacks pyodide\.mjs, .*python3 tests/run\.py"):
        site.check_runtime(partial)
    assert not (tmp_path / "out").exists()


@pytest.mark.browser
def test_a_runtime_of_another_version_is_refused(tmp_path: Path) -> None:
    """A Pyodide install that is not the pinned version is named as such."""
    for name in site.RUNTIME_FILES:
        (tmp_path / name).write_text("")
    (tmp_path / "package.json").write_text('{"name": "pyodide", "version": "0.1.0"}')
    pinned = site.pinned_version()
    assert pinned == site.package_version(site.PYODIDE_DIR)
    with pytest.raises(site.MissingRuntime, match=f"version 0.1.0, but .* pins {pinned}"):
        site.check_runtime(tmp_path)


def test_missing_npm_is_named_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without npm on PATH the message says to install Node.js and npm."""
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(site.MissingRuntime, match="install Node.js with npm"):
        site.check_runtime(tmp_path)


def test_command_line_reports_a_missing_runtime(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The build command prints the missing-runtime message and exits 1."""
    from oska_gui.web.__main__ import main

    monkeypatch.setattr(site, "PYODIDE_DIR", tmp_path / "no-pyodide")
    assert main(["build", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: The Pyodide runtime") and "npm install" in err


@pytest.mark.browser
def test_command_line_reports_an_unusable_site_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A site folder that is a file is a clear error, not a traceback."""
    from oska_gui.web.__main__ import main

    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    assert main(["build", "--out", str(not_a_folder)]) == 1
    assert capsys.readouterr().err.startswith(f"error: cannot build the site in {not_a_folder}")


@pytest.mark.browser
def test_up_to_date_only_after_a_build(tmp_path: Path) -> None:
    """A site counts as up to date only when built after its inputs changed."""
    out = tmp_path / "out"
    assert not site.is_up_to_date(out)
    site.build(out)
    assert site.is_up_to_date(out)
    os.utime(out / "loader.js", (0, 0))  # as if built before its sources last changed
    assert not site.is_up_to_date(out)


@pytest.fixture
def fake_site(tmp_path: Path) -> Iterator[str]:
    """A tiny build served on a free port of 127.0.0.1; yields its URL."""
    files = {"index.html": "<p>hi</p>", "a.wasm": "\0asm", "b.mjs": "export {}", "c.zip": "PK"}
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    site.finish_site(tmp_path, list(files))  # the gzip copies and the build's list
    with serving_in_background(tmp_path) as url:
        yield url


def test_server_sends_gzip_copies_to_browsers_that_take_them(fake_site: str) -> None:
    """With ``Accept-Encoding: gzip`` the gzip copy comes, typed as the file; else the file."""
    asked = urllib.request.Request(fake_site + "b.mjs", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(asked) as answer:
        assert answer.headers["Content-Encoding"] == "gzip"
        assert answer.headers.get_content_type() == "text/javascript"
        assert gzip.decompress(answer.read()) == b"export {}"
    with urllib.request.urlopen(fake_site + "b.mjs") as answer:
        assert answer.headers["Content-Encoding"] is None
        assert answer.read() == b"export {}"
    index = urllib.request.Request(fake_site, headers={"Accept-Encoding": "br, gzip"})
    with urllib.request.urlopen(index) as answer:
        assert gzip.decompress(answer.read()) == b"<p>hi</p>"


@pytest.mark.parametrize(("header", "takes"), [
    ("gzip", True), ("deflate, gzip;q=0.5", True), ("*", True), ("GZIP", True),
    ("", False), ("br", False), ("gzip;q=0", False), ("gzip; q=0.0", False),
    ("gzip;q=junk", False), ("identity", False),
])
def test_accept_encoding_is_read_with_its_weights(header: str, takes: bool) -> None:
    """``q=0`` refuses gzip, any other weight accepts it, junk weights refuse it."""
    assert accepts_gzip(header) is takes


@pytest.mark.parametrize(("name", "mime"), [
    ("index.html", "text/html"), ("a.wasm", "application/wasm"),
    ("b.mjs", "text/javascript"), ("c.zip", "application/zip"),
])
def test_server_sends_the_types_browsers_need(fake_site: str, name: str, mime: str) -> None:
    """The server answers with the MIME types browsers insist on, uncached."""
    assert fake_site.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(fake_site + name) as answer:
        assert answer.headers.get_content_type() == mime
        assert answer.headers["Cache-Control"] == "no-cache"


@pytest.mark.browser
def test_serve_command_builds_and_prints_the_address(tmp_path: Path) -> None:
    """`serve` builds a missing site, prints its URL and serves the page."""
    out = tmp_path / "site"
    proc = subprocess.Popen(
        [sys.executable, "-m", "oska_gui.web", "serve", "--port", "0", "--out", str(out)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        assert lines[0].startswith("Building the site in")
        url = re.search(r"http://127\.0\.0\.1:\d+/", lines[1])
        assert url, lines
        with urllib.request.urlopen(url.group(0)) as answer:
            assert b'src="loader.js"' in answer.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.browser
def test_serve_reports_a_port_in_use(tmp_path: Path) -> None:
    """A taken port gives a message suggesting another one, and exit code 1."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "oska_gui.web", "serve", "--port", str(port),
             "--out", str(tmp_path / "site")],
            cwd=REPO_ROOT, capture_output=True, text=True, check=False, timeout=60,
        )
    assert result.returncode == 1
    assert f"cannot serve on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr


def test_serve_rejects_a_bad_port() -> None:
    """An impossible port is a usage error, not a crash."""
    result = subprocess.run(
        [sys.executable, "-m", "oska_gui.web", "serve", "--port", "70000"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 2 and "--port must be between 0 and 65535" in result.stderr


@pytest.mark.browser
def test_the_web_app_manifest_names_the_app_and_its_icons(built: Path) -> None:
    """The web app manifest has what Chromium asks of an installable app: a name, a
    standalone display, start URL and scope, colours, and PNG icons of 192 and 512
    pixels for any use and maskable, each file really that size."""
    manifest = json.loads((built / "manifest.webmanifest").read_text())
    assert manifest["name"] == manifest["short_name"] == "Oska"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["background_color"] == manifest["theme_color"] == "#1e2229"
    found = set()
    for icon in manifest["icons"]:
        png = (built / icon["src"]).read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and icon["type"] == "image/png"
        width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk's first fields
        assert icon["sizes"] == f"{width}x{height}"
        found.add((width, icon["purpose"]))
    assert found == {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")}
    page = (built / "index.html").read_text()
    assert '<link rel="manifest" href="manifest.webmanifest">' in page


def test_the_server_types_the_manifest_and_icons(tmp_path: Path) -> None:
    """The manifest and the icons are served with their own MIME types."""
    (tmp_path / "manifest.webmanifest").write_text("{}")
    (tmp_path / "icon.png").write_bytes(b"\x89PNG")
    site.finish_site(tmp_path, ["manifest.webmanifest", "icon.png"])
    with serving_in_background(tmp_path) as url:
        for name, mime in (("manifest.webmanifest", "application/manifest+json"),
                           ("icon.png", "image/png")):
            with urllib.request.urlopen(url + name) as answer:
                assert answer.headers.get_content_type() == mime
