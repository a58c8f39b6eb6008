"""``python -m bench.memory --kind corrections --perturb``: the dev cases, as people vary them.

The held-out writers wrote in lower case, with arrows and parentheses, after other talk and
with fillers (``corpus/README.md``); the dev halves are mostly well formed. This harness takes
every case of the dev halves (dev, dev-more, dev-3, dev-4; never a held-out file) that the
engine passes as written, and plays deterministic variants of its message under test that a
person would plausibly write and that must not change the expected result. Each variant kind
is reported on its own: its pass rate and the ids that fail.

A variant is **value-safe**: every expected value (current, replaced, not current) the message
holds is still in it, character for character, as often as before; a variant that would touch
one is dropped for that case. It is **meaning-preserving** by these rules, checked per case:

- a variant that changes nothing (no final period to drop, no "X, not Y" to rewrite) is not
  applicable and is dropped;
- text placed before the message (``after-other``, ``history-last``) is dropped where the
  message refers back to what came just before it: a retraction or a bare new value (forms
  ``scratch-that`` and ``statement-change``) or a first word that is a pronoun ("it's 9443
  now");
- the rewritten shapes ("X, not Y", "from Y to X", "Y -> X") are rewritten only where Y is a
  replaced value and X the current value of the case, so the rewrite is the same correction;
- contractions only with a pronoun subject ("it is" / "it's"), never an auxiliary before its
  subject ("isn't it"), so a question stays a question;
- a sentence added after the message follows a full stop (one the message lacked is added, so
  it does not run on into the message's last clause);
- fillers and closing words are the user's only (a reply keeps its own shape), and the
  unrelated sentences and the extra history message hold no word of the case's own text; the
  extra message's value must stay current too (it is scored as one more key of the case).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.memory import corrections

DEV_HALVES = ("dev", "dev-more", "dev-3", "dev-4")
Case = dict[str, Any]
_PRONOUN_START = re.compile(r"^(?:it|that|this|these|those|they|he|she)\b", re.I)
_BACK_FORMS = {"scratch-that", "statement-change"}
_OTHER_SENTENCE = {"user": "Had a long day of meetings today.", "assistant": "Good question."}
_TAIL_SENTENCE = "Anyway, thanks for all the help so far."
# (message, its value, a key description, a later correction of it, its new value): the first
# that shares no word with a case is used
_EXTRA_FACTS = (
    ("Our team standup is at 9:15 every morning.", "9:15", "standup time",
     "Also, the standup is at 9:30 now.", "9:30"),
    ("The office printer is called mantis.", "mantis", "printer name",
     "Also, rename the office printer to heron.", "heron"),
    ("My laptop has 32 GB of RAM.", "32 GB", "laptop memory",
     "Also, my laptop now has 64 GB of RAM, not 32 GB.", "64 GB"),
)
_LEAD_COMMA = re.compile(r"^((?:ok so|scratch that|actually|no wait|wait|sorry|correction|oops|"
                         r"update|from now on|going forward|typo),)\s", re.I)
# a sentence's end, not a title's full stop ("Dr. Lindqvist")
_LINE_BREAK = re.compile(r"(?<!\b[DM]r\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bProf\.)"
                         r"(?<=[.!?])\s+(?=\S)", re.I)
_NOUN_IS = re.compile(r"(?<=[a-z])(?<!\bit)(?<!\bthat)(?<!\bthere)(?<!\bwhat)(?<!\bwho)"
                      r"(?<!\bhere)(?<!\bthis)\s+is\s+(?=now\b|on\b|at\b|in\b)")
_CONTRACT = (("it is", "it's"), ("that is", "that's"), ("we are", "we're"),
             ("i am", "i'm"), ("we will", "we'll"), ("do not", "don't"),
             ("is not", "isn't"), ("are not", "aren't"))  # ("let us say" is no "let's say")


def _values(case: Case) -> list[str]:
    keys = case["expect"]["keys"]
    found = [k["current"] for k in keys] + [v for k in keys for v in k["replaced"]]
    return [v for v in found + [v for k in keys for v in k["not_current"]] if v]


def _value_re(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + re.escape(value) + r"(?![\w])", re.I)


def _value_spans(text: str, case: Case) -> list[tuple[int, int]]:
    return [m.span() for v in _values(case) for m in _value_re(v).finditer(text)]


def _safe(before: str, after: str, case: Case) -> bool:
    """Every expected value the message held is still there, exactly, as often."""
    for value in _values(case):
        old = [m.group(0) for m in _value_re(value).finditer(before)]
        new = [m.group(0) for m in _value_re(value).finditer(after)]
        if sorted(old) != sorted(new):
            return False
    return True


def _outside_values(text: str, case: Case, change: Callable[[str], str]) -> str:
    """``change`` applied to the text between the expected values' spans."""
    spans = sorted(_value_spans(text, case))
    out, at = [], 0
    for start, end in spans:
        if start < at:
            continue
        out += [change(text[at:start]), text[start:end]]
        at = end
    return "".join([*out, change(text[at:])])


