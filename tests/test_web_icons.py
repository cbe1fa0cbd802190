"""The web app's icons: the software canvas they are painted on, and the PNG files."""

from __future__ import annotations

import io
import math

import pygame
import pytest

from oska_gui.ui.kit import theme
from oska_gui.web.icons import Icon, RasterCanvas, icon_png, site_icons


def alpha_at(canvas: RasterCanvas, x: int, y: int) -> int:
    """Return the opacity (0-255) of the pixel at (x, y)."""
    return canvas.pixels[(y * canvas.width + x) * 4 + 3]


def rgba_at(canvas: RasterCanvas, x: int, y: int) -> tuple[int, ...]:
    """Return the (r, g, b, a) of the pixel at (x, y)."""
    at = (y * canvas.width + x) * 4
    return tuple(canvas.pixels[at:at + 4])


def total_alpha(canvas: RasterCanvas) -> float:
    """Return the image's summed opacity in pixels (1 per opaque pixel)."""
    return sum(canvas.pixels[3::4]) / 255


def test_a_disc_covers_its_area_and_edge_pixels_partly() -> None:
    """A filled circle's summed coverage is its area; its edge is anti-aliased."""
    canvas = RasterCanvas(40, 40)
    canvas.circle(20, 20, 12.5, (255, 0, 0))
    assert total_alpha(canvas) == pytest.approx(math.pi * 12.5 ** 2, rel=0.01)
    assert rgba_at(canvas, 20, 20) == (255, 0, 0, 255)
    assert alpha_at(canvas, 0, 0) == 0
    assert 0 < alpha_at(canvas, 32, 20) < 255  # 12.5 px out: half the pixel


def test_a_ring_leaves_its_middle_empty() -> None:
    """An outlined circle covers only the band of its width."""
    canvas = RasterCanvas(40, 40)
    canvas.circle(20, 20, 15, (0, 0, 255), width=3)
    assert alpha_at(canvas, 20, 20) == 0
    assert alpha_at(canvas, 20, 6) == 255
    assert total_alpha(canvas) == pytest.approx(math.pi * (15 ** 2 - 12 ** 2), rel=0.02)


def test_rectangles_cover_fractions_of_pixels_and_round_their_corners() -> None:
    """A rectangle half over a column gives it half the opacity; rounding cuts corners."""
    canvas = RasterCanvas(10, 10)
    canvas.rect(2.5, 0, 3, 10, (255, 255, 255))
    assert [alpha_at(canvas, x, 5) for x in range(1, 7)] == [0, 128, 255, 255, 128, 0]
    rounded = RasterCanvas(20, 20)
    rounded.rect(0, 0, 20, 20, (255, 255, 255), radius=8)
    assert alpha_at(rounded, 0, 0) == 0 and alpha_at(rounded, 10, 10) == 255
    assert total_alpha(rounded) == pytest.approx(400 - (4 - math.pi) * 64, rel=0.01)


def test_translucent_colours_blend_over_what_is_there() -> None:
    """Half-transparent black over opaque white gives mid grey, still opaque."""
    canvas = RasterCanvas(4, 4)
    canvas.clear((255, 255, 255))
    canvas.rect(0, 0, 4, 4, (0, 0, 0, 128))
    assert rgba_at(canvas, 1, 1) == (127, 127, 127, 255)


def test_polygons_and_lines_fill_what_they_enclose() -> None:
    """A triangle covers half its bounding square; a line covers length x width."""
    canvas = RasterCanvas(20, 20)
    canvas.polygon([(0, 0), (20, 0), (0, 20)], (255, 255, 255))
    assert total_alpha(canvas) == pytest.approx(200, rel=0.01)
    line = RasterCanvas(20, 20)
    line.line(2, 10, 18, 10, (255, 255, 255), width=2)
    assert total_alpha(line) == pytest.approx(32, rel=0.01)


def test_text_is_refused_with_a_clear_error() -> None:
    """The icon canvas has no fonts: asking for text says so."""
    with pytest.raises(NotImplementedError, match="no fonts"):
        RasterCanvas(4, 4).text("Oska", 2, 2, 10, theme.TEXT)


@pytest.mark.parametrize("icon", [icon for icon in site_icons() if icon.size == 192],
                         ids=lambda icon: icon.name)
def test_icons_are_png_files_of_the_game_pieces(icon: Icon) -> None:
    """Each icon decodes as a PNG of its size showing a white piece and a black one;
    the maskable one is opaque to its edges, the other has transparent corners."""
    image = pygame.image.load(io.BytesIO(icon_png(icon)), icon.name)
    assert image.get_size() == (icon.size, icon.size)
    colors = {tuple(image.get_at((x, y)))[:3]
              for x in range(0, icon.size, 2) for y in range(0, icon.size, 2)}
    assert theme.PIECE_BODY[0] in colors and theme.PIECE_BODY[1] in colors
    corner = tuple(image.get_at((0, 0)))
    if icon.purpose == "maskable":
        assert corner == (*theme.BACKGROUND, 255)
    else:
        assert corner[3] == 0
