"""A branch in the chat list reads as a version of its message ("Reply 1 of 2", "Edit 2 of 2").

Regenerate keeps the earlier reply in a branch and Edit and resend sends the new text in one;
in the list such a branch is one version of the message where it parts from its chat, numbered
as the message's versions are (oldest first), like the conversation's version selector. A
label the user gave a branch is kept as it is.
"""

from __future__ import annotations

from collections import defaultdict

from ollm_desktop.session.branches import EARLIER_REPLY, EDIT_LABEL
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.models import ChatRecord

EDITED = EDIT_LABEL.split("{")[0]  # "Edited: "
Lineage = list[tuple[str, str, str]]  # (message id, origin, created_at)


def _kind(label: str) -> str | None:
    if label == EARLIER_REPLY:
        return "Reply"
    return "Edit" if label.startswith(EDITED) else None


def _number(mine: Lineage, theirs: Lineage, family: list[Lineage]) -> tuple[int, int] | None:
    """(position, count) of our version of the first message where we part from ``theirs``."""
    k = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a[1] != b[1]),
             None)
    if k is None:
        return None  # one continues the other: no version of anything yet
    prefix = [origin for _, origin, _ in mine[:k]]
    versions: dict[str, str] = {}
    for line in family:
        if len(line) > k and [origin for _, origin, _ in line[:k]] == prefix:
            _, origin, created = line[k]
            versions[origin] = min(created, versions.get(origin, created))
    ordered = sorted(versions, key=lambda origin: (versions[origin], origin))
    return ordered.index(mine[k][1]) + 1, len(ordered)


def version_labels(store: ChatStore, chats: list[ChatRecord]) -> dict[str, str]:
    """chat id -> "Reply 1 of 2" / "Edit 2 of 2: <the new text>" for the branches that show
    an automatic label."""
    families: dict[str, list[ChatRecord]] = defaultdict(list)
    for chat in chats:
        families[chat.family_id].append(chat)
    labels: dict[str, str] = {}
    for members in families.values():
        branches = [c for c in members if c.is_branch and _kind(c.branch_label)]
        if not branches:
            continue
        lines = store.lineages([c.id for c in members])
        family = [lines.get(c.id, []) for c in members]
        for branch in branches:
            parent = lines.get(branch.parent_id or "")
            if not parent:
                continue
            found = _number(lines.get(branch.id, []), parent, family)
            if found is None:
                continue
            kind = _kind(branch.branch_label)
            text = f"{kind} {found[0]} of {found[1]}"
            if kind == "Edit":
                text += ": " + branch.branch_label[len(EDITED):]
            labels[branch.id] = text
    return labels
