"""Making untrusted text harmless and clean before it enters the engine's context.

Split from ``summary_gate`` so that every module that copies model or chat text (the gate, the
extractive checkpoint) shares one neutraliser and one sentence splitter.

Injection policy: every text is neutralised (wrapper tags and chat-template tokens broken,
role lines prefixed with ``(quoted)``). In a summary, a role or override line whose words do
not occur in ``material`` was invented by the model (or planted through it) and is dropped, as
is a line holding nothing but wrapper tags (:func:`drop_injections`). An injected line that does
occur in the material (the chat discussed prompt injection) is kept, defused.
"""

from __future__ import annotations

import re
from functools import lru_cache

QUOTED = "(quoted) "
HEADING = re.compile(r"^\s*#{1,6}\s")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s")
PIECE = 16_384  # characters read per regular-expression call on a long text


def norm(text: str) -> str:
    """Lower-case words joined by single spaces: the form in which texts are compared."""
    if len(text) <= PIECE:
        return " ".join(_WORD.findall(text.lower()))
    return _norm_long(text)


@lru_cache(maxsize=4)
def _norm_long(text: str) -> str:
    """``norm`` of a long text (a summary's whole material, 400 KB at 128K), read in pieces
    cut at whitespace (no word spans one): one ``findall`` over all of it held the GIL for
    20-40 ms, in which the window's thread could not run; the gate reads the same material
    two or three times."""
    lowered, words, start = text.lower(), [], 0
    while start < len(lowered):
        gap = _SPACE.search(lowered, start + PIECE)
        end = gap.start() if gap else len(lowered)
        words.extend(_WORD.findall(lowered, start, end))
        start = end
    return " ".join(words)


# ------------------------------------------------------------------ neutralising
_TAG_NAMES = ("compressed_history_summary", "earlier_user_message", "chat_history",
              "active_goal", "reference_ledger", "previous_checkpoint", "checkpoint", "system",
              "goal", "focus", "user", "assistant", "instructions")
# Our tag names plus any snake_case tag (<key_references>, <start_of_turn>): never Markdown.
_TAG = re.compile(r"<(?=[ \t]*/?[ \t]*(?:" + "|".join(_TAG_NAMES)
                  + r"|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b)", re.IGNORECASE)
_SPECIAL = re.compile(r"<\|([^|<>\n]{1,40})\|>")  # <|im_start|>, <|eot_id|>, ...
_BRACKET = re.compile(r"\[(/?(?:INST|SYS|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS"
                      r"|TOOL_RESULTS))\]", re.IGNORECASE)
_LLAMA2_SYS = re.compile(r"<<(/?SYS)>>", re.IGNORECASE)
_BOS_EOS = re.compile(r"<(?=/?s>)")
_TURN_TAG = re.compile(r"<(?=[ \t]*/?[ \t]*(?:start_of_turn|end_of_turn)\b)", re.IGNORECASE)
_ROLE_LINE = re.compile(
    r"^[ \t]*(?:(?:\*\*|__)?(?:system|developer)(?:[ \t]+(?:prompt|message|instructions?|note"
    r"|override))?[ \t]*(?:\*\*|__)?[ \t]*:"
    r"|#{1,6}[ \t]*(?:system|developer)(?:[ \t]+(?:prompt|message|instructions?))?[ \t]*:?"
    r"[ \t]*$|\[(?:system|sys)\])", re.IGNORECASE)
_OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+"
    r"|my\s+)?(?:previous|prior|above|earlier|preceding|existing|system|original)\s+"
    r"(?:instructions?|prompts?|rules|messages|directions|guidelines)\b", re.IGNORECASE)
_LIST_MARK = r"^(\s*(?:[-*+>]\s+|\d+[.)]\s+)?)"
_DEFUSED = re.compile(_LIST_MARK + re.escape(QUOTED))
_TAG_ONLY = re.compile(r"^\s*(?:‹[ \t]*/?[ \t]*[\w-]+[^>\n]*>\s*)+$")


def _neutralise_line(line: str) -> tuple[str, bool]:
    """(harmless line, whether it posed as a role turn or an instruction override)."""
    before = line
    line = _TAG.sub("‹", line)
    line = _TURN_TAG.sub("‹", line)
    line = _SPECIAL.sub(r"‹|\1|›", line)
    line = _BRACKET.sub(r"‹\1›", line)
    line = _LLAMA2_SYS.sub(r"‹‹\1››", line)
    line = _BOS_EOS.sub("‹", line)
    tokens = any(p.search(before) for p in (_SPECIAL, _BRACKET, _LLAMA2_SYS, _TURN_TAG))
    flagged = tokens or bool(_ROLE_LINE.match(line) or _OVERRIDE.search(line))
    if flagged and not _DEFUSED.match(line):
        line = re.sub(_LIST_MARK, lambda m: m.group(1) + QUOTED, line, count=1)
    return line, flagged