def _lower_first(text: str, case: Case) -> str:
    """The message's first letter in lower case, unless it opens a value or an acronym."""
    if any(start == 0 for start, _ in _value_spans(text, case)) or re.match(r"[A-Z]{2}", text):
        return text
    return text[:1].lower() + text[1:]


def _drop_period(text: str) -> str:
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def _ended(text: str) -> str:
    """The message with its sentence ended, so the sentence after it is one of its own."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _pair(case: Case) -> list[tuple[str, str]]:
    """(new, old) pairs of the case: a key's current value and each value it replaces."""
    return [(k["current"], old) for k in case["expect"]["keys"] for old in k["replaced"]]


def _x_not_y(text: str, case: Case, into: str) -> str:
    for _new, old in _pair(case):
        old_re = re.escape(old)
        if into == "paren":
            text = re.sub(r",\s+not\s+((?:the\s+)?" + old_re + r")(?![\w])", r" (not \1)", text)
        elif into == "bare":
            text = re.sub(r",\s+not\s+((?:the\s+)?" + old_re + r")(?![\w])", r" not \1", text)
        else:  # "(not Y)" -> ", not Y"
            text = re.sub(r"\s*\(not\s+((?:the\s+)?" + old_re + r")\)", r", not \1", text)
    return text


def _arrows(text: str, case: Case, arrow: str) -> str:
    for new, old in _pair(case):
        old_re, new_re = re.escape(old), re.escape(new)
        if arrow == "from":
            text = re.sub(r"(?<![\w])(" + old_re + r")\s*(?:->|→|=>)\s*(" + new_re + r")(?![\w])",
                          r"from \1 to \2", text)
        else:
            text = re.sub(r"\bfrom\s+(" + old_re + r")\s+to\s+(" + new_re + r")(?![\w])",
                          r"\1 " + arrow + r" \2", text, flags=re.I)
    return text


def _contract(text: str) -> str:
    out = text
    for full, short in _CONTRACT:
        pattern = r"\b" + full.replace(" ", r"\s+") + r"\b"
        out = re.sub(pattern, lambda m, s=short: _same_case(m.group(0), s), out, flags=re.I)
    if out != text:
        return out
    for full, short in _CONTRACT:  # nothing to contract: expand, where no subject follows
        pattern = r"\b" + re.escape(short).replace("'", "['’]") + r"(?!\s+(?:it|that|there|we|"\
            r"you|they|he|she|i|been|got)\b)"
        out = re.sub(pattern, lambda m, f=full: _same_case(m.group(0), f), out, flags=re.I)
    return out


def _same_case(source: str, text: str) -> str:
    return text[:1].upper() + text[1:] if source[:1].isupper() else text


def _refers_back(case: Case) -> bool:
    return bool(_BACK_FORMS & set(case["forms"])) or bool(
        _PRONOUN_START.match(case["message"]["text"].lstrip()))


def _user(case: Case) -> bool:
    return bool(case["message"]["role"] == "user")


def _with_text(case: Case, text: str) -> Case:
    return {**case, "message": {**case["message"], "text": text}}


def _lead(filler: str) -> Callable[[Case], Case | None]:
    def variant(case: Case) -> Case | None:
        text = case["message"]["text"]
        return _with_text(case, f"{filler} {_lower_first(text, case)}") if _user(case) else None
    return variant


def _after_other(case: Case) -> Case | None:
    if _refers_back(case):
        return None
    first = _OTHER_SENTENCE[case["message"]["role"]]
    return _with_text(case, f"{first} {case['message']['text']}")


def _history_text(change: Callable[[str, Case], str]) -> Callable[[Case], Case | None]:
    """The same change made to every earlier message (the values stated there are casual
    too): each stays value-safe, checked here, as the message under test is."""
    def variant(case: Case) -> Case | None:
        history = [{**m, "text": change(m["text"], case)} for m in case["history"]]
        if not history or any(not _safe(a["text"], b["text"], case)
                              for a, b in zip(case["history"], history, strict=True)):
            return None
        return {**case, "history": history}
    return variant


_ASKING = re.compile(r"^(?:should|shall|could|can|would|will|do|does|did|is|are|isn't|aren't|"
                     r"was|were|have|has|what|why|how|when|where|which|who)\b", re.I)


