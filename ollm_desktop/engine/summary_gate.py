"""The check a model's summary must pass before it becomes a checkpoint.

Built for the 135M-8B models this app runs: they answer the user instead of summarising,
refuse, think aloud, echo the prompt, loop on one sentence, or, steered by text in the chat,
write the engine's wrapper tags and fake system turns. A checkpoint is part of every later
request, so a bad one costs every later turn: the gate rejects it, and the engine retries or
builds an extractive checkpoint by code.

Injection policy (see ``sanitise``): injected role lines and tag-only lines are dropped; if
the rest is a real summary the verdict is ok with that text, if nothing else remains it is
``injection_only``. Cleaning and neutralising live in ``sanitise`` and are re-exported here.

Pure and fast: regular expressions and one n-gram set per call, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ollm_desktop.engine.own_markup import own_markup
from ollm_desktop.engine.sanitise import (
    HEADING,
    QUOTED,
    clean,
    drop_injections,
    neutralise,
    norm,
    sentences,
)

__all__ = ["NGRAM", "QUOTED", "REASONS", "GateVerdict", "collapse_repetition", "inspect_summary",
           "neutralise"]

REASONS = ("empty", "refusal", "reply", "reasoning", "echo", "repetition", "structureless",
           "injection_only")


@dataclass(frozen=True, slots=True)
class GateVerdict:
    ok: bool
    text: str  # the cleaned, neutralised text (use it when ok)
    reason: str | None  # None when ok; else one of REASONS
    detail: str = ""  # human-readable, for logs and the report


# ------------------------------------------------------------------ text shape
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_FENCE_LINE = re.compile(r"^\s*(```|~~~)")
_CODE_LINE = re.compile(
    r"^\s*(?:(?:def|class|import|from|return|async|await|for|while|if|elif|else|try|except|with"
    r"|fn|let|const|var|function|public|private|package|using|#include|SELECT|INSERT|UPDATE"
    r"|CREATE)\b.*[():=\[\]{};<>].*|.*[;{]\s*|\s*[})\]];?,?\s*|\s{4,}\S.*|\$ \S.*)$")
_PUNCT = "`'\"“”‘’()[]{}<>*_.,;:!?#~"
_WORD_CORE = re.compile(r"[\w'’./:@+#%=-]+")


def _blocks(text: str) -> list[tuple[str, bool]]:
    """Each line with whether it is code (inside a fence, a fence marker, or code-like)."""
    result, fenced = [], False
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            fenced = not fenced
            result.append((line, True))
        else:
            result.append((line, fenced or (not _BULLET.match(line)
                                            and bool(_CODE_LINE.match(line)))))
    return result


def _is_word(token: str) -> bool:
    core = token.strip(_PUNCT)
    return (sum(c.isalpha() for c in core) >= 2 and bool(_WORD_CORE.fullmatch(core))) or \
        sum(0x2E80 <= ord(c) <= 0x9FFF for c in core) >= 2  # CJK text has no spaces



def _prose(text: str) -> list[str]:
    """Sentences outside code and headings, bullet marks removed."""
    units: list[str] = []
    for line, code in _blocks(text):
        if code or HEADING.match(line) or not line.strip():
            continue
        units.extend(sentences(_BULLET.sub("", line)))
    return units


def _word_count(text: str) -> int:
    return sum(1 for token in text.split() if _is_word(token))



# ------------------------------------------------------------------ repetition
def _loop_key(unit: str) -> str:
    return norm(_BULLET.sub("", unit))


def _repeated(keys: list[str], texts: list[str], total_chars: int, min_words: int) -> set[str]:
    counts = Counter(k for k in keys if k)
    chars: Counter[str] = Counter()
    for key, text in zip(keys, texts, strict=True):
        chars[key] += len(text)
    found = set()
    for key, n in counts.items():
        words = len(key.split())
        if (n >= 3 and words >= min_words) or n >= 5 or \
                (n >= 2 and words >= min_words and chars[key] > 0.4 * total_chars):
            found.add(key)
    return found


_NGRAM_LOOP = re.compile(r"((?:\S+[ \t]+){1,8}?)\1{3,}")


def _may_loop(line: str) -> bool:
    """A phrase of one to eight words said four times running (``_NGRAM_LOOP``) has its last
    three copies whole: some word comes back twice, each time the phrase's length later. A line
    without that has no loop, and the costly search is spared (issue 28, point 7: it was a
    tenth of a 32K compaction's CPU)."""
    words = line.split()
    return any(a == b == c for step in range(1, 9)
               for a, b, c in zip(words, words[step:], words[2 * step:], strict=False))


def collapse_repetition(text: str) -> tuple[str, bool]:
    """Keep the first of each looped line or sentence; fold runs of a repeated phrase.

    A loop is a line or sentence seen 3+ times, 5+ times if it is short, or 2+ times when its
    copies make up over 40 % of the text; code blocks are left alone. Returns (text, changed).
    """
    total = max(1, len(text))
    blocks = _blocks(text)
    lines: list[str | None] = [line for line, _ in blocks]
    prose = [i for i, (line, code) in enumerate(blocks) if not code and line.strip()]
    keys = [_loop_key(blocks[i][0]) for i in prose]
    loops = _repeated(keys, [blocks[i][0] for i in prose], total, 4)
    seen: set[str] = set()
    for i, key in zip(prose, keys, strict=True):
        if key in loops:
            if key in seen:
                lines[i] = None
            seen.add(key)
    kept = [i for i in prose if lines[i] is not None]
    split = {i: sentences(_BULLET.sub("", blocks[i][0])) for i in kept}
    units = [s for i in kept for s in split[i]]
    loops = _repeated([_loop_key(s) for s in units], units, total, 3)
    seen = set()
    for i in kept:
        if not any(_loop_key(s) in loops for s in split[i]):
            continue
        out = []
        for sentence in split[i]:
            key = _loop_key(sentence)
            if key not in loops or key not in seen:
                out.append(sentence)
            seen.add(key)
        mark = _BULLET.match(blocks[i][0])
        lines[i] = ((mark.group(0) if mark else "") + " ".join(out)) if out else None
    for i in kept:
        line = lines[i]
        if line is not None and not line.lstrip().startswith("|") and \
                _may_loop(line):  # (tables repeat cells)
            lines[i] = _NGRAM_LOOP.sub(r"\1", line + " ")[:-1]
    result = re.sub(r"\n{3,}", "\n\n", "\n".join(x for x in lines if x is not None)).strip()
    return result, result != text.strip()


# ------------------------------------------------------------------ the checks
_REFUSAL = re.compile(
    r"^\W*(?:(?:i'?m|i am) (?:sorry|afraid)\b|sorry,? (?:but )?i\b|unfortunately,? i\b|as an ai\b"
    r"|i (?:can(?:no|')t|cannot|won'?t|will not|(?:am|'m) (?:not able|unable)) (?:to )?(?:help"
    r"|assist|summari[sz]e|comply|provide|do|fulfil|complete|create|produce|process|continue"
    r"|access|write|generate|condense|compress)"
    r"|es tut mir leid|leider kann ich|entschuldigung|désolé|je suis désolée?|je ne peux pas"
    r"|lo siento)", re.IGNORECASE)
_SHORT_REFUSAL = re.compile(r"\b(?:i can(?:no|')t|i cannot|i(?:'m| am) unable to|i won'?t be "
                            r"able to|as an ai(?: language model)?)\b", re.IGNORECASE)
_MONOLOGUE_START = re.compile(
    r"^\W*(?:(?:okay|ok|alright|all right|hmm+|so|well|right)\b[,.!]?\s*(?:so\b,?\s*)?"
    r"(?:let me|let's|i need|i should|i'll|i will|i have to|i must|i think|first,? i|we need"
    r"|the user (?:wants|asked|is asking|has asked) (?:me|a summary|for a summary))\b"
    r"|(?:let me|let's) (?:think|see|start|begin|break|analy[sz]e|figure|look|summari[sz]e|go "
    r"through|read|review|recap|tackle|process|work)"
    r"|i (?:need|have|want) to (?:summari[sz]e|write|create|produce|condense|compress|figure"
    r"|think|look|go|make|read)"
    r"|first,? i(?:'ll| will| need| should)\b|the user (?:wants|asked|is asking|has asked) me\b"
    r"|(?:thinking|reasoning|thought process|my thoughts)\s*:)", re.IGNORECASE)
_MONOLOGUE_CUE = re.compile(r"\b(?:let me|let's see|i need to|i should|i think|i'll|wait[,!]"
                            r"|hmm+|maybe i|step by step|actually,|wants me to)\b", re.IGNORECASE)
_REPLY_START = re.compile(
    r"^\W*(?:(?:\*\*)?(?:assistant|ai)(?:\*\*)?\s*:\s*)?(?:(?:sure|certainly|of course|absolutely"
    r"|no problem|gladly|great question"
    r"|good question)\b|(?:hi|hello|hey)\b[\s,!]|(?:yes|no)[,!]"
    r"|here(?:'s|’s| is| are) (?:how|what|the (?:code|steps|answer|solution|updated|fixed"
    r"|corrected|script|function)|an? (?:example|updated|fixed|simple|quick|complete)|some)\b"
    r"|(?:to|in order to) [^.\n]{1,80}, (?:you|simply|just)\b|you (?:can|could|should|need to"
    r"|will need|might|may want)\b|follow these steps|step 1\b|i'?d be (?:happy|glad)\b"
    r"|i'?ll (?:help|show|explain|write|walk)\b|let me (?:help|show|explain|walk)\b"
    r"|i(?: have|'ve) (?:updated|fixed|changed|rewritten|written|created|added)\b)",
    re.IGNORECASE)
_YOU = re.compile(r"\b(?:you|your|yours|you're|you'll|you've|you'd|yourself)\b", re.IGNORECASE)
_ECHO_MARKERS = tuple(re.compile(p, f) for p, f in (
    (r"rewrite this checkpoint in at most", re.I),
    (r"compress the chat history above", re.I),
    (r"into a checkpoint of at most \d+ tokens", re.I),
    (r"^\s*(?:MUST|SHOULD|MAY):", re.M),
    (r"output only the summary", re.I),
    (r"your previous (?:attempt|answer) (?:was rejected|could not be used)", re.I),
    (r"stay strictly under \d+ tokens", re.I),
    (r"write only the checkpoint itself", re.I),
    (r"fold the previous checkpoint into the new one", re.I),
    (r"messages marked kept=", re.I),
    (r"you (?:compress chat history|shorten an existing conversation checkpoint)", re.I),
    (r"do not answer the user, do not continue the conversation", re.I),
))
# Parts of the prompt that carry chat content, not instructions: not echo material.
_PROMPT_CONTENT = re.compile(r"<(goal|focus|previous_checkpoint|checkpoint|chat_history)>.*?"
                             r"</\1>", re.DOTALL)
NGRAM = 8


def _echo(text: str, material: str, prompt: str) -> str:
    """Why ``text`` repeats the engine's instructions, or ""."""
    for marker in _ECHO_MARKERS:
        found = marker.search(text)
        if found and not marker.search(material):
            return f"repeats the instruction {found.group(0).strip()!r}"
    words = norm(text).split()
    if len(words) < NGRAM:
        return ""
    instructions = norm(_PROMPT_CONTENT.sub(" ", prompt)).split()
    grams = {" ".join(instructions[i:i + NGRAM]) for i in range(len(instructions) - NGRAM + 1)}
    windows = [" ".join(words[i:i + NGRAM]) for i in range(len(words) - NGRAM + 1)]
    copied = {window for window in windows if window in grams}
    if copied:  # (the material's run of words is read only then: 20K tokens at 32K)
        mat = f" {' '.join(norm(material).split())} "
        copied = {gram for gram in copied if f" {gram} " not in mat}
    covered = bytearray(len(words))
    for i, window in enumerate(windows):
        if window in copied:
            covered[i:i + NGRAM] = b"\x01" * NGRAM
    share = sum(covered) / len(words)
    run = max((len(r) for r in bytes(covered).split(b"\x00")), default=0)
    if (share >= 0.5 and sum(covered) >= 16) or run >= 40:
        return f"{share:.0%} of its words copy the prompt"
    return ""


def _code_share(text: str) -> tuple[float, int]:
    code = prose = 0
    for line, is_code in _blocks(text):
        if not line.strip() or HEADING.match(line):
            continue
        if is_code:
            code += 0 if _FENCE_LINE.match(line) else len(line.strip())
        else:
            prose += len(line.strip())
    return code / max(1, code + prose), _word_count(" ".join(_prose(text)))


def _reply(text: str, prose: list[str]) -> str:
    head = " ".join(prose[:1]) if prose else text.strip()
    if _REPLY_START.match(head):
        return "starts like an answer to the user"
    share, words = _code_share(text)
    if share > 0.6 or (share > 0.35 and words < 20):
        return f"mostly code ({share:.0%}), not a summary"
    you = sum(1 for s in prose if _YOU.search(s))
    if you >= 2 and you >= 0.5 * len(prose):
        return f"addresses the user in {you} of {len(prose)} sentences"
    return ""


def _reasoning(prose: list[str], text: str) -> str:
    head = prose[0] if prose else text.strip()
    if _MONOLOGUE_START.match(head):
        return "starts with the model's reasoning"
    cues = sum(1 for s in prose if _MONOLOGUE_CUE.search(s))
    if cues >= 3 and cues >= 0.3 * len(prose):
        return f"{cues} of {len(prose)} sentences are reasoning"
    return ""


def _refusal(prose: list[str], text: str) -> str:
    head = " ".join(prose[:2])[:300].replace("’", "'") if prose else text[:300]
    if _REFUSAL.match(head) or (_word_count(text) < 40 and _SHORT_REFUSAL.search(head)):
        return "refuses the task"
    return ""


def _structureless(text: str) -> str:
    visible = [c for c in text if not c.isspace()]
    letters = sum(c.isalnum() for c in visible)
    if letters < 0.5 * max(1, len(visible)):
        return "mostly symbols"
    lines = [line for line, code in _blocks(text) if line.strip() and not code]
    if not any(_word_count(_BULLET.sub("", line)) >= 3 and not HEADING.match(line)
               for line in lines):
        return "no sentence-like content"
    return ""



def _reject(reason: str, text: str, detail: str) -> GateVerdict:
    return GateVerdict(False, neutralise(text), reason, detail)


def inspect_summary(raw: str, *, material: str, prompt: str, target: int) -> GateVerdict:
    """Clean a model's summary and decide whether it may become a checkpoint.

    ``material`` is what was summarised, ``prompt`` the whole prompt sent (system + user),
    ``target`` the token target (informational: size is the engine's business).
    """
    text, cut_think = clean(raw)
    if not any(c.isalnum() for c in text):
        if cut_think:
            return _reject("reasoning", text, "an unclosed <think> block and nothing else")
        return _reject("empty", text, "no text left after cleaning")
    text, dropped = drop_injections(text, material)
    if not any(c.isalnum() for c in text):
        return _reject("injection_only", text, f"only {dropped} injected line(s)")
    prose = _prose(text)
    checks = (("reasoning", lambda: _reasoning(prose, text)),
              ("refusal", lambda: _refusal(prose, text)),
              ("echo", lambda: _echo(text, material, prompt)),
              ("echo", lambda: own_markup(text, material)))
    for reason, check in checks:
        detail = check()
        if detail:
            return _reject(reason, text, detail)
    notes = [f"dropped {dropped} injected line(s)"] if dropped else []
    collapsed, changed = collapse_repetition(text)
    if changed:
        rest = _prose(collapsed)
        if len(rest) < 3 or _word_count(" ".join(rest)) < 15:
            return _reject("repetition", collapsed, "the same sentence repeated")
        text, prose = collapsed, rest
        notes.append("collapsed repeated lines")
    for reason, detail in (("reply", _reply(text, prose)),
                           ("structureless", _structureless(text))):
        if detail:
            return _reject(reason, text, detail)
    return GateVerdict(True, text, None, "; ".join(notes))
