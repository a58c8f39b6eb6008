"""Application look: Fusion style, light/dark palettes and status colours readable on both.

Widgets take colours from palette roles; only the status colours (ok / warn / over ...) are
fixed, picked mid-tone so they stay legible on a light and on a dark window background.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

ThemeName = Literal["system", "light", "dark"]

# Mid-tone status colours for dots, bars and borders (not body text): visible on both a light
# and a dark window background.
STATUS_COLORS: dict[str, str] = {
    "ok": "#2f9e44",
    "high": "#2f9e44",
    "medium": "#c99a06",
    "warn": "#d9822b",
    "low": "#e8590c",
    "over": "#e03131",
    "critical": "#e03131",
    "info": "#1c7ed6",
    "idle": "#868e96",
}

_system_hook_installed = False
_current_theme: ThemeName = "system"


def status_color(name: str) -> QColor:
    """The status colour for a level or state name; grey for anything unknown."""
    return QColor(STATUS_COLORS.get(name, STATUS_COLORS["idle"]))


def tinted(name: str, alpha: int = 38) -> str:
    """A translucent status colour for backgrounds (CSS rgba), so text keeps its palette colour."""
    color = status_color(name)
    return f"rgba({color.red()}, {color.green()}, {color.blue()}, {alpha})"


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    """A neutral dark palette for Fusion (platform themes may not provide one)."""
    p = QPalette()
    window, base, text = QColor("#2b2d30"), QColor("#1e1f22"), QColor("#e6e6e6")
    disabled = QColor("#7f8388")
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor("#26282b"),
        QPalette.ColorRole.ToolTipBase: QColor("#3c3f41"),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: disabled,
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor("#3a3c40"),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor("#ff6b6b"),
        QPalette.ColorRole.Light: QColor("#4a4d52"),
        QPalette.ColorRole.Midlight: QColor("#404246"),
        QPalette.ColorRole.Mid: QColor("#33353a"),
        QPalette.ColorRole.Dark: QColor("#18191b"),
        QPalette.ColorRole.Shadow: QColor("#000000"),
        QPalette.ColorRole.Highlight: QColor("#3d7bd9"),
        QPalette.ColorRole.HighlightedText: QColor("#ffffff"),
        QPalette.ColorRole.Link: QColor("#6ea8fe"),
        QPalette.ColorRole.LinkVisited: QColor("#b197fc"),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


def _scheme(theme: ThemeName) -> Qt.ColorScheme:
    return {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}.get(
        theme, Qt.ColorScheme.Unknown)


def _apply_palette(app: QApplication, theme: ThemeName) -> None:
    """Start from the platform palette (keeps the user's colours); replace it only when its
    lightness contradicts the requested or reported scheme (platforms without dark support)."""
    app.setPalette(QPalette())  # back to the platform's palette
    platform_dark = is_dark(app.palette())
    want_dark = theme == "dark" or (
        theme == "system" and app.styleHints().colorScheme() == Qt.ColorScheme.Dark)
    want_light = theme == "light"
    if want_dark and not platform_dark:
        app.setPalette(dark_palette())
    elif want_light and platform_dark:
        palette = app.style().standardPalette()
        app.setPalette(palette if not is_dark(palette) else QPalette(QColor("#efefef")))


def _on_scheme_changed(_scheme_value: Qt.ColorScheme) -> None:
    app = QApplication.instance()
    if isinstance(app, QApplication) and _current_theme == "system":
        _apply_palette(app, "system")


def apply_theme(app: QApplication, theme: ThemeName) -> None:
    """Fusion everywhere; "system" follows the OS colour scheme, light/dark force one."""
    global _current_theme, _system_hook_installed
    if theme not in ("system", "light", "dark"):
        theme = "system"
    _current_theme = theme
    app.setStyle("Fusion")
    hints = app.styleHints()
    if hasattr(hints, "setColorScheme"):  # Qt 6.8+
        if theme == "system":
            hints.unsetColorScheme()
        else:
            hints.setColorScheme(_scheme(theme))
    _apply_palette(app, theme)
    if not _system_hook_installed:
        hints.colorSchemeChanged.connect(_on_scheme_changed)
        _system_hook_installed = True


def current_theme() -> ThemeName:
    return _current_theme


def secondary_text_css(widget: QWidget) -> str:
    """CSS colour for de-emphasised text: the palette's placeholder colour (works in dark mode)."""
    return widget.palette().color(QPalette.ColorRole.PlaceholderText).name()
