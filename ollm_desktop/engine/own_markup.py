"""Our own prompt markup quoted back in a summary: the sign of a model copying its prompt.

The summary prompt wraps the chat in ``<chat_history>`` with ``<user kept="verbatim">`` and
``<assistant>`` tags, and other sections in ``<goal>``, ``<focus>``, ``<previous_checkpoint>``
and ``<checkpoint>``. A small model sometimes starts its answer inside that markup
(``<user kept="verbatim">The server-side configuration…``). Neutralising turns ``<`` into a
look-alike (``‹user``), which keeps it from closing our wrappers but leaves the markup in the
checkpoint, where every later request carries it and the Summary tab shows it. The gate refuses
such a summary instead. Markup inside code spans (inline or fenced) is the user's own code or
XML and stays allowed, and so does a tag the chat itself uses outside code.
"""

from __future__ import annotations

import re

# Tags the engine writes around material (prompts.py) and around the context (assembly).
TAGS = ("chat_history", "user", "assistant", "system", "previous_checkpoint", "checkpoint",
        "goal", "focus", "compressed_history_summary", "earlier_user_message", "active_goal",
        "reference_ledger")
# "<" and the forms neutralising and models turn it into.
_OPEN = r"(?:<|‹|＜|〈|⟨|&lt;|\\<)"
_TAG = re.compile(_OPEN + r"[ \t]*/?[ \t]*(" + "|".join(TAGS) + r")(?=[\s>›＞〉⟩/]|&gt;|$)",
                  re.IGNORECASE)
_KEPT = re.compile(r"\bkept\s*=", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def _outside_code(text: str) -> str:
    """``text`` without fenced blocks and inline code spans."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(_INLINE_CODE.sub(" ", line))
    return "\n".join(lines)


def own_markup(text: str, material: str) -> str:
    """Why ``text`` carries the engine's own markup outside code spans, or ""."""
    prose = _outside_code(text)
    chat = _outside_code(material).lower()
    for match in _TAG.finditer(prose):
        name = match.group(1).lower()
        if f"<{name}" not in chat and f"</{name}" not in chat:
            return f"quotes the prompt's markup {match.group(0).strip()!r}"
    found = _KEPT.search(prose)
    if found and "kept=" not in chat.replace(" ", ""):
        return "quotes the prompt's markup 'kept='"
    return ""
