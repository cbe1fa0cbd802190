"""Oska in the browser: the project's own Python running in Pyodide on an HTML canvas.

``page`` is the browser front end (it imports Pyodide's ``js`` module, so it only runs in
the page); ``canvas2d``, ``dom_events`` and ``storage`` are its browser-free parts. The
host-side commands build and serve the static site: ``python -m oska_gui.web build`` and
``python -m oska_gui.web serve`` (see ``build`` and ``serve``).
"""
