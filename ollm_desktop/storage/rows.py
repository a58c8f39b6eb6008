"""Row conversions and small helpers shared by the store's tables."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import TypeAdapter

from ollm_desktop.engine.models import (
    CONTEXT_SIZE_MAX,
    CONTEXT_SIZE_MIN,
    ContextSize,
    Message,
)
from ollm_desktop.storage.models import ChatRecord

SEARCH_LIMIT = 200
SNIPPET_BEFORE = 60
SNIPPET_AFTER = 100

MESSAGE_COLUMNS = "id, role, content, pinned, tokens, exact_tokens, created_at, partial, model"
CHAT_COLUMNS = "id, title, model, context_size, created_at, updated_at, message_count"
CONTEXT_SIZE_ADAPTER: TypeAdapter[int] = TypeAdapter(ContextSize)

# tokens, exact_tokens, pinned, partial, content. The content is the same str object the
# caller holds (no copy): comparing an unchanged message is an identity check.
Fingerprint = tuple[int, bool, bool, bool, str]


def now() -> str:
    return iso(datetime.now(UTC))


def iso(moment: datetime) -> str:
    # Fixed width (always microseconds) so text order is time order.
    return moment.isoformat(timespec="microseconds")


def fingerprint(message: Message) -> Fingerprint:
    return (message.tokens, message.exact_tokens, message.pinned, message.partial,
            message.content)


def message_from_row(row: tuple) -> Message:
    mid, role, content, pinned, tokens, exact, created, partial, model = row
    return Message(id=mid, role=role, content=content, pinned=bool(pinned), tokens=tokens,
                   exact_tokens=bool(exact), created_at=datetime.fromisoformat(created),
                   partial=bool(partial), model=model)


def chat_from_row(row: tuple) -> ChatRecord:
    cid, title, model, size, created, updated, count = row
    if isinstance(size, int):
        # A row from before the limits were checked on write opens at the nearest valid size.
        size = min(max(size, CONTEXT_SIZE_MIN), CONTEXT_SIZE_MAX)
    return ChatRecord(id=cid, title=title, model=model, context_size=size,
                      created_at=datetime.fromisoformat(created),
                      updated_at=datetime.fromisoformat(updated), message_count=count)


def like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def snippet(content: str, needle: str) -> str:
    position = content.casefold().find(needle)
    position = max(0, min(position, len(content)))  # casefold may change lengths slightly
    start = max(0, position - SNIPPET_BEFORE)
    end = min(len(content), position + len(needle) + SNIPPET_AFTER)
    text = " ".join(content[start:end].split())
    return ("…" if start > 0 else "") + text + ("…" if end < len(content) else "")


