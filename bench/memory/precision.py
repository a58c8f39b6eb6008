"""What the facts ledger sends, classified against the generator's ground truth (issue 28).

At turns 25, 50, 75, 100, 125 and 150 the ledger of the request (``ledger_text``) is split into
entries and each entry's cl100k tokens are put in one class:

- ``user``: a value the user stated (planted, current);
- ``user_part``: a distinctive part of such a value, shown as the whole of an entry's value
  ("constraint: Fridays" of the user's "no deploys on Fridays", "p99 latency: 796 ms" of
  "p99 latency stays under 796 ms"): the user's fact, carried in fewer words;
- ``assistant_fact``: a value a reply stated (planted; the user never adopts one here);
- ``replaced_current`` (junk): a replaced value shown as current;
- ``replaced_marked``: a replaced value at the head of an entry whose note says "(possibly)
  replaced by" a value that replaced it: shown as replaced, the current value beside it
  (``retention``'s strict reading of a ledger entry); not junk by the issue's definition, but
  a line the model could do without, so its share is reported beside the junk share;
- ``assistant_invented`` (junk): an identifier a reply invented (``noisy``);
- ``assistant_filler`` (junk): a sentence of a reply with no planted value in it, stored as a
  decision, a correction or anything else;
- ``duplicate`` (junk): the same value or text again (a sub-line repeating its entry too);
- ``question_value``: a value the user only asked about or supposed (a corpus negative's)
  shown as current: not junk by the issue's definition, counted as a question superseding;
- ``replaced_note``: a replaced value marked as such beside its replacement;
- ``user_other``: text of a user message with no planted value; ``other``: none of these.

Beside it: false supersessions (a current planted value shown only as replaced, in the request
or in the panel), the panel's share of user-stated or adopted rows, and the code-built
checkpoints' "Decisions & Conclusions" (assistant filler there, user decisions found there).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.memory.generator import Conversation
from bench.memory.ledger_text import Entry, current_text, ledger_entries, mentioned, panel_rows
from bench.memory.retention import normalise
from bench.memory.tokens import cl100k_text

PRECISION_TURNS = (25, 50, 75, 100, 125, 150)
JUNK = ("replaced_current", "assistant_invented", "assistant_filler", "duplicate")
CLASSES = ("user", "user_part", "assistant_fact", *JUNK, "replaced_marked", "question_value",
           "replaced_note", "user_other", "other")
_NOTE_PREFIX = re.compile(r"^(?:earlier|previously|formerly|replaced|possibly)[^:]{0,40}:\s*",
                          re.I)
_CODE_BUILT = "built from the messages"
_DECISIONS = re.compile(r"^##\s*decisions", re.I)


@dataclass
class Truth:
    """The generator's ground truth at one turn."""

    user: list[str] = field(default_factory=list)  # current values the user stated
    assistant: list[str] = field(default_factory=list)  # current values a reply stated
    stale: list[str] = field(default_factory=list)  # replaced values
    invented: list[str] = field(default_factory=list)  # identifiers replies invented
    decoys: list[str] = field(default_factory=list)  # values only asked about or supposed
    user_decisions: list[str] = field(default_factory=list)
    # a replaced value -> the values that replaced it (the later answers of its question)
    replacements: dict[str, list[str]] = field(default_factory=dict)
    # a planted value (normalised) -> the question it answers (its key)
    question_of: dict[str, str] = field(default_factory=dict)
    user_text: str = ""
    assistant_text: str = ""


def replaces(later_speaker: str, earlier_speaker: str) -> bool:
    """Whether a later value may replace an earlier one of the same key, by the issue's rule
    of authority: the ledger is the user's, so an assistant's value that the user never
    adopted (the generator's user never adopts one) never replaces the user's; the user's
    value replaces anything, and an assistant's value replaces the assistant's."""
    return later_speaker == "user" or earlier_speaker == "assistant"


