"""Words and numbers shown on conversation rows (shared by the model, delegate and panels)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale


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
    }
    return labels.get(visibility, "")


def counted(value: int, one: str, many: str) -> str:
    """"1 message", "2 messages", "1,249 tokens": the number with the right word."""
    return f"{format_count(value)} {one if value == 1 else many}"


def shortened_note(level: int) -> str:
    """The engine's aging level in words: a checkpoint shortened again as the chat grew."""
    if level <= 1:
        return ""
    again = level - 1
    return " · " + (QCoreApplication.translate("marker", "shortened once more") if again == 1
                    else QCoreApplication.translate("marker", "shortened {0} more times").format(
                        again))
