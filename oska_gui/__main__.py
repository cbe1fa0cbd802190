"""``python -m oska_gui``: the ``oska`` command line (see ``oska_gui.cli``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