def truth_at(conversation: Conversation, turn: int, played: Sequence[tuple[str, str]],
             invented: Sequence[str]) -> Truth:
    """Ground truth after exchange ``turn`` (0-based): ``played`` is the chat as played.

    The statements of one question (its facts' values and the stale values they correct, each
    at the turn it was said) are replayed in turn order: a later value replaces the earlier
    current ones it has the authority to (``replaces``). So a reply that corrects the user's
    value leaves the user's value current (the engine shows it with the reply's claim beside
    it; the reply's value is an assistant fact, never sent until adopted), and the user's
    20456, 10291 and 36581 of one port, said in that order, leave 36581 current however late
    the reply's corrections of them come."""
    out = Truth(invented=sorted(set(invented)))
    statements: dict[str, list[tuple[int, int, str, str]]] = {}
    order = 0
    for fact in conversation.facts:
        said = statements.setdefault(fact.question, [])
        if fact.stale is not None and fact.stale_turn is not None and fact.stale_turn <= turn:
            said.append((fact.stale_turn, order, fact.stale_speaker or "user", fact.stale))
        elif fact.stale is not None and fact.turn <= turn:  # named as old by its correction
            said.append((fact.turn, order, "named", fact.stale))
        if fact.turn <= turn:
            said.append((fact.turn, order + 1, fact.speaker, fact.answer))
        order += 2
        out.question_of.setdefault(normalise(fact.answer), fact.question)
        if fact.stale:
            out.question_of.setdefault(normalise(fact.stale), fact.question)
    decided = {normalise(f.answer) for f in conversation.facts
               if f.type == "decision" and f.speaker == "user" and f.turn <= turn}
    for said in statements.values():
        current: dict[str, tuple[str, str]] = {}  # normalised value -> (speaker, value)
        for turn_of, order_of, speaker, value in sorted(said):
            key = normalise(value)
            if speaker == "named":  # only ever said as the value its correction replaces
                if key not in current:
                    out.stale.append(value)
                continue
            for old, (old_speaker, old_value) in list(current.items()):
                if old != key and replaces(speaker, old_speaker):
                    del current[old]
                    out.stale.append(old_value)
                    # what replaced it: this value and every later one of the question that
                    # may replace it (a line naming the newest is marked as well)
                    out.replacements.setdefault(old_value, []).extend(
                        v for t, o, s, v in sorted(said) if (t, o) >= (turn_of, order_of)
                        and s != "named" and replaces(s, old_speaker))
            if key in current and speaker == "user":  # the user restates a reply's value
                del current[key]
            current.setdefault(key, (speaker, value))
            out.stale = [v for v in out.stale if normalise(v) != key]
        for key, (speaker, value) in current.items():
            (out.user if speaker == "user" else out.assistant).append(value)
            if speaker == "user" and key in decided:
                out.user_decisions.append(value)
    for fact in conversation.facts:
        if fact.decoys and max(fact.also_turns, default=fact.turn) <= turn:
            out.decoys += fact.decoys
    out.user_text = normalise("\n".join(t for r, t in played if r == "user"))
    out.assistant_text = normalise("\n".join(t for r, t in played if r == "assistant"))
    return out


def _said_by(text: str, truth: Truth) -> str:
    """Whose message a text (or the value after its "subject:") comes from."""
    candidates = [normalise(text).rstrip(". ")]
    if ": " in text:
        candidates.append(normalise(text.rsplit(": ", 1)[1]).rstrip(". "))
    for candidate in candidates:
        if len(candidate) < 3:
            continue
        if candidate in truth.user_text:
            return "user_other"
        if candidate in truth.assistant_text:
            return "assistant_filler"
    return "other"


