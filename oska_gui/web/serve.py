"""Serve the built site on 127.0.0.1 with the standard library's HTTP server.

Only the local machine can connect. WebAssembly and JavaScript modules get the MIME
types browsers insist on, and every answer asks the browser to revalidate, so a rebuilt
site is picked up on reload. A browser that accepts gzip gets the build's gzip copy of a
file (``name.gz``) where there is one: the runtime travels at about half its size.
Only the site's files are served: a folder without an index page is a 404 (no
listings), a path no file can have (a NUL byte, say) a 400, and a client that hangs up
early is no error worth a traceback.

Many connections at once (a page loads dozens of files, several tabs reload) wait in a
queue of QUEUE_SIZE, not the standard library's 5 (past which a connection waits a
second or more for the system to retry it, or is never answered); a connection that
sends or takes nothing for IDLE_TIMEOUT seconds is closed, so a slow or silent client
cannot hold a thread for good.
"""

from __future__ import annotations

import functools
import os
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socketserver import BaseRequestHandler
from typing import Any, BinaryIO

HOST = "127.0.0.1"
# Connections waiting to be accepted: 200 clients at once still overflowed 128 now and
# then (a third of them waited 1 s for the system's retry); 1024 never did.
QUEUE_SIZE = 1024
IDLE_TIMEOUT = 30.0  # seconds a connection may send or take nothing before it is closed
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


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves files of one folder with the right MIME types and no stale caching."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def end_headers(self) -> None:
        """Add ``Cache-Control: no-cache`` to every answer, then end the headers."""
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> BinaryIO | None:
        """Answer the headers of a GET or HEAD; a path no file can have gets a 400.

        Returns the file to send, or None when the answer is complete.
        """
        try:
            return self.send_gzip_head() or super().send_head()
        except ValueError:  # open() refuses the path: a NUL byte, a lone surrogate
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None

    def send_gzip_head(self) -> BinaryIO | None:
        """Answer with the gzip copy of the file asked for, if the client takes gzip.

        Returns the open gzip copy to send, or None when there is none to send (the
        client does not accept gzip, or the file has no copy): the plain answer is due.
        """
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.endswith("/"):
            path = os.path.join(path, "index.html")
        if not (accepts_gzip(self.headers.get("Accept-Encoding", ""))
                and os.path.isfile(path) and os.path.isfile(path + ".gz")):
            return None
        copy = open(path + ".gz", "rb")  # noqa: SIM115 - the caller sends and closes it
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(os.fstat(copy.fileno()).st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return copy

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """Answer 404 for a folder without an index page: the site lists no folders."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")


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


class SiteServer(ThreadingHTTPServer):
    """The HTTP server of the site: a long queue, idle connections closed, and quiet
    about clients that hang up early or go silent.

    Attributes:
        idle_timeout: the seconds a connection may send or take nothing.
    """

    request_queue_size = QUEUE_SIZE

    def __init__(self, address: tuple[str, int], handler: Callable[..., BaseRequestHandler],
                 idle_timeout: float = IDLE_TIMEOUT) -> None:
        """Bind ``address`` for requests served by ``handler`` (see ``make_server``)."""
        self.idle_timeout = idle_timeout
        super().__init__(address, handler)

    def get_request(self) -> tuple[socket.socket, Any]:
        """Accept a connection and give it the idle time-out.

        A read or write that waits longer raises TimeoutError: a silent client's
        request is dropped (the handler closes the connection), a stalled download
        is ended.
        """
        connection, address = super().get_request()
        connection.settimeout(self.idle_timeout)
        return connection, address

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
    """Return an HTTP server for the folder ``site`` bound to 127.0.0.1.

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
    return SiteServer((HOST, port), functools.partial(handler, directory=str(site)),
                      idle_timeout)


def site_url(server: ThreadingHTTPServer) -> str:
    """Return the address of the site's page on ``server``."""
    host, port = server.server_address[:2]
    assert isinstance(host, str), host  # an AF_INET address: (host, port)
    return f"http://{host}:{port}/"


@contextmanager
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
