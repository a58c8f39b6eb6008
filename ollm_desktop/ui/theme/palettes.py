"""The light and dark palettes: named colours, the QPalette built from them, and the pairs of
text and background the contrast test checks (WCAG AA, 4.5:1 for every text colour).

Colours are plain hex strings so the stylesheet, the palette and the test share one source.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from PySide6.QtGui import QColor, QPalette


@dataclass(frozen=True)
class Colors:
    """One scheme's colours, named by what they are for."""

    window: str  # the window's background (chat list, status bar)
    surface: str  # inputs, the conversation, cards
    surface_alt: str  # alternating rows, the user's bubbles
    raised: str  # buttons, menus
    border: str
    text: str
    text_secondary: str  # the model's name and time, hints, placeholders
    accent: str  # the default button, selection, focus ring
    on_accent: str  # text on the accent
    link: str
    tooltip: str
    on_tooltip: str
    error_text: str  # a message the user must act on, as text
    warn_text: str
    ok_text: str
    disabled_text: str  # WCAG exempts disabled controls; kept readable anyway (>= 3:1)


LIGHT = Colors(
    window="#f5f6f8", surface="#ffffff", surface_alt="#eef1f5", raised="#ffffff",
    border="#d5d9e0", text="#1b1f24", text_secondary="#5a636e", accent="#2458d3",
    on_accent="#ffffff", link="#1f4fbf", tooltip="#2b2f36", on_tooltip="#f5f6f8",
    error_text="#b3261e", warn_text="#8a5300", ok_text="#1f7a37", disabled_text="#8c939c",
)
DARK = Colors(
    window="#1c1d20", surface="#141518", surface_alt="#26282d", raised="#2a2c31",
    border="#3a3d44", text="#e7e9ec", text_secondary="#a3a9b2", accent="#2f63d8",
    on_accent="#ffffff", link="#8fb4ff", tooltip="#e7e9ec", on_tooltip="#1c1d20",
    error_text="#ff8c82", warn_text="#f0b45a", ok_text="#6fd08c", disabled_text="#7a8089",
)

# Every text colour and the backgrounds it is drawn on (the contrast test walks these).
TEXT_ON: dict[str, tuple[str, ...]] = {
    "text": ("window", "surface", "surface_alt", "raised"),
    "text_secondary": ("window", "surface", "surface_alt", "raised"),
    "link": ("window", "surface", "surface_alt"),
    "on_accent": ("accent",),
    "on_tooltip": ("tooltip",),
    "error_text": ("window", "surface", "surface_alt"),
    "warn_text": ("window", "surface", "surface_alt"),
    "ok_text": ("window", "surface", "surface_alt"),
}


def relative_luminance(hex_color: str) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""
    color = QColor(hex_color)
    channels = []
    for value in (color.redF(), color.greenF(), color.blueF()):
        channels.append(value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(foreground: str, background: str) -> float:
    lighter, darker = sorted((relative_luminance(foreground), relative_luminance(background)),
                             reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def colors_for(dark: bool) -> Colors:
    return DARK if dark else LIGHT


def color_names() -> tuple[str, ...]:
    return tuple(field.name for field in fields(Colors))


def build_palette(c: Colors) -> QPalette:
    """A QPalette for Fusion from the scheme's colours (every role Fusion draws with)."""
    role = QPalette.ColorRole
    p = QPalette()
    roles = {
        role.Window: c.window, role.WindowText: c.text, role.Base: c.surface,
        role.AlternateBase: c.surface_alt, role.ToolTipBase: c.tooltip,
        role.ToolTipText: c.on_tooltip, role.PlaceholderText: c.text_secondary,
        role.Text: c.text, role.Button: c.raised, role.ButtonText: c.text,
        role.BrightText: c.error_text, role.Light: c.raised, role.Midlight: c.surface_alt,
        role.Mid: c.border, role.Dark: c.border, role.Shadow: "#000000",
        role.Highlight: c.accent, role.HighlightedText: c.on_accent, role.Link: c.link,
        role.LinkVisited: c.link, role.Accent: c.accent,
    }
    for palette_role, hex_color in roles.items():
        p.setColor(palette_role, QColor(hex_color))
    for palette_role in (role.Text, role.WindowText, role.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, palette_role, QColor(c.disabled_text))
    return p
