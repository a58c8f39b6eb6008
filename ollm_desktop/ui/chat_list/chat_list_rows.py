"""What the chat list shows, as plain rows: a "Pinned" section, then date groups (Today,
Yesterday, Previous 7 days, Previous 30 days, then months of this year and earlier years), each
family's chat with its branches nested under it, or search hits under their chat.

A family (a chat and its branches, ``ChatRecord.family_id``) stays together and is dated by
its newest activity; a branch whose root is deleted or missing stands on its own. Forks are
chats of their own, with a hint of where they came from.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from PySide6.QtCore import QCoreApplication, QLocale

from ollm_desktop.storage.models import ChatRecord, SearchHit

RowKind = Literal["header", "chat", "hit"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChatList", text)


@dataclass(frozen=True, slots=True)
class ListRow:
    kind: RowKind
    text: str  # a header's name, a chat's title, a branch's label, a hit's snippet line
    # (what the row shows; renaming edits ``title``, or a nested branch's label)
    chat_id: str = ""
    message_id: str = ""  # a search hit: the message to open
    depth: int = 0  # 1: a branch under its family's chat
    pinned: bool = False  # the family is pinned (the row's menu offers Unpin)
    branch: bool = False
    fork_hint: str = ""  # "Forked from …"
    tooltip: str = ""
    title: str = ""  # the chat's title (search rows show other text)
    match: str = ""  # a search hit: the searched text (kept in sight when the row is cut)


def date_group(moment: datetime, today: date) -> str:
    """The header a chat last active at ``moment`` goes under (local time)."""
    day = moment.astimezone().date()
    days = (today - day).days
    if days <= 0:
        return _tr("Today")
    if days == 1:
        return _tr("Yesterday")
    if days <= 7:
        return _tr("Previous 7 days")
    if days <= 30:
        return _tr("Previous 30 days")
    if day.year == today.year:
        return QLocale().standaloneMonthName(day.month)
    return str(day.year)


def _tooltip(chat: ChatRecord) -> str:
    return _tr("{0} messages · {1}").format(
        chat.message_count, chat.updated_at.astimezone().strftime("%Y-%m-%d %H:%M"))


def _chat_row(chat: ChatRecord, titles: dict[str, str], *, pinned: bool,
              nested: bool) -> ListRow:
    tip = _tooltip(chat)
    hint = ""
    if chat.branch_kind == "fork":
        hint = chat.branch_label or _tr("Forked from “{0}”").format(
            titles.get(chat.parent_id or "", _tr("another chat")))
        tip = f"{hint}\n{tip}"
    elif chat.is_branch:
        tip = _tr("A branch of “{0}”").format(chat.title) + f"\n{tip}"
    text = (chat.branch_label or chat.title) if nested else chat.title
    if chat.is_branch and not nested and chat.branch_label:  # its family's chat is gone
        text = f"{chat.title} — {chat.branch_label}"
    return ListRow("chat", text, chat.id, depth=1 if nested else 0, pinned=pinned,
                   branch=nested, fork_hint=hint, tooltip=tip, title=chat.title)


def chat_rows(chats: list[ChatRecord], now: datetime | None = None) -> list[ListRow]:
    """Pinned families first, then the rest by date, newest first; branches nested."""
    today = (now or datetime.now()).astimezone().date()
    titles = {c.id: c.title for c in chats}
    branches: dict[str, list[ChatRecord]] = defaultdict(list)
    heads: list[ChatRecord] = []
    for chat in chats:
        if chat.is_branch and chat.root_id in titles and chat.root_id != chat.id:
            branches[chat.family_id].append(chat)
        else:
            heads.append(chat)

    def newest(head: ChatRecord) -> datetime:
        return max([head.updated_at, *(b.updated_at for b in branches[head.id])])

    families = sorted(heads, key=newest, reverse=True)  # stable: the store's order on ties
    pinned = [h for h in families if h.pinned or any(b.pinned for b in branches[h.id])]
    rows: list[ListRow] = []
    group = None
    for head in pinned + [h for h in families if h not in pinned]:
        is_pinned = head in pinned
        name = _tr("Pinned") if is_pinned else date_group(newest(head), today)
        if name != group:
            rows.append(ListRow("header", name))
            group = name
        rows.append(_chat_row(head, titles, pinned=is_pinned, nested=False))
        for branch in sorted(branches[head.id], key=lambda b: b.created_at):
            rows.append(_chat_row(branch, titles, pinned=is_pinned, nested=True))
    return rows


def hit_rows(hits: list[SearchHit], needle: str = "") -> list[ListRow]:
    """Each chat once, as a heading, with its hits under it (newest chat first)."""
    chats: dict[str, list[SearchHit]] = {}
    for hit in hits:
        chats.setdefault(hit.chat_id, []).append(hit)
    rows: list[ListRow] = []
    for found in chats.values():
        first = found[0]
        rows.append(ListRow("chat", first.chat_title, first.chat_id, title=first.chat_title,
                            tooltip=first.chat_title))
        for hit in found:
            who = _tr("You") if hit.role == "user" else _tr("Assistant") \
                if hit.role == "assistant" else hit.role.title()
            rows.append(ListRow("hit", f"    {who}: {hit.snippet}", hit.chat_id,
                                message_id=hit.message_id, title=hit.chat_title,
                                tooltip=f"{hit.chat_title}\n{hit.snippet}",
                                match=needle.strip()))
    return rows
