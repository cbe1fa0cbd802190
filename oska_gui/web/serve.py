"""Serve the built site on 127.0.0.1 with the standard library's HTTP server.

Only the local machine can connect. WebAssembly and JavaScript modules get the MIME
types browsers insist on, and every answer asks the browser to revalidate, so a rebuilt
site is picked up on reload. A browser that accepts gzip gets the build's gzip copy of a
file (``name.gz``) where there is one: the runtime travels at about half its size.
Only the files the build wrote are served (``build.json`` lists them; ``BuiltFiles``),
and only when reached without a symbolic link: anything else in the site folder, a link
(``site/evil -> /etc``) and a folder are a 404 (no listings), a path no file can have
(a NUL byte, say) a 400, and a client that hangs up early is no error worth a traceback.

Many connections at once (a page loads dozens of files, several tabs reload) wait in a
queue of QUEUE_SIZE, not the standard library's 5 (past which a connection waits a
second or more for the system to retry it, or is never answered); a connection that
sends or takes nothing for IDLE_TIMEOUT seconds is closed, so a silent client cannot
hold a thread for good. Clients that trickle their requests (a byte every few seconds)
are never idle that long, so connections are also capped below the process's descriptor
limit (``connection_cap``): when full, the one that has waited longest for its request
to arrive is closed for the new one (the oldest, if all are being answered). The
descriptors never run out, and the server never spins on failed accepts.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import posixpath
import socket
import stat
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socketserver import BaseRequestHandler
from typing import Any, BinaryIO

from .build import BUILD_INFO, built_files

HOST = "127.0.0.1"
# Connections waiting to be accepted: 200 clients at once still overflowed 128 now and
# then (a third of them waited 1 s for the system's retry); 1024 never did.
QUEUE_SIZE = 1024
IDLE_TIMEOUT = 30.0  # seconds a connection may send or take nothing before it is closed
MAX_CONNECTIONS = 512  # connections served at once (each holds a thread), at most
# Descriptors kept free of connections: the listening socket, stdio, the selector, the
# build's info being read, and connections closed but not yet let go of by their thread.
RESERVED_DESCRIPTORS = 48
DESCRIPTORS_PER_CONNECTION = 2  # its socket, and the file it is sent
OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE)
ACCEPT_PAUSE = 0.05  # seconds to wait after an accept failed for want of descriptors
MAX_INFO_BYTES = 1024 * 1024  # the build's info is a few kB
# Opening a site file never follows a last link, nor waits (a FIFO put in the site).
OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
              | getattr(os, "O_CLOEXEC", 0))
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".zip": "application/zip",
    ".html": "text/html",
}


def site_name(url_path: str) -> str:
    """Return the name in the site ('pyodide/pyodide.asm.wasm') that a request's path
    asks for: its query and fragment dropped, percent-escapes decoded, '.' and '..'
    resolved inside the site; a folder's name with '/index.html' added.

    Raises:
        ValueError: for a name no file can have (a NUL byte, a lone surrogate).
    """
    path = url_path.split("?", 1)[0].split("#", 1)[0]
    try:
        path = urllib.parse.unquote(path, errors="surrogatepass")
    except UnicodeDecodeError:  # bytes that are no UTF-8 at all: a name nothing has
        path = urllib.parse.unquote(path)
    if "\0" in path:
        raise ValueError("a NUL byte in the path")
    path.encode("utf-8")  # UnicodeEncodeError (a ValueError) for a lone surrogate
    name = posixpath.normpath("/" + path).lstrip("/")
    return posixpath.join(name, "index.html") if not name or path.endswith("/") else name


class BuiltFiles:
    """The files a build wrote into a site folder, as its ``build.json`` lists them (read
    again whenever it changes: a rebuild while serving is picked up)."""

    def __init__(self, site: Path) -> None:
        """Follow the build in the folder ``site``."""
        self.root = os.path.realpath(site)
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None  # build.json's inode, size, mtime
        self._names: frozenset[str] = frozenset()

    def names(self) -> frozenset[str]:
        """Return the names of the build's files ('' for none: no build, or an info that
        is no build's)."""
        try:
            info = os.stat(os.path.join(self.root, BUILD_INFO), follow_symlinks=False)
        except OSError:
            return frozenset()
        key = (info.st_ino, info.st_size, info.st_mtime_ns)
        with self._lock:
            if key != self._seen:
                self._names = frozenset(built_files(self._listed()))
                self._seen = key
            return self._names

    def _listed(self) -> list[str]:
        """Return the names ``build.json`` lists (its ``sizes``); none when it cannot be
        read as a build's info."""
        file = self.open(BUILD_INFO)
        if file is None:
            return []
        with file:
            raw = file.read(MAX_INFO_BYTES + 1)
        try:
            sizes = json.loads(raw)["sizes"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return []
        if len(raw) > MAX_INFO_BYTES or not isinstance(sizes, dict):
            return []
        return [name for name in sizes if isinstance(name, str)]

    def serves(self, name: str) -> bool:
        """Tell whether the site file ``name`` ('/'-separated) is one of the build's."""
        return name in self.names()

    def open(self, name: str) -> BinaryIO | None:
        """Return the site file ``name`` open for reading, or None unless it is a regular
        file reached from the site folder without any symbolic link (one put in the site
        could lead anywhere)."""
        path = os.path.join(self.root, *name.split("/"))
        if os.path.realpath(path) != path:  # a link on the way, or a way out of the site
            return None
        try:
            descriptor = os.open(path, OPEN_FLAGS)
        except OSError:
            return None
        file = open(descriptor, "rb")  # noqa: SIM115 - the caller sends and closes it
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            file.close()
            return None
        return file


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the build's files of one folder with the right MIME types and no stale
    caching."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def __init__(self, *args: Any, built: BuiltFiles, **kwargs: Any) -> None:
        """Serve the files ``built`` lists (the other arguments: the base class's)."""
        self.built = built
        super().__init__(*args, **kwargs)

    def end_headers(self) -> None:
        """Add ``Cache-Control: no-cache`` to every answer, then end the headers."""
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def parse_request(self) -> bool:
        """Read the request's line and headers, then tell the server the request has
        arrived (the connection is no longer one that trickles it)."""
        parsed = super().parse_request()
        if isinstance(self.server, SiteServer):
            self.server.request_arrived(self.connection)
        return parsed

    def send_head(self) -> BinaryIO | None:
        """Answer the headers of a GET or HEAD: the build's file (its gzip copy for a
        client that takes gzip), a 404 for anything else, a 400 for a path no file can
        have.

        Returns the file to send, or None when the answer is complete.
        """
        try:
            name = site_name(self.path)
        except ValueError:
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None
        file, gzipped = None, False
        if self.built.serves(name):
            if (accepts_gzip(self.headers.get("Accept-Encoding", ""))
                    and self.built.serves(f"{name}.gz")):
                file = self.built.open(f"{name}.gz")
                gzipped = file is not None
            if file is None:  # no copy, or none there (it was deleted): the file itself
                file = self.built.open(name)
        if file is None:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", self.guess_type(name))
            if gzipped:
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
            self.end_headers()
        except BaseException:
            file.close()
            raise
        return file


def accepts_gzip(accept_encoding: str) -> bool:
    """Tell whether an ``Accept-Encoding`` header value allows gzip (``q=0`` refuses it)."""
    for item in accept_encoding.lower().split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        if coding in ("gzip", "x-gzip", "*"):
            qualities = [param[2:] for param in params if param.startswith("q=")]
            try:
                return not qualities or float(qualities[0]) > 0
            except ValueError:
                return False
    return False


def connection_cap() -> int:
    """Return how many connections may be open at once: ``MAX_CONNECTIONS``, or fewer
    when the process's descriptor limit leaves room for fewer (each takes its socket and
    the file it is sent, beside ``RESERVED_DESCRIPTORS``)."""
    if sys.platform == "win32":  # no such limit to read
        return MAX_CONNECTIONS
    import resource  # Unix only

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    room = (soft - RESERVED_DESCRIPTORS) // DESCRIPTORS_PER_CONNECTION
    return max(1, min(MAX_CONNECTIONS, room))


@dataclass
class Connection:
    """An open connection as the server follows it."""

    opened: float  # time.monotonic() when it was accepted
    waiting: bool = True  # its request has not arrived whole yet


class SiteServer(ThreadingHTTPServer):
    """The HTTP server of the site: a long queue, idle connections closed, connections
    capped below the descriptor limit, and quiet about clients that hang up early or go
    silent.

    Attributes:
        idle_timeout: the seconds a connection may send or take nothing.
        max_connections: the connections open at once, at most (``connection_cap``).
    """

    request_queue_size = QUEUE_SIZE

    def __init__(self, address: tuple[str, int], handler: Callable[..., BaseRequestHandler],
                 idle_timeout: float = IDLE_TIMEOUT) -> None:
        """Bind ``address`` for requests served by ``handler`` (see ``make_server``)."""
        self.idle_timeout = idle_timeout
        self.max_connections = connection_cap()
        self._connections: dict[socket.socket, Connection] = {}
        self._connections_lock = threading.Lock()
        super().__init__(address, handler)

    def get_request(self) -> tuple[socket.socket, Any]:
        """Accept a connection, give it the idle time-out and make room for it.

        A read or write that waits longer raises TimeoutError: a silent client's
        request is dropped (the handler closes the connection), a stalled download
        is ended. With ``max_connections`` open, the slowest is closed first
        (``_drop_slowest``). When the process has no descriptor left for the
        connection (some other file holds them), the slowest is closed and the server
        pauses a moment: the connection waits in the queue, and the loop does not spin
        on an accept that fails at once.
        """
        try:
            connection, address = super().get_request()
        except OSError as err:
            if err.errno in OUT_OF_DESCRIPTORS:
                with self._connections_lock:
                    self._drop_slowest()
                time.sleep(ACCEPT_PAUSE)
            raise  # the server drops this attempt quietly and accepts again
        connection.settimeout(self.idle_timeout)
        with self._connections_lock:
            if len(self._connections) >= self.max_connections:
                self._drop_slowest()
            self._connections[connection] = Connection(time.monotonic())
        return connection, address

    def _drop_slowest(self) -> None:
        """Close the connection that has waited longest for its request to arrive (a
        client trickling it), else the oldest; its thread then lets it go. The caller
        holds the lock."""
        if not self._connections:
            return
        slowest = min(self._connections, key=lambda sock: (
            not self._connections[sock].waiting, self._connections[sock].opened))
        del self._connections[slowest]
        with contextlib.suppress(OSError):  # already closed by its client
            slowest.shutdown(socket.SHUT_RDWR)  # its thread's read or write ends at once

    def request_arrived(self, connection: socket.socket) -> None:
        """Note that ``connection``'s request has arrived whole (it is being answered)."""
        with self._connections_lock:
            known = self._connections.get(connection)
            if known is not None:
                known.waiting = False

    def shutdown_request(self, request: Any) -> None:
        """Forget the connection, then close it."""
        with self._connections_lock:
            self._connections.pop(request, None)
        super().shutdown_request(request)

    @property
    def open_connections(self) -> int:
        """Return how many connections are open (accepted and not closed yet)."""
        with self._connections_lock:
            return len(self._connections)

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket],
                     client_address: tuple) -> None:
        """Report a failed request, unless the client closed the connection or went idle."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):  # a closed tab
            return
        super().handle_error(request, client_address)


class QuietSiteHandler(SiteHandler):
    """A ``SiteHandler`` that does not log each request (for tests)."""

    def log_message(self, format: str, *args: object) -> None:
        """Drop the log line."""


def make_server(site: Path, port: int = 0, quiet: bool = False,
                idle_timeout: float = IDLE_TIMEOUT) -> SiteServer:
    """Return an HTTP server for the build in the folder ``site`` bound to 127.0.0.1.

    Args:
        site: the built site folder.
        port: the TCP port; 0 picks a free one (read it from ``server_address``).
        quiet: if True, requests are not logged to stderr.
        idle_timeout: the seconds after which a connection that sends or takes
            nothing is closed.

    Returns:
        The server, bound but not yet serving (call ``serve_forever``).

    Raises:
        OSError: when the port is taken or cannot be bound.
    """
    handler = QuietSiteHandler if quiet else SiteHandler
    return SiteServer((HOST, port), functools.partial(handler, directory=str(site),
                                                      built=BuiltFiles(site)),
                      idle_timeout)


def site_url(server: ThreadingHTTPServer) -> str:
    """Return the address of the site's page on ``server``."""
    host, port = server.server_address[:2]
    assert isinstance(host, str), host  # an AF_INET address: (host, port)
    return f"http://{host}:{port}/"


@contextlib.contextmanager
def serving_in_background(site: Path) -> Iterator[str]:
    """Serve ``site`` quietly on a free port of 127.0.0.1 from a background thread.

    For programs that drive a browser themselves (the tests). Yields the site's URL;
    the server stops when the block ends.
    """
    server = make_server(site, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield site_url(server)
    finally:
        server.shutdown()
        server.server_close()
