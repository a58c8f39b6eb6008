"""Custom item-data roles of the conversation model (a contract with the main window)."""

from __future__ import annotations

from PySide6.QtCore import Qt

_USER = int(Qt.ItemDataRole.UserRole)

MessageIdRole = _USER + 1  # str | None: the message id (None on marker rows)
PinnedRole = _USER + 2  # bool
KindRole = _USER + 3  # "message" | "marker"
GroupIdRole = _USER + 4  # str | None: the compressed group of a marker row
VisibilityRole = _USER + 5  # "verbatim" | "preserved" | "summarized" | "dropped"
RevisionRole = _USER + 6  # int: bumps on any visible change of the row
LayoutRevisionRole = _USER + 7  # int: bumps only when the row's height may change
MessageRole = _USER + 8  # Message | None
GroupRole = _USER + 9  # CompressedGroup | None
PartialRole = _USER + 10  # bool: an unfinished reply (streaming now, or stopped partway)
ReplyStateRole = _USER + 11  # "writing" (streaming now) | "stopped" (unfinished) | ""
ReplyModelRole = _USER + 12  # str: the model that wrote an assistant reply ("" otherwise)
ReplyStatsRole = _USER + 13  # ReplyStats | None: Ollama's figures for a finished reply
# Qt.ItemDataRole.ToolTipRole of a reply: its model, speed, tokens and time (reply_info.py).

KIND_MESSAGE = "message"
KIND_MARKER = "marker"

VERBATIM = "verbatim"
PRESERVED = "preserved"
SUMMARIZED = "summarized"
DROPPED = "dropped"
CLIPPED = "clipped"  # sent as its beginning and end (too long for the context)
DIMMED_VISIBILITIES = frozenset({SUMMARIZED, DROPPED})
