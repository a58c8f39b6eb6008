"""Room inside a reply's row for its tool calls (``tool_call_rows``): the calls' panel is a
widget on the view, placed over the bottom of the row's card, and the row is made that much
taller. The delegate asks :func:`height` while it sizes a row, as it asks ``row_images``."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ollm_desktop.ui.conversation.conversation_model import ConversationRow

GAP = 6  # between the reply's text and its calls

_heights: WeakKeyDictionary[object, dict[str, int]] = WeakKeyDictionary()


def height(delegate: object, row: ConversationRow) -> int:
    """The room the row's calls take (0: none shown in it)."""
    taken = _heights.get(delegate, {}).get(row.key, 0)
    return taken + GAP if taken else 0


def set_height(delegate: Any, key: str, pixels: int) -> None:
    """The calls' panel of row ``key`` is now ``pixels`` tall: the row is sized again."""
    heights = _heights.setdefault(delegate, {})
    if heights.get(key, 0) == pixels:
        return
    heights[key] = pixels
    delegate._sizes.pop(key, None)  # the cached size of that row is stale
    delegate.sizeMismatch.emit()


def forget(delegate: object) -> bool:
    """No row has calls any more; True when some row had (its size was taller)."""
    return bool(_heights.pop(delegate, None))