def _unmarked_questions(text: str, case: Case) -> str:
    """A question that opens with an auxiliary or a wh-word without its "?" (chat style);
    one marked by "?" alone ("the port is 9443 now?") keeps it: without, it would state."""
    parts = re.split(r"(?<=[.!?])\s+", text)
    return " ".join(p[:-1] if p.endswith("?") and _ASKING.match(p) else p for p in parts)


def _is_now(text: str, case: Case, form: str) -> str:
    """"The K is now X." as "K: X now" (a terse note), "K -> X" or "The K is X now"."""
    for key in case["expect"]["keys"]:
        new = re.escape(key["current"])
        match = re.match(r"^(?:the |our )?([^,;:.]+?) is now (" + new + r")\.?$", text, re.I)
        if match and form == "colon":
            return f"{match.group(1)}: {match.group(2)} now"
        if match and form == "arrow":
            return f"{match.group(1)} -> {match.group(2)}"
        match = re.match(r"^(.+?) is now (" + new + r")(\.?)$", text, re.I)
        if match and form == "last":
            return f"{match.group(1)} is {match.group(2)} now{match.group(3)}"
    return text


def _mid_message(case: Case) -> Case | None:
    if _refers_back(case) or not _user(case):
        return None
    text = f"{_OTHER_SENTENCE['user']} {_ended(case['message']['text'])} {_TAIL_SENTENCE}"
    return _with_text(case, text)


def _no_article(text: str, case: Case) -> str:
    """"API port is now 9443": a terse message drops its opening determiner."""
    match = re.match(r"(?:The|Our|the|our)\s+(?=[A-Za-z])", text)
    if match is None or any(start < match.end() for start, _ in _value_spans(text, case)):
        return text
    rest = text[match.end():]
    return rest if rest[:2].isupper() else rest[:1].upper() + rest[1:]


def _extra_history(last: bool, corrected: bool = False) -> Callable[[Case], Case | None]:
    def variant(case: Case) -> Case | None:
        if (last or corrected) and _refers_back(case):
            return None
        words = {w.lower() for m in [*case["history"], case["message"]]
                 for w in re.findall(r"[A-Za-z]{3,}|\d+", m["text"])}
        for text, value, key, later, new in _EXTRA_FACTS:
            own = {w.lower() for w in re.findall(r"[A-Za-z]{3,}|\d+", text + " " + later)} - {
                "the", "our", "also", "now", "not", "has"}
            if own & words or any(v.lower() in w.lower() for v in (value, new)
                                  for w in _values(case)):
                continue
            extra = {"role": "user", "text": text}
            history = [*case["history"], extra] if last else [extra, *case["history"]]
            current, replaced = (new, [value]) if corrected else (value, [])
            keys = [*case["expect"]["keys"],
                    {"key": key, "current": current, "replaced": replaced, "not_current": []}]
            made = {**case, "history": history, "expect": {**case["expect"], "keys": keys}}
            if corrected:  # two keys at once: the message corrects the extra key too
                if not _user(case) or case["polarity"] != "correction":
                    return None
                made["message"] = {**case["message"],
                                   "text": f"{_ended(case['message']['text'])} {later}"}
            return made
        return None
    return variant


def _text_variant(change: Callable[[str, Case], str], user_only: bool = False,
                  ) -> Callable[[Case], Case | None]:
    def variant(case: Case) -> Case | None:
        if user_only and not _user(case):
            return None
        return _with_text(case, change(case["message"]["text"], case))
    return variant


