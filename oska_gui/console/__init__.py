"""What every command-line front end shares: argument types, errors, progress bars, tables.

Neutral ground for ``cli/``, ``tournament/``, ``tools/`` and the desktop's options, so
that none of them imports another as a library.
"""
