"""Words and numbers shown on conversation rows (shared by the model, delegate and panels)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLocale

if TYPE_CHECKING:
    from ollm_desktop.engine.models import CompressedGroup


def format_count(value: int) -> str:
    """Thousands separators even under the C locale (which omits them)."""
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return f"{value:,}"
    return locale.toString(value)


def role_label(role: str) -> str:
    labels = {
        "user": QCoreApplication.translate("ConversationModel", "You"),
        "assistant": QCoreApplication.translate("ConversationModel", "Assistant"),
        "system": QCoreApplication.translate("ConversationModel", "System"),
    }
    return labels.get(role, role.title())


def visibility_label(visibility: str) -> str:
    labels = {
        "summarized": QCoreApplication.translate("ConversationModel", "summarised"),
        "dropped": QCoreApplication.translate("ConversationModel", "not in context"),
        "preserved": QCoreApplication.translate("ConversationModel", "kept verbatim"),
        "clipped": QCoreApplication.translate("ConversationModel",
                                              "shortened in context (beginning and end sent)"),
        "pruned": QCoreApplication.translate("ConversationModel",
                                             "pruned: the model sees the tool, its arguments "
                                             "and one line"),
    }
    return labels.get(visibility, "")


def counted(value: int, one: str, many: str) -> str:
    """"1 message", "2 messages", "1,249 tokens": the number with the right word."""
    return f"{format_count(value)} {one if value == 1 else many}"


def shortened_note(level: int) -> str:
    """The engine's summary level in words (3 detailed, 2 moderate, 1 compact: older
    checkpoints are rewritten shorter), as the marker and the checkpoint panel add it."""
    word = detail_word(level)
    return f" · {word}" if word else ""


def detail_word(level: int) -> str:
    return {3: QCoreApplication.translate("marker", "detailed"),
            2: QCoreApplication.translate("marker", "moderate"),
            1: QCoreApplication.translate("marker", "compact")}.get(level, "")


def marker_text(group: CompressedGroup | None) -> str:
    """A compaction marker's line ("Context compacted · 12 messages summarised · 1,769 → 140
    tokens"): the one source of these figures for the marker, the checkpoint panel and
    Snapshots."""
    if group is None:
        return ""
    count = len(group.message_ids)
    tr = QCoreApplication.translate
    summarised = (tr("ConversationModel", "1 message summarised") if count == 1
                  else tr("ConversationModel", "{0} messages summarised").format(
                      format_count(count)))
    text = tr("ConversationModel", "Context compacted · {0} · {1} → {2} tokens").format(
        summarised, format_count(group.original_tokens), format_count(group.current_tokens))
    return text + shortened_note(group.level)


def empty_chat_hint(send_key: str) -> str:
    """What an empty chat says, naming the key that sends ("enter" or "ctrl-enter")."""
    return QCoreApplication.translate(
        "ConversationView",
        "Type a message below and press {0}.\n\nWhen the conversation outgrows the "
        "model's context, older turns are summarised into checkpoints; every message stays "
        "here, and pinned ones are always sent word for word.").format(
            "Ctrl+Enter" if send_key == "ctrl-enter" else "Enter")
