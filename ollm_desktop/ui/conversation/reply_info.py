"""What a reply row says about the reply itself: the model that wrote it (in the header) and
Ollama's figures for it (on hover): speed, prompt and reply tokens, total time.

Read with ``getattr``: the window's first picture draws plain stored rows (``StoredMessage``)
that have neither a model nor statistics yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from ollm_desktop.ui.text.row_labels import format_count

if TYPE_CHECKING:
    from ollm_desktop.engine.models import ReplyStats


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReplyInfo", text)


def reply_model(message: object) -> str:
    """The model that wrote an assistant reply ("" for other rows)."""
    if getattr(message, "role", None) != "assistant":
        return ""
    return str(getattr(message, "model", None) or "")


def reply_stats(message: object) -> ReplyStats | None:
    return getattr(message, "stats", None)


def _seconds(nanoseconds: int | None) -> str:
    if nanoseconds is None:
        return ""
    seconds = nanoseconds / 1e9
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def stats_lines(stats: ReplyStats) -> list[str]:
    """Speed, prompt tokens, reply tokens and total time, one line each (what is known)."""
    lines = []
    speed = stats.tokens_per_second
    if speed is not None:
        lines.append(_tr("Speed: {0} tokens/s").format(f"{speed:.1f}"))
    if stats.prompt_tokens is not None:
        line = _tr("Prompt: {0} tokens").format(format_count(stats.prompt_tokens))
        if stats.prompt_duration_ns is not None:
            line += " " + _tr("(read in {0})").format(_seconds(stats.prompt_duration_ns))
        lines.append(line)
    if stats.reply_tokens is not None:
        line = _tr("Reply: {0} tokens").format(format_count(stats.reply_tokens))
        if stats.reply_duration_ns is not None:
            line += " " + _tr("(written in {0})").format(_seconds(stats.reply_duration_ns))
        lines.append(line)
    if stats.total_duration_ns is not None:
        line = _tr("Total time: {0}").format(_seconds(stats.total_duration_ns))
        if stats.load_duration_ns:
            line += " " + _tr("(model load {0})").format(_seconds(stats.load_duration_ns))
        lines.append(line)
    return lines


def reply_tooltip(message: object) -> str | None:
    """The hover text of an assistant reply; None for other rows."""
    model = reply_model(message)
    if getattr(message, "role", None) != "assistant":
        return None
    lines = [_tr("Written by {0}").format(model)] if model else []
    if getattr(message, "cut_off", False):
        lines.append(_tr("Cut off at the length limit: Continue lets the model finish it."))
    stats = reply_stats(message)
    if stats is not None:
        lines += stats_lines(stats)
    elif getattr(message, "partial", False):
        lines.append(_tr("Unfinished: Ollama reports its figures when a reply ends."))
    else:
        lines.append(_tr("No figures from Ollama for this reply."))
    return "\n".join(lines)
