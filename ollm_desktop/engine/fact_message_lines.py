"""How a message's lines are read before its sentences (issue 28, mood of a message's layout).

Two readings of a message's line breaks:

- a **wrapped line** goes on into the next one: a line that ends in a word no sentence ends
  with (a subject pronoun, a determiner, a preposition, a conjunction, a modal or "to": "I
  suggest we\\nstart the meeting at 20:00") and is followed by a line that begins in lower
  case is one sentence with it, as a mail client's hard wrap writes it; so is a line that
  begins with a figure or a capital after a preposition or an article ("we moved the port
  to\\n9090 yesterday", "changed from the Old Mill to\\nThe Granary"; stop 43), a list's
  item excepted;
- a **title of a proposal**: a message's first line with no closing punctuation, with more
  lines after it (an issue's, a request's or a petition's title: "Switch to pnpm"), states
  what the text below it proposes when the text itself says it is a proposal: a proposal's
  noun ("My proposal is ...", "[Feature request]", "a petition", "Quick poll"), a first
  person's proposal verb ("I would recommend ...", "I suggest ...", "may I suggest"), a
  condition it hangs on ("Contingent on convincing everyone ...") or a change argued for by
  what it would do (a change verb's gerund as the subject of a modal: "Switching to Postgres
  should solve most problems"), or a question that asks the listener's opinion of it ("What
  do you think?", "Thoughts?", "Is there a reason to keep mysql as the default?"; a request
  to act, "Can you update the config?", proposes nothing; a line that opens with a change
  verb's past, "Moved the timeout to 45 s", reports a change made). Its values are the
  proposal's, never current. A chat message's bare imperative ("Bump the timeout to 45 s",
  or a title over a body that proposes nothing) stays the user's decision. A title that names
  its items as proposals ("A short list of suggestions for ...") makes the items listed
  below it proposals too ("1. Start the game at 6:35 p.m. ET").

The words are closed classes (the function words that end no sentence, the nouns of a
proposal, the first-person proposal verbs).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ollm_desktop.engine.fact_dotted_initials import sentences
from ollm_desktop.engine.fact_words import (
    CONJUNCTIONS,
    DETERMINERS,
    MODALS,
    PRONOUNS,
    closed,
    is_change,
)

# The grammar's cost grows faster than a sentence's length: a reply of one 500 KB line took
# 47 s on the event loop. Facts are read from a message's first MAX_FACT_TEXT characters; the
# whole text stays in the history and in recall.
MAX_FACT_TEXT = 16_000

# Words no sentence ends with: a line ending in one goes on into the next line.
UNENDED = PRONOUNS - closed("it you") | DETERMINERS - closed("that this these those its his her") \
    | MODALS | CONJUNCTIONS | closed("to of for with from into at by the a an should shall "
                                     "will can must")
_LAST_WORD = re.compile(r"([A-Za-z']+)\s*$")
# A line that opens with a figure or a capital goes on only after a word that takes an object
# (a preposition, an article: "moved the port to\n9090", "changed to\nThe Granary").
_TAKES = closed("to of for with from into at by the a an")
_OBJECT_FIRST = re.compile(r"[A-Z0-9$€£¥]")
_CLOSED_LINE = re.compile(r"[.!?:;,]\s*$")
PROPOSING = re.compile(
    r"\b(?:proposals?|suggestions?|feature\s+request|petition|poll|contingent\s+(?:on|upon))\b"
    r"|\b(?:i|we)(?:'d|\s+would|\s+will|\s+might|\s+could)?\s+(?:(?:like|want)\s+to\s+)?"
    r"(?:suggest|propose|recommend)\b|\bmay\s+i\s+(?:suggest|propose)\b"
    # the listener's opinion of it asked, the question ending there ("What do you think?",
    # "Thoughts?", "Does anyone object?"; not "what do you think is causing it?"),
    # or a reason asked to keep what is ("Is there a reason to keep mysql as the default?")
    r"|\b(?:do|does|would|did)\s+(?:you|y'all|anyone|everyone|people|folks|others)\s+"
    r"(?:\w+\s+)?(?:think|feel|agree|object|mind|prefer)(?:\s+(?:of|about|with)\s+(?:it|this|that))?"
    r"\s*\?|\b(?:thoughts|objections|opinions)"
    r"\s*\?|\breasons?\s+(?:not\s+)?to\s+(?:keep|stay|stick)\b", re.IGNORECASE)


# a gerund opening a sentence, and a modal within its next few words
_ARGUED = re.compile(r"(?:^|[.!?]\s+|\n)\s*([A-Z]?[a-z]+ing)\b(?:\s+[\w.'-]+){0,4}?\s+"
                     r"(?:should|would|could|might)\s", re.IGNORECASE)


# a title that names its items as proposals, and a list item's marker
_NAMES_ITEMS = re.compile(r"\b(?:proposals|suggestions|ideas|requests|wish\s*list)\b",
                          re.IGNORECASE)
_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+")


def _argued(text: str) -> bool:
    """A change argued for by what it would do: "Switching to Postgres should solve ..."."""
    return any(is_change(m.group(1).lower()) for m in _ARGUED.finditer(text))


def _reports_a_change(line: str) -> bool:
    """A line that opens with a change verb's past ("Moved the timeout to 45 s", "Raised the
    budget to $600") says what was done, whatever is asked of it after (the stop's review)."""
    first = line.split(maxsplit=1)[0].lower() if line.split() else ""
    return first.endswith("ed") and is_change(first)


def unwrapped(text: str) -> str:
    """The text with each wrapped line joined to the line it goes on into."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        last = _LAST_WORD.search(out[-1]) if out else None
        ended = last is None or last.group(1).lower() not in UNENDED
        if not ended and (line[:1].islower() or (  # a figure or a name after a word that
                _OBJECT_FIRST.match(line) and not _ITEM.match(line) and  # takes an object:
                last is not None and last.group(1).lower() in _TAKES)):  # "moved it to\n9090"
            out[-1] = f"{out[-1].rstrip()} {line}"
        else:
            out.append(line)
    return "\n".join(out)


def proposal_title(text: str) -> str:
    """The message's first line when it is the title of a proposal the text makes ("" when
    not)."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if len(lines) < 2 or _CLOSED_LINE.search(lines[0]) or lines[0].startswith(("-", "*")) or \
            _reports_a_change(lines[0]):
        return ""
    return lines[0] if PROPOSING.search(text) or _argued(text) else ""


def proposal_lines(text: str) -> list[str]:
    """The lines of a message that propose: its proposal's title, and when that title names
    its items as proposals ("A short list of suggestions for ...") the items listed below it
    ("1. Start the game at 6:35 p.m."), each without its list marker."""
    title = proposal_title(text)
    if not title:
        return []
    if not _NAMES_ITEMS.search(title):
        return [title]
    items = [_ITEM.sub("", line.strip()) for line in text.split("\n") if _ITEM.match(line)]
    return [title, *[item for item in items if item]]


def said_sentences(content: str) -> list[str]:
    """The sentences a message's facts are read from, numbered as ``Found.sentence`` counts
    them: every reading that numbers sentences must split the same text the same way (a
    wrapped "we sold\nthe Polo" is one sentence, not two)."""
    return list(said_sentences_once(content))


@lru_cache(maxsize=2048)
def said_sentences_once(content: str) -> tuple[str, ...]:
    """``said_sentences``, split once: every compaction that absorbs a message's facts asks
    for them again (``fact_topics``, ``fact_unit_alone``; issue 28, point 7)."""
    return tuple(sentences(unwrapped(content[:MAX_FACT_TEXT])))
