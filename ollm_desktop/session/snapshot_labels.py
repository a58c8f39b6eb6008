"""Labels of automatic snapshots: what was about to happen, and how long the chat was then.

Two automatic snapshots can share a second (a restore right after a compaction); their labels
tell them apart in the browser ("before compaction 3 (23 messages)").
"""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine


def messages_text(count: int) -> str:
    return f"{count:,} message" + ("" if count == 1 else "s")


def auto_label(reason: str, engine: ContextEngine, detail: str = "") -> str:
    """The label of an automatic snapshot taken for ``reason`` ("" for a manual one).

    ``detail`` names what a restore brings back (the restored snapshot's label or time).
    """
    messages = engine.display_messages()
    size = messages_text(len(messages))
    turn = sum(1 for m in messages if m.role == "user")
    count = engine.compaction_count
    match reason:
        case "before-compaction":
            return f"before compaction {count + 1} ({size})"
        case "before-undo":
            return f"before undoing compaction {count} ({size})"
        case "before-restore":
            target = f" of {detail}" if detail else ""
            return f"before restore{target} ({size})"
        case "auto-threshold":
            percent = round(engine.usage().percent * 100)
            return f"context {percent} % full at turn {turn} ({size})"
        case "import":
            return f"imported ({size})"
    return ""
