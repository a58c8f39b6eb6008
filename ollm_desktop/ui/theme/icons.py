"""The one icon set: Phosphor (MIT), drawn from its font by qtawesome (MIT).

Why these: Phosphor is a complete, consistent line set (one stroke, one corner radius) that
matches the rounded surfaces; qtawesome ships its font in the wheel (nothing downloads) and
recolours glyphs per state and scheme, so one name serves light and dark. qtawesome is
imported on first use only (it costs a few hundred ms), which is after the first paint: the
app's start imports it in the worker with the other layers.

Names here say what the icon is for; the Phosphor glyph behind each can change alone.
"""

from __future__ import annotations

import os

from PySide6.QtGui import QIcon

from ollm_desktop.ui.theme.apply import current_colors

os.environ.setdefault("QT_API", "pyside6")  # qtawesome goes through qtpy: the binding we use

GLYPHS: dict[str, str] = {
    "send": "ph.paper-plane-right-fill",
    "stop": "ph.stop-fill",
    "attach_image": "ph.image",
    "attach": "ph.paperclip",
    "attach_document": "ph.file-text",
    "tools": "ph.wrench",
    "delete": "ph.trash",
    "new_chat": "ph.note-pencil",
    "search": "ph.magnifying-glass",
    "settings": "ph.sliders-horizontal",
    "preferences": "ph.gear-six",
    "side_panel": "ph.layout",
    "goal": "ph.flag",
    "facts": "ph.list-bullets",
    "checkpoint": "ph.archive-box",
    "snapshots": "ph.clock-counter-clockwise",
    "pin": "ph.push-pin",
    "copy": "ph.copy",
    "retry": "ph.arrow-clockwise",
    "download": "ph.download-simple",
    "server": "ph.hard-drives",
    "model": "ph.cube",
    "warning": "ph.warning",
    "error": "ph.warning-circle",
    "ok": "ph.check-circle",
    "close": "ph.x",
    "chat": "ph.chat-circle-text",
}


def icon(name: str, color: str | None = None) -> QIcon:
    """The set's icon for ``name`` in the scheme's text colour (disabled: its disabled colour);
    an empty icon for a name the set does not have, never an error."""
    glyph = GLYPHS.get(name)
    if glyph is None:
        return QIcon()
    import qtawesome  # deferred: see the module's docstring

    colors = current_colors()
    return qtawesome.icon(glyph, color=color or colors.text,
                          color_disabled=colors.disabled_text)
