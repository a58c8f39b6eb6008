"""Applying the look: Fusion, our light or dark palette, and the small stylesheet.

"system" follows the desktop's colour scheme (Qt 6.8+ ``QStyleHints.colorScheme``) and
switches when it changes; "light" and "dark" force one (Preferences ▸ Theme).
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from ollm_desktop.ui.theme.palettes import DARK, LIGHT, Colors, build_palette, colors_for
from ollm_desktop.ui.theme.stylesheet import stylesheet

ThemeName = Literal["system", "light", "dark"]

# Mid-tone status colours for dots, bars and borders (not body text: text takes
# ``status_text_color``): visible on both a light and a dark window background.
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
_current_colors: Colors = LIGHT
_fusion_set = False  # with a stylesheet, app.style() is Qt's sheet style, not Fusion by name


def status_color(name: str) -> QColor:
    """The status colour for a level or state name; grey for anything unknown."""
    return QColor(STATUS_COLORS.get(name, STATUS_COLORS["idle"]))


def status_text_color(name: str) -> QColor:
    """A status as text (an error under a field): the scheme's colour that reads at 4.5:1."""
    c = _current_colors
    text = {"over": c.error_text, "critical": c.error_text, "low": c.warn_text,
            "warn": c.warn_text, "medium": c.warn_text, "ok": c.ok_text, "high": c.ok_text}
    return QColor(text.get(name, c.text_secondary))


def tinted(name: str, alpha: int = 38) -> str:
    """A translucent status colour for backgrounds (CSS rgba), so text keeps its palette colour."""
    color = status_color(name)
    return f"rgba({color.red()}, {color.green()}, {color.blue()}, {alpha})"


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    return build_palette(DARK)


def light_palette() -> QPalette:
    return build_palette(LIGHT)


def current_colors() -> Colors:
    """The colours in use (the stylesheet's and the palette's)."""
    return _current_colors


def system_scheme(app: QApplication) -> Qt.ColorScheme:
    """The desktop's colour scheme as Qt reports it (Unknown where the platform cannot tell)."""
    return app.styleHints().colorScheme()


def _wants_dark(app: QApplication, theme: ThemeName) -> bool:
    if theme != "system":
        return theme == "dark"
    return system_scheme(app) == Qt.ColorScheme.Dark


def _apply_colors(app: QApplication, theme: ThemeName) -> None:
    global _current_colors
    colors = colors_for(_wants_dark(app, theme))
    if colors is _current_colors and app.styleSheet():
        return  # the same scheme again: re-polishing every widget costs a repaint
    _current_colors = colors
    app.setPalette(build_palette(colors))
    app.setStyleSheet(stylesheet(colors))


def _on_scheme_changed(_scheme_value: Qt.ColorScheme) -> None:
    app = QApplication.instance()
    if isinstance(app, QApplication) and _current_theme == "system":
        _apply_colors(app, "system")


def apply_theme(app: QApplication, theme: ThemeName) -> None:
    """Fusion everywhere; "system" follows the OS colour scheme, light/dark force one."""
    global _current_theme, _system_hook_installed, _fusion_set
    if theme not in ("system", "light", "dark"):
        theme = "system"
    _current_theme = theme
    if base_style_name(app) != "fusion":
        app.setStyle("Fusion")
    _fusion_set = True
    hints = app.styleHints()
    if hasattr(hints, "setColorScheme"):  # Qt 6.8+: native dialogs and title bars follow
        if theme == "system":
            hints.unsetColorScheme()
        else:
            hints.setColorScheme(
                Qt.ColorScheme.Dark if theme == "dark" else Qt.ColorScheme.Light)
    _apply_colors(app, theme)
    if not _system_hook_installed:
        hints.colorSchemeChanged.connect(_on_scheme_changed)
        _system_hook_installed = True


def base_style_name(app: QApplication) -> str:
    """The style under the stylesheet ("fusion"): once an application stylesheet is set,
    ``app.style()`` is Qt's sheet style, whose name is empty, so ours is remembered."""
    name = str(app.style().name()).lower()
    return name or ("fusion" if _fusion_set else "")


def current_theme() -> ThemeName:
    return _current_theme


def secondary_text_css(widget: QWidget) -> str:
    """CSS colour for de-emphasised text: the palette's placeholder colour (works in dark mode)."""
    return widget.palette().color(QPalette.ColorRole.PlaceholderText).name()
