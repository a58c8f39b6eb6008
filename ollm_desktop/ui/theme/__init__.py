"""The window's visual system in one place: palettes (light, dark), type scale, spacing grid,
radii, the stylesheet, the icon set, and applying them (``apply_theme``).

The names that ``ui.theme`` had as a module stay importable from here.
"""

from ollm_desktop.ui.theme.apply import (
    STATUS_COLORS,
    ThemeName,
    apply_theme,
    current_colors,
    current_theme,
    dark_palette,
    is_dark,
    light_palette,
    secondary_text_css,
    status_color,
    status_text_color,
    tinted,
)
from ollm_desktop.ui.theme.icons import icon
from ollm_desktop.ui.theme.palettes import DARK, LIGHT, Colors, contrast_ratio
from ollm_desktop.ui.theme.tokens import RADIUS, SPACE, TYPE

__all__ = [
    "DARK", "LIGHT", "RADIUS", "SPACE", "STATUS_COLORS", "TYPE", "Colors", "ThemeName",
    "apply_theme", "contrast_ratio", "current_colors", "current_theme", "dark_palette", "icon",
    "is_dark", "light_palette", "secondary_text_css", "status_color", "status_text_color",
    "tinted",
]
