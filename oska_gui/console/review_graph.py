"""The review page's graph: White's win chance position by position, as inline SVG.

Drawn by hand rather than with a plotting library, so that the page knows where each
position's point lies (``graph_x``): its script turns a click on the graph into the
nearest position and moves the line of the position shown (the element with the id
'graph-cursor'). The bad moves are dots in their mark's colour at the position they
led to, each with a title naming it; the texts are real text in the page's font, so
the graph stays small.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 400.0, 160.0  # the graph's size in its own units (it scales to its box)
LEFT, RIGHT, TOP, BOTTOM = 46.0, 8.0, 8.0, 30.0  # room for the axes' labels
DOT = 4.5  # a marked move's dot radius
TICK_STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
MOST_TICKS = 8
GRAPH_STYLE = """
.graph { width: 100%; height: auto; display: block; cursor: pointer; }
.graph text { font: 12px system-ui, sans-serif; fill: #444; }
.graph .area { fill: #e4e4e4; }
.graph .line { fill: none; stroke: #333; stroke-width: 1.5; }
.graph .axis { stroke: #999; stroke-width: 1; }
.graph .even { stroke: #999; stroke-dasharray: 4 3; }
.graph #graph-cursor { stroke: #1f5fbf; stroke-width: 2; }
"""


def graph_x(index: int, last: int) -> float:
    """Return the x of position ``index`` of ``last`` + 1 on the graph."""
    return LEFT + index * plot_step(last)


def plot_step(last: int) -> float:
    """Return the x distance between two positions when the last one is ``last``."""
    return (WIDTH - LEFT - RIGHT) / max(1, last)


def graph_y(chance: float) -> float:
    """Return the y of White's win chance ``chance`` (0..1) on the graph."""
    return TOP + (1.0 - chance) * (HEIGHT - TOP - BOTTOM)


def graph_svg(chances: Sequence[float], dots: Sequence[tuple[int, str, str]],
              title: str) -> str:
    """Return the graph as an ``<svg>`` element.

    Args:
        chances: White's win chance at each position, 0..1, the start first.
        dots: the marked moves, each as (the position it led to, its mark's word for
            the dot's class, the dot's title).
        title: what a screen reader says for the whole graph.

    Returns:
        The SVG text: the area under White's chance, the line, the 50 % line, the axes
        with their labels, the dots and the line of the position shown (at the start;
        of class 'js-only', as only a script moves it).
    """
    last = len(chances) - 1
    points = [(graph_x(i, last), graph_y(chance)) for i, chance in enumerate(chances)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    base = graph_y(0.0)
    parts = [f"<title>{escape(title)}</title>",
             f'<polygon class="area" points="{LEFT:.1f},{base:.1f} {line} '
             f'{points[-1][0]:.1f},{base:.1f}"/>',
             f'<polyline class="line" points="{line}"/>',
             _rule("even", graph_y(0.5)), _rule("axis", base), *_labels(last)]
    for index, mark, text in dots:
        x, y = points[index]
        parts.append(f'<circle class="dot {mark}" cx="{x:.1f}" cy="{y:.1f}" r="{DOT}">'
                     f"<title>{escape(text)}</title></circle>")
    parts.append(f'<line id="graph-cursor" class="js-only" x1="{LEFT:.1f}" x2="{LEFT:.1f}" '
                 f'y1="{TOP:.1f}" y2="{base:.1f}"/>')
    return (f'<svg class="graph" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" role="img">'
            + "".join(parts) + "</svg>")


def _rule(kind: str, y: float) -> str:
    """Return a horizontal line of class ``kind`` across the plot at ``y``."""
    return f'<line class="{kind}" x1="{LEFT:.1f}" x2="{WIDTH - RIGHT:.1f}" y1="{y:.1f}" ' \
           f'y2="{y:.1f}"/>'


def _labels(last: int) -> list[str]:
    """Return the axes' labels: 0, 50 and 100 % up the left, the position numbers
    (at most ``MOST_TICKS``, a round step apart) along the bottom, and 'ply'."""
    labels = [f'<text x="{LEFT - 4:.1f}" y="{graph_y(chance) + 4:.1f}" '
              f'text-anchor="end">{100 * chance:.0f} %</text>' for chance in (0.0, 0.5, 1.0)]
    step = next((s for s in TICK_STEPS if last / s < MOST_TICKS), TICK_STEPS[-1])
    base = graph_y(0.0)
    for index in range(0, last + 1, step):
        labels.append(f'<text x="{graph_x(index, last):.1f}" y="{base + 14:.1f}" '
                      f'text-anchor="middle">{index}</text>')
    labels.append(f'<text x="{WIDTH - RIGHT:.1f}" y="{HEIGHT - 2:.1f}" '
                  'text-anchor="end">ply</text>')
    return labels