def classify(text: str, truth: Truth) -> tuple[str, str]:
    """(class, what it carries) of one entry's own text."""
    for value in truth.stale:
        if current_text(text, value):
            if _marked(text, value, truth):
                return "replaced_marked", normalise(value)
            return "replaced_current", normalise(value)
    for value in truth.decoys:
        if current_text(text, value):
            return "question_value", normalise(value)
    for name, values in (("user", truth.user), ("assistant_fact", truth.assistant)):
        for value in values:
            if current_text(text, value):
                return name, normalise(value)
    for value in truth.invented:
        if mentioned(text, value):
            return "assistant_invented", normalise(value)
    part = _user_part(text, truth)
    if part is not None:
        return "user_part", part
    return _said_by(text, truth), normalise(text)


def _marked(text: str, value: str, truth: Truth) -> bool:
    """A replaced value at the head of an entry whose own note says it was (possibly)
    replaced and names a value that replaced it ("merlin-gate (possibly replaced by
    tarpon-vault (turn 54))"): shown as replaced, with the current value beside it, as
    ``retention``'s strict check reads a ledger entry (a replacement marker and the new value
    in the same entry)."""
    notes = " ".join(m.group(1) for m in re.finditer(r"\(([^()]*(?:\([^()]*\))?[^()]*)\)", text)
                     if _REPLACED_NOTE.search(m.group(1)))
    return bool(notes) and any(mentioned(notes, new) for new in truth.replacements.get(value, ()))


_REPLACED_NOTE = re.compile(r"replaced by", re.I)
_OWN_VALUE = re.compile(r"^[^:()]{1,60}:\s+(.+?)\s*(?:\(.*)?$")


def _user_part(text: str, truth: Truth) -> str | None:
    """The planted user value an entry's value is a distinctive part of (whole words, at least
    4 characters, with a digit or a capital: a name, a number with its unit), else None."""
    match = _OWN_VALUE.match(text)
    value = (match.group(1) if match else text).strip().rstrip(".")
    if len(value) < 4 or not re.search(r"[\dA-Z]", value) or len(value.split()) > 4:
        return None
    for answer in truth.user:
        if normalise(answer) != normalise(value) and mentioned(answer, value):
            return normalise(answer)
    return None


def classify_ledger(entries: Sequence[Entry], truth: Truth) -> list[dict[str, Any]]:
    """Every entry and sub-line of the ledger with its class and tokens."""
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    notes_seen: set[str] = set()
    for entry in entries:
        name, carried = classify(entry.text, truth)
        if (name, carried) in seen and name not in ("other",):
            name = "duplicate"
        seen.add((name, carried))
        rows.append({"text": entry.text, "class": name, "tokens": cl100k_text(f"- {entry.text}"),
                     "assistant_section": entry.assistant})
        own = normalise(entry.text)
        for note in entry.notes:
            body = normalise(_NOTE_PREFIX.sub("", note))
            if body in notes_seen or body == own:
                kind = "duplicate"
            elif _said_by(body, truth) == "assistant_filler" and \
                    classify(body, truth)[0] in ("assistant_filler", "other"):
                kind = "assistant_filler"
            else:
                kind = "replaced_note"
            notes_seen.add(body)
            rows.append({"text": note, "class": kind, "tokens": cl100k_text(f"  - {note}"),
                         "assistant_section": entry.assistant})
    return rows


def false_supersessions(entries: Sequence[Entry], panel: Sequence[dict[str, Any]],
                        truth: Truth) -> list[str]:
    """Current planted values replaced by a value of another key (issue 28's definition):
    on the request, a value shown nowhere as current whose every entry is another key's (it
    is shown there as replaced, or only as that entry's replacement: "Pulumi (replaced Hotel
    Flandria, ...)", "learning rate: 1e-3 (possibly replaced by 0.1)" where 0.1 is another
    question's answer); in the panel, a value no row lists as current that sits in the history
    of another key's row. A value beside others of its own question ("gateway port: 36581 (a
    reply said replaced by 41990, now 41581; unconfirmed)": the reply's value, not sent until
    adopted) is no false supersession."""
    out = []
    for value in (*truth.user, *truth.assistant):
        ledger = not any(current_text(e.text, value) for e in entries) and any(
            _other_key(" ".join((e.text, *e.notes)), value, truth) for e in entries
            if mentioned(" ".join((e.text, *e.notes)), value))
        panel_false = not any(r["shown"] and current_text(r["text"], value) for r in panel) \
            and any(_other_key(r["text"], value, truth) for r in panel
                    if any(mentioned(h, value) for h in r.get("history", ())))
        if ledger or panel_false:
            out.append(value)
    return out


