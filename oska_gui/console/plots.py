"""Plots for the commands' HTML pages: matplotlib (the ``report`` extra) as inline SVG."""

from __future__ import annotations

import io
from typing import Any

from .options import CliError


def require_matplotlib(option: str) -> None:
    """Raise CliError naming ``option`` and the extra to install, unless matplotlib imports.

    Args:
        option: the option that needs it, e.g. '--html'.
    """
    try:
        import matplotlib  # noqa: F401 (only whether it imports)
    except ImportError:
        raise CliError(f"{option} needs matplotlib: install the report extra "
                       "(pip install 'oska-gui[report]')") from None


def plain_text_style() -> Any:
    """Return a context in which matplotlib draws with its default settings, whatever the
    user's matplotlibrc says, and every text as written: no '$' read as mathtext (names
    are file names, and ``x$_$.py`` would not parse)."""
    from matplotlib import style  # the report extra; checked before the run

    return style.context(["default", {"text.parse_math": False}])


def inline_svg(figure: Any) -> str:
    """Return a matplotlib ``figure`` as an ``<svg>`` element to put in a page.

    Text is drawn as paths and the date left out, so the page needs no fonts and the
    same figure always gives the same text.
    """
    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = out.getvalue()
    return svg[svg.index("<svg"):]  # without the XML declaration and DOCTYPE
