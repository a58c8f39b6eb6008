"""How a model is described to the user, in the model picker and Preferences ▸ Models: its
size on disk, the context it was trained for, and what it can do (sees images, uses tools,
thinks before answering). One place, so the picker and the Models page say the same."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ollm_desktop.backend.models import ModelInfo

# (ModelInfo field, tag shown, what it can, what it cannot): the capabilities worth a tag.
CAPABILITIES = (
    ("vision", "Vision", "sees images you attach", "cannot see images"),
    ("tools", "Tools", "can use tools", "cannot use tools"),
    ("thinking", "Thinking", "thinks before it answers", "answers without thinking first"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ModelDetails", text)


def size_text(size: int | None) -> str:
    """Bytes on disk as people read them: "4.9 GB", "291 MB"."""
    if not size or size <= 0:
        return ""
    if size >= 1_000_000_000:
        return f"{size / 1e9:.1f} GB"
    if size >= 1_000_000:
        return f"{size / 1e6:.0f} MB"
    return f"{max(1, round(size / 1e3))} KB"


def context_text(tokens: int | None) -> str:
    """A trained context as "128K context" (131,072 tokens), "8K context", "2,000 context"."""
    if not tokens or tokens <= 0:
        return ""
    if tokens % 1024 == 0 and tokens >= 1024:
        return _tr("{0}K context").format(tokens // 1024)
    if tokens >= 10_000:
        return _tr("{0}K context").format(round(tokens / 1000))
    return _tr("{0:,} context").format(tokens)


def capability_tags(model: ModelInfo) -> list[str]:
    """The tags of what the model can do ("Vision", "Tools", "Thinking"); an embedding model
    is tagged as such (it cannot chat)."""
    if model.embedding_only:
        return [_tr("Embeddings only")]
    return [_tr(tag) for field, tag, _can, _cannot in CAPABILITIES
            if getattr(model, field) is True]


def facts_line(model: ModelInfo) -> str:
    """"4.9 GB · 8.0B · 128K context": what is known, in that order."""
    parts = [size_text(model.size), model.parameter_size or "", context_text(model.context_length)]
    return " · ".join(p for p in parts if p)


def tooltip(model: ModelInfo) -> str:
    """Everything known about the model in sentences, and what is not known said so."""
    lines = [model.name]
    if line := facts_line(model):
        lines.append(line)
    if model.embedding_only:
        lines.append(_tr("An embedding model: it finds related text, it cannot chat."))
    said = [_tr(can if getattr(model, field) else cannot)
            for field, _tag, can, cannot in CAPABILITIES if getattr(model, field) is not None]
    if said and not model.embedding_only:
        lines.append(_tr("It {0}.").format(_join(said)))
    if not model.described:
        lines.append(_tr("Asking the server for its details…"))
    elif not said:
        lines.append(_tr("The server does not say what it can do."))
    return "\n".join(lines)


def _join(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " " + _tr("and") + " " + items[-1]