def _other_key(text: str, value: str, truth: Truth) -> bool:
    """Whether ``text`` (an entry with its notes, or a panel row's own line) belongs to a key
    other than ``value``'s: no other planted value of ``value``'s question is in it, and,
    where no planted value is, its own line does not name ``value`` ("46,500 documents")."""
    question = truth.question_of.get(normalise(value))
    partners = [v for v, q in truth.question_of.items()
                if v != normalise(value) and mentioned(text, v)]
    if question is None or any(truth.question_of[v] == question for v in partners):
        return False
    if not partners:  # another key's only when its own line names something else
        own = _OWN_VALUE.match(text)
        head = (own.group(1) if own else text).split(" (")[0]
        return not mentioned(head, value)
    return True


def panel_figures(panel: Sequence[dict[str, Any]], truth: Truth) -> dict[str, Any]:
    shown = [r for r in panel if r["shown"]]
    user = [r for r in shown if classify(r["text"], truth)[0] in ("user", "user_part")
            or r["source"] in ("manual", "adopted")]
    by_source = [r for r in shown if r["source"] in ("user", "manual", "adopted")]
    return {"rows": len(panel), "shown": len(shown), "user_or_adopted": len(user),
            "user_share": len(user) / len(shown) if shown else None,
            "stated_by_user_share": len(by_source) / len(shown) if shown else None}


def checkpoint_decisions(messages: Sequence[dict[str, str]], truth: Truth) -> dict[str, Any]:
    """The code-built checkpoints in the request: assistant filler in their "Decisions &
    Conclusions" lines, and the user's decisions known so far that those lines still carry
    (what the request holds now; a 2K-4K rolling checkpoint holds about four decision lines,
    the ledger sends the rest). The issue's figure, the share of the user's decisions each
    build summarised that its decisions section kept, is ``checkpoint_builds.figures``: the
    request cannot tell which decisions a checkpoint summarised (a decision no longer sent
    word for word may have left the request by other ways), so it is not guessed here."""
    text = "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
    blocks = re.split(r"\[checkpoint[^\]]*\]", text, flags=re.I)[1:]
    built = [b for b in blocks if _CODE_BUILT in b.lower()]
    lines: list[str] = []
    for block in built:
        inside = False
        for line in block.splitlines():
            if line.startswith("#"):
                inside = bool(_DECISIONS.match(line))
            elif inside and line.strip().startswith("-"):
                lines.append(line.strip()[1:].strip())
    filler = [line for line in lines if classify(line, truth)[0] == "assistant_filler"]
    decided = [d for d in truth.user_decisions if any(mentioned(line, d) for line in lines)]
    return {"code_built": len(built), "decision_lines": len(lines), "filler_lines": len(filler),
            "filler_examples": filler[:3], "user_decisions": len(truth.user_decisions),
            "user_decisions_found": len(decided)}


def corpus_figures(conversation: Conversation, entries: Sequence[Entry], turn: int,
                   ) -> dict[str, dict[str, int]]:
    """Per half of the phrasing corpus: its keys known now, on the ledger as current, their
    replaced values shown as current, and a negative's values shown as current."""
    out: dict[str, dict[str, int]] = {}
    for fact in conversation.facts:
        if fact.half is None or fact.turn > turn:
            continue
        row = out.setdefault(fact.half, {"keys": 0, "current": 0, "replaced_current": 0,
                                         "corrections": 0, "question_values_current": 0})
        row["keys"] += 1
        row["current"] += any(current_text(e.text, fact.answer) for e in entries)
        if fact.stale is not None:
            row["corrections"] += 1
            row["replaced_current"] += any(current_text(e.text, fact.stale) for e in entries)
        if max(fact.also_turns, default=fact.turn) <= turn:
            row["question_values_current"] += sum(
                any(current_text(e.text, v) for e in entries) for v in fact.decoys)
    return out


