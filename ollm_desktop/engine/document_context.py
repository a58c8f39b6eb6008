"""Attached documents in the request: whole when they fit their share, else the passages the
question needs, within the tokens the request leaves.

Like recall, the text goes inside the newest user message, after the user's own words, so the
cached prefix of the request (system message, checkpoints, earlier turns) stays as it was and
nothing of it is carried into later requests. Every passage carries its source
(``[name, p. 12]``, ``[name, lines 40–72]``); the system message asks the model to cite them
(:data:`SYSTEM_NOTE`).

Which passages: the source is searched twice, with the newest user message alone and with it
and the conversation before it (the previous user message and the start of the reply to it),
so a follow-up such as "and what about retries?" finds passages about the subject of the turn
before; a source that searches by meaning too (an embedding model picked) adds its two
rankings. The rankings are fused by reciprocal rank, as recall fuses words and meaning. A
passage is a candidate when, in one of the rankings, its score reaches :data:`RELEVANT` of
that ranking's best; candidates go in fused order while they fit, then the passages next to
the strongest hits (an answer often runs on into the next paragraph). How many is set by the
room, never by a fixed top-k. What goes is shown in document order, grouped by document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ollm_desktop.engine.passages import Passage, citation
from ollm_desktop.engine.tokens import scaled

SYSTEM_NOTE = ("The user may attach documents. Passages from them can follow the user's "
               "message, each under its source in brackets, such as [guide.pdf, p. 12] or "
               "[notes.md, lines 40–72]. Answer from them when they hold the answer, and cite "
               "the source in brackets after what you take from it.")
INTRO = "(From the attached documents, with their sources:)"
DOCUMENT_SHARE = 0.6  # of the usable window, at most, for documents (the rest: the chat)
MIN_ROOM = 48  # tokens: below this no document text is added
RELEVANT = 0.6  # of a ranking's best BM25 score: below it a passage is not a candidate
STRONG = 0.7  # of the best: a hit whose neighbours may join it
STRONG_HITS = 3  # at most this many hits bring their neighbours
RRF_K = 60
CANDIDATES = 48
CONTEXT_CHARS = 400  # of the previous reply, for the query's context


@dataclass(frozen=True, slots=True)
class FoundPassage:
    """A passage a search found, with its document and score (higher is better)."""

    key: int  # the index's id of the passage
    document_id: str
    passage: Passage
    score: float


class PassageSource(Protocol):
    """Search the passages of the chat's attached documents. A source that can also search
    by meaning has ``meaning(text, limit=...)`` (cosine scores, above its own floor): the
    engine fuses it as one more ranking."""

    def search(self, text: str, *, limit: int = ...) -> Sequence[FoundPassage]:
        ...

    def neighbour(self, document_id: str, ordinal: int) -> FoundPassage | None:
        ...


@dataclass(frozen=True, slots=True)
class AttachedText:
    """A document as the engine sees it: its name, its size in tokens and its passages (read
    only when the whole text may go)."""

    document_id: str
    name: str
    tokens: int  # sum of its passages' tokens
    passages: Callable[[], Sequence[Passage]]


@dataclass(frozen=True, slots=True)
class SentPassage:
    """A passage that went into the request (the reply row's sources, the reader's place)."""

    document_id: str
    name: str
    passage: Passage
    source: str  # its citation, as sent


@dataclass
class DocumentsSent:
    """What a send took from the attached documents."""

    whole: list[str] = field(default_factory=list)  # ids of documents sent whole
    passages: list[SentPassage] = field(default_factory=list)  # every passage sent, in order
    text: str = ""  # exactly what was appended to the user's message
    tokens: int = 0


def query_context(messages: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """(newest user text, the conversation before it) from (role, text) pairs in order: the
    previous user message and the start of the reply that followed it."""
    users = [i for i, (role, _) in enumerate(messages) if role == "user"]
    if not users:
        return "", ""
    newest = messages[users[-1]][1]
    if len(users) < 2:
        return newest, ""
    earlier = users[-2]
    context = [messages[earlier][1]]
    replies = [text for role, text in messages[earlier + 1:users[-1]] if role == "assistant"]
    if replies:
        context.append(replies[0][:CONTEXT_CHARS])
    return newest, "\n".join(context)


def compose(documents: Sequence[AttachedText], source: PassageSource | None, query: str,
            context: str, *, room: int, usable: int, count: Callable[[str], int],
            scale: float = 1.0) -> DocumentsSent:
    """The documents' text for a request, within ``room`` tokens (``usable``: the window's
    usable tokens, of which documents take at most :data:`DOCUMENT_SHARE`; ``count``: the
    model's tokens of a text, ``scale``: model tokens per counted token of a passage's stored
    count). Each passage is priced from its stored count; the text as composed is counted
    once at the end and passages leave, least wanted first, until it fits."""
    sent = DocumentsSent()
    room = min(room, int(usable * DOCUMENT_SHARE))
    if room < MIN_ROOM or not documents:
        return sent
    names = {d.document_id: d.name for d in documents}
    order = {d.document_id: i for i, d in enumerate(documents)}
    used = count(INTRO) + 2
    chosen: list[SentPassage] = []

    def cost(item: SentPassage) -> int:
        return scaled(item.passage.tokens, scale) + count(item.source) + 3

    share = (room - used) // len(documents)
    whole_count: dict[str, int] = {}
    for document in sorted(documents, key=lambda d: d.tokens):
        if document.tokens > share:  # its text alone is over its share: passages
            continue
        items = [SentPassage(document.document_id, document.name, p,
                             citation(document.name, p)) for p in document.passages()]
        total = sum(cost(item) for item in items)
        if total <= share:
            whole_count[document.document_id] = len(items)
            chosen.extend(items)
            used += total
            sent.whole.append(document.document_id)
    rest = [d for d in documents if d.document_id not in sent.whole]
    if rest and source is not None and query.strip():
        wanted = {d.document_id for d in rest}
        for found in _ranked(source, query, context, wanted):
            item = SentPassage(found.document_id, names[found.document_id], found.passage,
                               citation(names[found.document_id], found.passage))
            price = cost(item)
            if used + price <= room:
                chosen.append(item)
                used += price
    while chosen:
        shown = sorted(chosen, key=lambda i: (order[i.document_id], i.passage.ordinal))
        text = "\n\n" + INTRO + "\n" + "\n\n".join(f"{i.source}\n{i.passage.text}"
                                                    for i in shown)
        tokens = count(text)
        if tokens <= room:
            sent.passages, sent.text, sent.tokens = shown, text, tokens
            kept: dict[str, int] = {}
            for item in shown:
                kept[item.document_id] = kept.get(item.document_id, 0) + 1
            sent.whole = [key for key in sent.whole if kept.get(key) == whole_count[key]]
            return sent
        chosen.pop()  # the price was an estimate: the least wanted leaves
    sent.whole = []
    return sent


def _ranked(source: PassageSource, query: str, context: str, wanted: set[str]
            ) -> list[FoundPassage]:
    """Candidates in the order they are offered: relevant hits by fused rank, then the
    neighbours of the strongest."""
    texts = [query, f"{query}\n{context}"] if context.strip() else [query]
    rankings = [list(source.search(text, limit=CANDIDATES)) for text in texts]
    meaning = getattr(source, "meaning", None)
    if meaning is not None:  # words and meaning, fused as recall fuses them
        rankings += [list(meaning(text, limit=CANDIDATES)) for text in texts]
    fused: dict[int, float] = {}
    found: dict[int, FoundPassage] = {}
    eligible: set[int] = set()
    strength: dict[int, float] = {}
    for ranking in rankings:
        ranking = [f for f in ranking if f.document_id in wanted]
        if not ranking:
            continue
        best = ranking[0].score
        for rank, item in enumerate(ranking):
            found.setdefault(item.key, item)
            fused[item.key] = fused.get(item.key, 0.0) + 1.0 / (RRF_K + rank + 1)
            share = item.score / best if best > 0 else 0.0
            strength[item.key] = max(strength.get(item.key, 0.0), share)
            if share >= RELEVANT:
                eligible.add(item.key)
    hits = sorted(eligible, key=lambda key: -fused[key])
    offered = [found[key] for key in hits]
    seen = {(f.document_id, f.passage.ordinal) for f in offered}
    strong = [found[key] for key in hits if strength[key] >= STRONG][:STRONG_HITS]
    for hit in strong:
        for step in (1, -1):
            place = (hit.document_id, hit.passage.ordinal + step)
            if place in seen or place[1] < 0:
                continue
            neighbour = source.neighbour(*place)
            if neighbour is not None and neighbour.passage.section == hit.passage.section:
                offered.append(neighbour)
                seen.add(place)
    return offered
