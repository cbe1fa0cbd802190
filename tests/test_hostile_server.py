"""Hostile requests to the site's web server (issue 12, item 14; issue 21, item 5).

Every request gets an answer (never a dropped connection), only files inside the site
are ever sent, folders are not listed, and clients that hang up early leave no
traceback in the log; 200 connections at once are all served, and a silent one is
closed after the idle time-out. The server runs on a small fake site with a secret
file next to it, outside the site, that no request may reach.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oska_gui.web.serve import SiteServer, make_server

SECRET = b"the secret next to the site"
BIG = 4 * 1024 * 1024


@contextmanager
def running(server: SiteServer) -> Iterator[tuple[str, int]]:
    """Run ``server`` in a background thread for the block; yield its host and port."""
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server.server_address[:2]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a fake site (index, a big runtime file) with a secret file beside it."""
    root = tmp_path_factory.mktemp("served")
    (root / "secret.txt").write_bytes(SECRET)
    site_folder = root / "site"
    (site_folder / "pyodide").mkdir(parents=True)
    (site_folder / "index.html").write_text("<p>Oska</p>", encoding="utf-8")
    (site_folder / "pyodide" / "runtime.wasm").write_bytes(b"\0" * BIG)
    return site_folder


@pytest.fixture(scope="module")
def site(folder: Path) -> Iterator[tuple[str, int]]:
    """Serve the fake site from a background thread; yield the host and the port.

    The server writes errors on stderr, from the thread that handles the request (a
    test reads them with capsys).
    """
    with running(make_server(folder, 0, quiet=True)) as address:
        yield address


def get(site: tuple, raw_path: str) -> tuple[int, bytes]:
    """Send ``GET raw_path`` as written (no quoting) and return (status, body)."""
    host, port = site
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.putrequest("GET", raw_path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(("path", "status"), [
    ("/index.html%00.js", 400),
    ("/%00", 400),
    ("/%ed%a0%80", 400),
    ("/pyodide/", 404),
    ("/pyodide", 301),
    ("/nope.html", 404),
    ("/../secret.txt", 404),
    ("/%2e%2e/secret.txt", 404),
    ("/index.html", 200),
])
def test_each_request_gets_a_proper_answer(site: tuple, path: str, status: int) -> None:
    """A NUL byte or a lone surrogate is a 400 (it was no answer at all), a folder a 404
    (it was a listing), a way out of the site a 404."""
    answer, body = get(site, path)
    assert answer == status
    assert b"Directory listing" not in body and SECRET not in body


SEGMENTS = st.sampled_from(["..", ".", "%2e%2e", "%00", "%ff", "%ed%a0%80", "%2f", "pyodide",
                            "index.html", "secret.txt", "", "//", "\\", "~", "%5c", "a" * 300])
PATHS = (st.lists(SEGMENTS).map(lambda parts: "/" + "/".join(parts))
         | st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=40)
         .map(lambda text: "/" + text))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(path=PATHS)
def test_any_path_is_answered_and_stays_inside_the_site(site: tuple, path: str) -> None:
    """Generated paths: always an answer with a known status, never the secret."""
    status, body = get(site, path)
    assert status in (200, 301, 400, 404)
    assert SECRET not in body and b"Directory listing" not in body


def test_clients_that_hang_up_leave_no_traceback(site: tuple, capsys) -> None:
    """Clients that reset the connection in the middle of a big file (a reload, a closed
    tab) used to print ConnectionError tracebacks; the server stays quiet and serves on."""
    host, port = site
    for _ in range(5):
        client = socket.create_connection((host, port), timeout=10)
        client.sendall(b"GET /pyodide/runtime.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
        client.recv(100)
        # linger 0: close() sends a reset, as a browser tab that goes away does
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
    time.sleep(0.5)  # let the handler threads notice
    assert get(site, "/index.html")[0] == 200
    assert "Traceback" not in capsys.readouterr().err


def test_200_simultaneous_connections_are_all_served(site: tuple) -> None:
    """200 clients at once all get the page (with the standard queue of 5, 46 of 200 got
    no answer in 60 s, and the others waited for the system to retry them)."""
    clients = 200
    start = threading.Barrier(clients)
    statuses: list[int] = []

    def fetch() -> None:
        """Wait for every client, then fetch the index page once."""
        start.wait()
        with contextlib.suppress(OSError):  # a refused or timed-out connection: no status
            statuses.append(get(site, "/index.html")[0])

    threads = [threading.Thread(target=fetch) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * clients


def test_an_idle_connection_is_closed_after_the_time_out(folder: Path) -> None:
    """A client that connects and sends nothing, or stops half-way through its request,
    is disconnected after the idle time-out (1 s here) instead of holding a thread."""
    with running(make_server(folder, 0, quiet=True, idle_timeout=1.0)) as (host, port):
        for opening in (b"", b"GET /index.html HTTP/1.1\r\n"):
            with socket.create_connection((host, port), timeout=10) as client:
                client.sendall(opening)
                try:
                    assert client.recv(100) == b""  # the server closed the connection
                except TimeoutError:
                    pytest.fail("the idle connection was still open after 10 s")
        assert get((host, port), "/index.html")[0] == 200
