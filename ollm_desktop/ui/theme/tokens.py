"""The window's measures: a type scale, a 4-px spacing grid and corner radii.

Plain numbers (no Qt), so a widget, the stylesheet and a test read the same values: a gap
is ``SPACE.m`` everywhere, never a hand-picked 7.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpacingGrid:
    """Multiples of 4 px: the gaps between and inside controls."""

    xs: int = 4
    s: int = 8
    m: int = 12
    l: int = 16  # noqa: E741 (the grid's usual name)
    xl: int = 24
    xxl: int = 32


@dataclass(frozen=True)
class TypeScale:
    """Point-size factors of the system's body font, so the user's font setting still rules."""

    caption: float = 0.85  # the model's name and time under a reply, hints
    body: float = 1.0
    subtitle: float = 1.15  # a panel's heading
    title: float = 1.45  # the first-run screen's heading
    display: float = 1.9

    def points(self, base: float, step: str) -> float:
        return round(base * float(getattr(self, step)), 1)


@dataclass(frozen=True)
class Radii:
    """Rounded surfaces: controls, cards and panels, the user's bubbles, pills."""

    control: int = 6
    surface: int = 10
    bubble: int = 14
    pill: int = 999


SPACE = SpacingGrid()
TYPE = TypeScale()
RADIUS = Radii()
# Replies wrap at a readable line length (in average characters of the body font).
READABLE_LINE_CHARS = 90