def neutralise(text: str) -> str:
    """Make untrusted text harmless inside the engine's API context; Markdown stays intact.

    Wrapper tags (any case, open or close, with attributes) get ``‹`` for ``<`` so they cannot
    close ``<compressed_history_summary>``; chat-template tokens are broken up; lines posing as
    a system turn or telling the model to ignore its instructions get a ``(quoted)`` prefix.
    Idempotent.
    """
    return "\n".join(_neutralise_line(line)[0] for line in text.split("\n"))


# ------------------------------------------------------------------ cleaning
_THINK_CLOSED = re.compile(r"<(think|thinking|reasoning)>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<(?:think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(?:think|thinking|reasoning)\s*>", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WRAP_FENCE = re.compile(r"^```[ \t]*(?:markdown|md|text|txt)?[ \t]*\n(.*?)\n?```[ \t]*$",
                         re.DOTALL | re.IGNORECASE)
_CHATTER = re.compile(
    r"^[\s*_#>]*(?:(?:sure|certainly|of course|okay|ok|alright|absolutely|great|gladly)\b"
    r"[\s,!.]*)?(?:here(?:'s|’s| is| are)|below is|the following is|voici|hier ist)\b"
    r"[^\n]{0,120}?\b(?:summary|summari[sz]ed|checkpoint|recap|condensed|compressed|shortened"
    r"|rewritten|shorter version|zusammenfassung|résumé|conversation|discussion|so far"
    r"|what we (?:discussed|covered|did))\b[^\n:]{0,80}(?::[ \t]*(?P<rest>.*))?$",
    re.IGNORECASE)
_WRAP_TAG = re.compile(r"^\s*</?(?:summary|checkpoint|compressed_history_summary|output|answer"
                       r"|response)>\s*$", re.IGNORECASE)
_SIGN_OFF = re.compile(r"^[\s*_]*(?:let me know|i hope this helps|hope this helps|feel free to"
                       r"|is there anything else|would you like me to)\b", re.IGNORECASE)


def clean(raw: str) -> tuple[str, bool]:
    """(text without reasoning, wrapper fence and chatter; whether an open think was cut)."""
    text = _CONTROL.sub("", (raw or "").replace("\r\n", "\n"))
    text = _THINK_CLOSED.sub("", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:  # "...reasoning</think> answer": the opening tag was in the chat template
        text = text[closes[-1].end():]
    opened = _THINK_OPEN.search(text)
    if opened:
        text = text[:opened.start()]
    text = _strip_chatter(text)
    fence = _WRAP_FENCE.match(text)
    if fence:
        text = _strip_chatter(fence.group(1))
    return text, opened is not None


def _strip_chatter(text: str) -> str:
    """Without "Here is the summary:" lines before it and "Let me know..." lines after it."""
    lines = text.strip().split("\n")
    while lines and _WRAP_TAG.match(lines[0]):
        lines.pop(0)
    while lines and _WRAP_TAG.match(lines[-1]):
        lines.pop()
    for _ in range(2):
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            break
        chatter = _CHATTER.match(lines[first].strip())
        if not chatter:
            break
        rest = (chatter.group("rest") or "").strip()
        lines[first:first + 1] = [rest] if rest else []
    while lines and (not lines[-1].strip() or _SIGN_OFF.match(lines[-1])):
        lines.pop()
    return "\n".join(lines).strip()


# ------------------------------------------------------------------ sentences
def sentences(line: str) -> list[str]:
    """A line split at sentence ends; a piece starting in lower case stays with the last."""
    parts: list[str] = []
    for piece in SENTENCE_END.split(line.strip()):
        if parts and piece[:1].islower():
            parts[-1] += " " + piece
        elif piece:
            parts.append(piece)
    return parts


# ------------------------------------------------------------------ injected lines
_ROLE_WORD = re.compile(r"^\W*(?:system|user|assistant|developer|model)\b", re.IGNORECASE)


def _role_rest(raw_line: str) -> str:
    """What a role line says besides its role marker and template tokens."""
    rest = _ROLE_LINE.sub("", raw_line)
    for pattern in (_SPECIAL, _BRACKET, _LLAMA2_SYS, _BOS_EOS):
        rest = pattern.sub(" ", rest)
    rest = re.sub(r"</?\s*(?:start_of_turn|end_of_turn)>", " ", rest, flags=re.IGNORECASE)
    return norm(_ROLE_WORD.sub("", rest))


def drop_injections(text: str, material: str) -> tuple[str, int]:
    """Neutralised text without tag-only lines and invented role turns.

    A role header with nothing after it (``SYSTEM:``, ``### System``, ``<|im_start|>system``)
    opens a turn that runs to the next blank line or heading. A role or override line, or a
    line of such a turn, stays (defused) only if what it says occurs in the material.
    """
    known = f" {norm(material)} "
    kept, dropped, turn = [], 0, False
    for raw_line in text.split("\n"):
        line, flagged = _neutralise_line(raw_line)
        if not raw_line.strip() or (HEADING.match(raw_line) and not flagged):
            turn = False
        if _TAG_ONLY.match(line):
            dropped += 1
            continue
        if flagged or turn:
            rest = _role_rest(raw_line)
            if flagged and not rest:
                turn = True
            if not rest or f" {rest} " not in known:
                dropped += 1
                continue
        kept.append(line)
    return "\n".join(kept).strip(), dropped