def record(conversation: Conversation, messages: Sequence[dict[str, str]], turn: int,
           played: Sequence[tuple[str, str]], invented: Sequence[str],
           panel: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The ledger sent after exchange ``turn`` (0-based), classified."""
    truth = truth_at(conversation, turn, played, invented)
    entries = ledger_entries(messages)
    rows = classify_ledger(entries, truth)
    tokens: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for row in rows:
        tokens[row["class"]] += row["tokens"]
        count[row["class"]] += 1
    total = sum(tokens.values())
    junk = sum(tokens[name] for name in JUNK)
    stale = sorted({normalise(v) for v in truth.stale
                    if any(current_text(e.text, v) and not _marked(e.text, v, truth)
                           for e in entries)})
    return {"turn": turn + 1, "ledger_tokens": total, "junk_tokens": junk,
            "junk_share": junk / total if total else None,
            "marked_tokens": tokens["replaced_marked"],
            "tokens": dict(tokens), "entries": dict(count),
            "replaced_current": stale, "false_supersessions":
                false_supersessions(entries, panel, truth),
            "false_supersessions_before": _before(conversation, entries, panel, turn, played,
                                                  invented),
            "panel": panel_figures(panel, truth),
            "checkpoints": checkpoint_decisions(messages, truth),
            "question_values_current": sorted({normalise(v) for v in truth.decoys if any(
                current_text(e.text, v) for e in entries)}),
            "corpus": corpus_figures(conversation, entries, turn),
            "junk_examples": [r["text"][:160] for r in rows if r["class"] in JUNK][:6],
            "ledger": [[r["class"], r["tokens"], r["text"][:200]] for r in rows]}


def _before(conversation: Conversation, entries: Sequence[Entry],
            panel: Sequence[dict[str, Any]], turn: int, played: Sequence[tuple[str, str]],
            invented: Sequence[str]) -> list[str]:
    """The first measure's count on the same ledger (``precision_before``)."""
    from bench.memory import precision_before

    truth = precision_before.truth_before(conversation, turn, played, invented)
    return precision_before.false_supersessions_before(entries, panel, truth)


def panel_of(engine: Any) -> list[dict[str, Any]]:
    """The panel's rows; none when the engine has no panel (an engine before issue 22)."""
    try:
        return panel_rows(engine)
    except AttributeError:
        return []


def extraction_count() -> int | None:
    """The engine's process-wide count of fact extractions (issue 28 adds it); None before."""
    try:
        from ollm_desktop.engine import facts_extract  # type: ignore[attr-defined]
    except ImportError:
        return None
    counter = getattr(facts_extract, "extraction_count", None)
    return int(counter()) if callable(counter) else None


def _facts_extract() -> Any:
    try:
        from ollm_desktop.engine import facts_extract  # type: ignore[attr-defined]
    except ImportError:
        return None
    return facts_extract


def _percentile(values: Sequence[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def cost_figures(strategy: Any, extractions_before: int | None) -> dict[str, Any]:
    """Extractions per message version added, and the engine CPU of each compaction."""
    versions = len(getattr(strategy, "versions", ()))
    after = extraction_count()
    made = None if after is None or extractions_before is None else after - extractions_before
    cpu = list(getattr(strategy, "compaction_cpu", []))
    failures = getattr(_facts_extract(), "extraction_failures", None)
    return {"extractions": made, "message_versions": versions or None,
            "extraction_failures": failures() if callable(failures) else None,
            "extractions_per_version": made / versions if made is not None and versions
            else None,
            "compaction_cpu_s": [round(x, 4) for x in cpu],
            "compaction_cpu_s_median": _percentile(cpu, 0.5),
            "compaction_cpu_s_p95": _percentile(cpu, 0.95)}