VARIANTS: dict[str, Callable[[Case], Case | None]] = {
    "lower": _text_variant(lambda t, c: _outside_values(t, c, str.lower)),
    "no-period": _text_variant(lambda t, c: _drop_period(t)),
    "thx": _text_variant(lambda t, c: _drop_period(t) + " thx", user_only=True),
    "emoji": _text_variant(lambda t, c: t + " 🙂", user_only=True),
    "lead-ok-so": _lead("ok so"),
    "lead-update": _lead("quick update:"),
    "lead-hey": _lead("hey,"),
    "tail-sentence": _text_variant(lambda t, c: f"{_ended(t)} {_TAIL_SENTENCE}", user_only=True),
    "after-other": _after_other,
    "mid-message": _mid_message,
    "no-article": _text_variant(_no_article, user_only=True),
    "lead-no-comma": _text_variant(lambda t, c: _LEAD_COMMA.sub(lambda m: m.group(1)[:-1] + " ",
                                                                t), user_only=True),
    "lead-dash": _text_variant(lambda t, c: _LEAD_COMMA.sub(lambda m: m.group(1)[:-1] + " - ",
                                                            t), user_only=True),
    "lead-dots": _text_variant(lambda t, c: _LEAD_COMMA.sub(lambda m: m.group(1)[:-1] + "... ",
                                                            t), user_only=True),
    "tight-commas": _text_variant(lambda t, c: re.sub(r",\s+(?=[A-Za-z])", ",", t)),
    "no-question-mark": _text_variant(_unmarked_questions),
    "is-now-colon": _text_variant(lambda t, c: _is_now(t, c, "colon"), user_only=True),
    "is-now-last": _text_variant(lambda t, c: _is_now(t, c, "last"), user_only=True),
    "is-now-arrow": _text_variant(lambda t, c: _is_now(t, c, "arrow"), user_only=True),
    "bang": _text_variant(lambda t, c: t[:-1] + "!" if t.endswith(".") else t, user_only=True),
    "lines": _text_variant(lambda t, c: _LINE_BREAK.sub("\n", t)),
    "noun-s": _text_variant(lambda t, c: _NOUN_IS.sub("'s ", t, count=1), user_only=True),
    "not-paren": _text_variant(lambda t, c: _x_not_y(t, c, "paren")),
    "not-bare": _text_variant(lambda t, c: _x_not_y(t, c, "bare")),
    "paren-to-comma": _text_variant(lambda t, c: _x_not_y(t, c, "comma")),
    "arrow-ascii": _text_variant(lambda t, c: _arrows(t, c, "->")),
    "arrow-unicode": _text_variant(lambda t, c: _arrows(t, c, "→")),
    "arrow-to-from": _text_variant(lambda t, c: _arrows(t, c, "from")),
    "contraction": _text_variant(lambda t, c: _contract(t)),
    "history-first": _extra_history(last=False),
    "history-last": _extra_history(last=True),
    "two-keys": _extra_history(last=False, corrected=True),
    "history-lower": _history_text(lambda t, c: _outside_values(t, c, str.lower)),
    "history-no-article": _history_text(_no_article),
    "history-noun-s": _history_text(lambda t, c: _NOUN_IS.sub("'s ", t, count=1)),
}


def variants(case: Case) -> dict[str, Case]:
    """The applicable, value-safe variants of one case, by kind."""
    out = {}
    for kind, make in VARIANTS.items():
        made = make(case)
        if made is None or made == case:
            continue
        if not _safe(case["message"]["text"], made["message"]["text"], case):
            continue
        out[kind] = made
    return out


def held(row: dict[str, Any]) -> bool:
    """The scorer's own verdict (``corrections_report``'s "failed", negated)."""
    ok = row["applied"] if row["polarity"] != "negative" else not row["superseded"]
    return bool(ok and not row["false_supersessions"])


async def _held(case: Case, ctx: int) -> bool:
    played = await corrections.play(case, ctx)
    return held(corrections.score(case, played["entries"], played["panel"]))


async def run(ctx: int, halves: Sequence[str] = DEV_HALVES) -> dict[str, Any]:
    passing: list[Case] = []
    for half in halves:
        for case in corrections.load(half):
            if await _held(case, ctx):
                passing.append(case)
    kinds: dict[str, dict[str, Any]] = {k: {"n": 0, "of": 0, "failed": []} for k in VARIANTS}
    texts: dict[str, dict[str, str]] = {}
    for case in passing:
        for kind, variant in variants(case).items():
            kinds[kind]["of"] += 1
            if await _held(variant, ctx):
                kinds[kind]["n"] += 1
            else:
                kinds[kind]["failed"].append(case["id"])
                texts.setdefault(kind, {})[case["id"]] = variant["message"]["text"]
    return {"passing": len(passing), "kinds": kinds, "failed_texts": texts}


def table(result: dict[str, Any], label: str) -> str:
    lines = [f"# Perturbed dev cases ({label or 'no label'}): "
             f"{result['passing']} dev cases pass as written", "",
             "| variant | held | failed ids |", "|---|---|---|"]
    for kind, row in result["kinds"].items():
        share = f"{row['n']}/{row['of']} ({row['n'] / row['of']:.1%})" if row["of"] else "-"
        lines.append(f"| {kind} | {share} | {', '.join(row['failed']) or '-'} |")
    total = sum(r["n"] for r in result["kinds"].values())
    of = sum(r["of"] for r in result["kinds"].values())
    lines.append(f"| **all** | {total}/{of} ({total / max(of, 1):.1%}) | |")
    return "\n".join(lines)


def main(ctx: int, out: Path, label: str) -> int:
    started = time.monotonic()
    result = asyncio.run(run(ctx))
    result["params"] = {"kind": "corrections-perturb", "ctx": ctx, "label": label,
                        "wall_s": round(time.monotonic() - started, 1)}
    name = f"perturb-{label}" if label else "perturb"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    text = table(result, label)
    (out / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"results: {out / (name + '.json')}")
    return 0
