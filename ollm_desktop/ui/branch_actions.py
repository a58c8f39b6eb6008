"""(Being built.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ollm_desktop.ui.window_content import WindowContent


def install(content: WindowContent) -> None:
    """Adds this feature's actions and wiring to the built window."""
