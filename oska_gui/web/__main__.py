"""Commands for the web version: ``python -m oska_gui.web build|serve``.

``build [--out DIR]`` writes the static site (default ``site/`` at the repo root).
``serve [--port P] [--out DIR]`` builds it if needed and serves it on 127.0.0.1 until
Ctrl+C, printing the address to open.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .build import DEFAULT_OUT, MissingRuntime, build, is_up_to_date
from .serve import make_server, site_url

DEFAULT_PORT = 8000


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Return the parsed command line (exits with a usage message when it is wrong).

    Args:
        argv: the arguments after the program name.
    """
    parser = argparse.ArgumentParser(
        prog="python -m oska_gui.web",
        description="Build or serve Oska's web version (Python in the browser via Pyodide).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build_cmd = commands.add_parser("build", help="build the static site folder")
    serve_cmd = commands.add_parser("serve", help="build if needed and serve on 127.0.0.1")
    for cmd in (build_cmd, serve_cmd):
        cmd.add_argument("--out", type=Path, default=DEFAULT_OUT,
                         help=f"site folder (default: {DEFAULT_OUT})")
    serve_cmd.add_argument("--port", type=int, default=DEFAULT_PORT,
                           help=f"TCP port (default: {DEFAULT_PORT}; 0 picks a free one)")
    args = parser.parse_args(argv)
    if args.command == "serve" and not 0 <= args.port <= 65535:
        parser.error(f"--port must be between 0 and 65535, got {args.port}")
    return args


def serve(out: Path, port: int) -> int:
    """Build ``out`` if it is stale, then serve it until interrupted.

    Args:
        out: the site folder.
        port: the TCP port on 127.0.0.1.

    Returns:
        The exit code: 0 after Ctrl+C, 1 if the port cannot be used.
    """
    if not is_up_to_date(out):
        print(f"Building the site in {out} ...", flush=True)
        build(out)
    try:
        server = make_server(out, port)
    except OSError as err:
        print(f"error: cannot serve on 127.0.0.1:{port}: {err.strerror or err}. "
              "Choose another port with --port.", file=sys.stderr)
        return 1
    with server:
        print(f"Oska is served at {site_url(server)}  (Ctrl+C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nStopped.")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
    """
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.command == "build":
            print(f"Site built in {build(args.out)}")
            return 0
        return serve(args.out, args.port)
    except MissingRuntime as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # e.g. --out names a file, or a folder that cannot be written
        print(f"error: cannot build the site in {args.out}: {err.strerror or err}",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
