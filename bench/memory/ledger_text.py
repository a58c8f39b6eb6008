"""Reading the facts ledger as the model reads it: which values a request states as current.

The ledger is found in the request the client sends (``engine.api_messages()``), never in the
engine's internals, so the same reading scores today's engine and a rewritten one. A value is
*shown as current* when it occurs on an entry outside the entry's replacement notes (a
parenthesis or sub-line that says "replaced", "earlier", "was", "possibly replaced"...) and is
not introduced by a negation or a replacement word ("not 8443", "instead of MySQL", "from 30 s
to"). A value that occurs only in such notes is *shown as replaced*. Values match as whole
tokens, case-insensitively, with whitespace normalised ("CIFAR-10" does not match inside
"CIFAR-100").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

# The ledger's heading line ("Facts of this conversation (...):") and the end of its block.
_HEADER = re.compile(r"^\s*(?:#+\s*)?facts\b.*:\s*$", re.I)
_END = re.compile(r"^\s*(?:</|\[checkpoint|##\s)", re.I)
_ENTRY = re.compile(r"^(\s*)[-*•]\s+(.*)$")
# A note beside a value: what the engine writes when it marks a value as no longer current.
_NOTE_WORDS = re.compile(r"replac|earlier|previous|formerly|supersed|no longer|\bwas\b|"
                         r"\bold\b|outdated|not current|possibly|instead of|until turn", re.I)
# Words that, just before a value, say the value is not (or no longer) the current one.
_NEGATION_BEFORE = re.compile(
    r"(?:\bnot|\bno longer|\binstead of|\brather than|\bin place of|\bfrom|\breplac\w*|"
    r"\bearlier|\bformerly|\bpreviously)\s+(?:(?:to|in|on|at|the|a|an|of|for|by)\s+){0,2}$",
    re.I)
# one level of nesting: "(possibly replaced by 9443 (turn 12))" is one note
_PAREN = re.compile(r"\(((?:[^()]|\([^()]*\))*)\)")


@dataclass(frozen=True)
class Entry:
    """One ledger line with its sub-lines, and the section it sits in."""

    section: str  # the section heading, lowercased ("stated by the user:", ...)
    text: str  # the entry's own line, without the bullet
    notes: tuple[str, ...]  # its sub-lines

    @property
    def assistant(self) -> bool:
        return "assistant" in self.section or "repl" in self.section


def ledger_entries(messages: Sequence[dict[str, str]]) -> list[Entry]:
    """Every entry of every ledger block in the request (usually one, in the system message)."""
    entries: list[Entry] = []
    for message in messages:
        entries += _block_entries(str(message.get("content", "")).splitlines())
    return entries


def _block_entries(lines: list[str]) -> list[Entry]:
    out: list[Entry] = []
    inside, section = False, ""
    text: str | None = None
    notes: list[str] = []
    indent = 0

    def close() -> None:
        nonlocal text, notes
        if text is not None:
            out.append(Entry(section, text, tuple(notes)))
        text, notes = None, []

    for line in lines:
        if _HEADER.match(line) and not _ENTRY.match(line):
            close()
            inside, section = True, ""
            continue
        if not inside:
            continue
        if not line.strip() or _END.match(line):
            close()
            inside = False
            continue
        bullet = _ENTRY.match(line)
        if bullet is None:
            close()
            section = line.strip().lower()
            continue
        depth = len(bullet.group(1))
        if text is not None and depth > indent:
            notes.append(bullet.group(2))
            continue
        close()
        text, indent = bullet.group(2), depth
    close()
    return out


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _pattern(value: str) -> re.Pattern[str]:
    parts = re.split(r"\s+|(?<=\d)(?=[a-z%])", _normal(value))  # "45 s" = "45s"
    body = r"\s*".join(re.escape(part) for part in parts if part)
    # whole tokens: "acme-logs" is no part of "acme-logs-prod", nor "CIFAR-10" of "CIFAR-100"
    return re.compile(rf"(?<![\w.,:/-]){body}(?![\w]|[.,:/-][\w])")


def _spans(text: str) -> tuple[str, list[str]]:
    """The entry's main text (notes blanked out) and its notes."""
    notes = [m.group(1) for m in _PAREN.finditer(text) if _NOTE_WORDS.search(m.group(1))]
    main = _PAREN.sub(lambda m: " " * len(m.group(0)) if _NOTE_WORDS.search(m.group(1))
                      else m.group(0), text)
    return main, notes


def _current_in(text: str, value: str) -> bool:
    main = _normal(_spans(text)[0])
    for match in _pattern(value).finditer(main):
        if not _NEGATION_BEFORE.search(main[:match.start()]):
            return True
    return False


def _mentioned_in(text: str, value: str) -> bool:
    return _pattern(value).search(_normal(text)) is not None


def shown_current(entries: Iterable[Entry], value: str, *, assistant: bool | None = None,
                  ) -> bool:
    """The value is stated as current on some entry (``assistant``: only in that kind of
    section; None: any section)."""
    return any(_current_in(e.text, value) for e in entries
               if assistant is None or e.assistant == assistant)


def shown_replaced(entries: Iterable[Entry], value: str) -> bool:
    """The value occurs on the ledger, and only as a replaced one (in notes or negated)."""
    entries = list(entries)
    anywhere = any(_mentioned_in(" ".join((e.text, *e.notes)), value) for e in entries)
    return anywhere and not shown_current(entries, value)


def current_text(text: str, value: str) -> bool:
    """For one free text (a panel row): the value is stated as current in it."""
    return _current_in(text, value)


def mentioned(text: str, value: str) -> bool:
    return _mentioned_in(text, value)


def panel_rows(engine: Any) -> list[dict[str, Any]]:
    """The panel's entries, read defensively (the panel's data may change shape): text, who
    stated it, and whether it is shown by default: ``shown_by_default`` when a row has it, else
    current and not flagged as a suggestion, candidate, open question or hidden row. Rows are
    ``facts_view().rows`` when the view has them, else ``facts_view().facts``; a row's
    ``history`` is the values it held before (a one-row-per-key panel's)."""
    view = engine.facts_view()
    rows = getattr(view, "rows", None) or getattr(view, "facts", None) or []
    out = []
    for row in rows:
        status = str(getattr(row, "status", "current"))
        subject = getattr(row, "subject", "") or getattr(row, "key", "") or ""
        value = str(getattr(row, "value", ""))
        source = str(getattr(row, "source", "") or getattr(row, "stated_by", ""))
        fact = getattr(row, "fact", row)
        if source in ("assistant", "tool") and bool(getattr(fact, "users", False)):
            source = "adopted"  # an assistant's value the user used, pinned or kept
        # Behind the panel's filters (issue 28: an assistant's candidate, an open question):
        # whichever of these flags the engine has.
        hidden = any(bool(getattr(row, name, False)) for name in
                     ("suggested", "candidate", "open_question", "tentative", "hidden"))
        default = getattr(row, "shown_by_default", None)
        shown = status == "current" and not hidden if default is None else bool(default)
        history = [str(getattr(h, "value", "")) for h in getattr(row, "history", ())]
        out.append({"text": f"{subject}: {value}" if subject else value, "status": status,
                    "source": source, "shown": shown, "history": history})
    return out
