"""Serve the built site on 127.0.0.1 with the standard library's HTTP server.

Only the local machine can connect. WebAssembly and JavaScript modules get the MIME
types browsers insist on, and every answer asks the browser to revalidate, so a rebuilt
site is picked up on reload.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HOST = "127.0.0.1"
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
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


class QuietSiteHandler(SiteHandler):
    """A ``SiteHandler`` that does not log each request (for tests)."""

    def log_message(self, format: str, *args: object) -> None:
        """Drop the log line."""


def make_server(site: Path, port: int = 0, quiet: bool = False) -> ThreadingHTTPServer:
    """Return an HTTP server for the folder ``site`` bound to 127.0.0.1.

    Args:
        site: the built site folder.
        port: the TCP port; 0 picks a free one (read it from ``server_address``).
        quiet: if True, requests are not logged to stderr.

    Returns:
        The server, bound but not yet serving (call ``serve_forever``).

    Raises:
        OSError: when the port is taken or cannot be bound.
    """
    handler = QuietSiteHandler if quiet else SiteHandler
    return ThreadingHTTPServer((HOST, port), functools.partial(handler, directory=str(site)))


def site_url(server: ThreadingHTTPServer) -> str:
    """Return the address of the site's page on ``server``."""
    host, port = server.server_address[:2]
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
