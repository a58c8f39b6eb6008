"""The surface forms people vary a correction in, read as the one form the grammar knows.

People who never read the engine write "Y -> X" for "from Y to X", "X (not Y)" and "X not Y"
for "X, not Y", "it is" for "it's", and open a message with a header ("quick update:", "hey
all,") before the correction's lead (``bench/memory/corpus/README.md``; measured by
``python -m bench.memory --kind corrections --perturb``). Each rewrite here is a shape over
tokens, done once before ``fact_grammar.read`` reads the sentence, so every later rule (old
values, keys, mood) sees the form it was written for:

- **An arrow between two things** is "from Y to X": the token before the arrow gets a "from"
  (unless it has one) and the arrow becomes "to"; after a plain word, the key's, it is "is
  now" ("deploy window -> Wednesday"), unless a change verb takes it as its object
  ("renamed main -> trunk").
- **"(not Y)"** is the aside ", not Y": the parenthesis is a comma.
- **"X not Y"** with no comma, where "not" follows a word that is no auxiliary, modal, copula,
  pronoun, conjunction or adverb (so no verb is negated: "we do not use Y", "probably not Y"
  stay), after a word of its own clause, and Y is a short phrase that ends the clause, is "X,
  not Y".
- **A leading "@handle"** (several, with commas or ":") addresses someone: it is dropped.
- **A relative clause set off after the opening subject** (", which opened in 2008, is now
  X") is left out, so the subject meets its verb (``fact_asides``).
- **"actually" after a copula** ("the port is actually 9000", "it's actually 9000") is "now":
  the value holds against what was said before, a correction of the key ("K is now X").
- **A spelled-out pronoun and "be"** ("it is", "we are") is its contraction ("it's", "we're"),
  which the closed classes hold.
- **An adjective of correctness or novelty** in the key of a copula's value ("New room: C3",
  "the actual version is 3.6", "the correct address is X") is no word of the key; it makes
  the value a correction of the key (another verb's "see the new parser's v2" names a thing).
- **A particle of direction before "to X"** ("rent went up to £1,010") is a change.
- **A question without its "?"**: a leading "is" before a value, or before one bare noun
  and a value ("is budget $6,000 now"), asks (``fact_mood``'s auxiliary before its subject).
- **A header before a lead** ("quick update: scratch that, ..."): up to four plain words
  ending at ":" or "," with no value, verb of being, modal or subordinator, followed by a
  correction's lead or, after ":", by a clause of its own (a subject pronoun, a verb of being
  or a change verb before the first value: "quick update: the matter number is X"), is
  skipped as the discourse words before a lead are; "Default port: 8443" keeps its label,
  and "Drop Jenkins, we use X" its verb. A header whose noun carries a mood ("idea:",
  "proposal:", "question:") gives it to the clause after it: no correction.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_asides import without_aside
from ollm_desktop.engine.fact_leads import RETRACT
from ollm_desktop.engine.fact_mood_then import now_said
from ollm_desktop.engine.fact_mood_words import (
    ALWAYS_CUT,
    CONDITIONAL,
    HEARSAY,
    MODAL,
    PAST_CUES,
    QUESTION_AUX,
    WH,
)
from ollm_desktop.engine.fact_never_mind import never_minded
from ollm_desktop.engine.fact_time_tails import clause_timed
from ollm_desktop.engine.fact_words import (
    ARROWS,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    FILLER,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    closed,
    is_change,
    numeric,
)

# A pronoun and a form of "be", spelled out, and their contraction (a closed class).
_CONTRACTIONS = {("it", "is"): "it's", ("that", "is"): "that's", ("there", "is"): "there's",
                 ("we", "are"): "we're", ("they", "are"): "they're", ("i", "am"): "i'm",
                 ("you", "are"): "you're", ("he", "is"): "he's", ("she", "is"): "she's"}
# Words after which "not" negates a verb or an adverb, not the value that follows it.
_NEGATED = QUESTION_AUX | MODAL | COPULAS | PRONOUNS | CONJUNCTIONS | WH | ALWAYS_CUT | \
    CONDITIONAL | frozenset({"do", "did", "does", "or", "why", "if", "as", "but", "let's", "it's",
                             "that's", "there's", "we're", "they're", "i'm", "you're"})
_SUBJECT_BE = frozenset(_CONTRACTIONS.values())
_HEADER_WORDS = 4
# Adjectives that say a value is the one now in force (a closed class). Not "right", which
# is as often a side ("the right monitor" beside the left one): only "the right one" is meant.
RENEWED = frozenset({"new", "correct", "actual", "updated", "revised", "corrected"})
# Words that after a value give it an owner of its own ("9090 for the admin panel").
_OWNED_BY = frozenset({"for", "of", "in", "on"})
# What alone before the pro-form "one" says which value is meant by its correctness ("the
# right one", "the correct one"), not by an owner ("the bathroom one") or a place ("the second").
RIGHT_ONE = RENEWED | frozenset({"right", "proper", "real", "latest", "final"})
_ASIDE_WORDS = 3  # "not the 7:40", "not Dr. Peeters": Y of an aside is short


def normalised(sentence: str, tokens: list[Tok]) -> list[Tok]:
    """The sentence's tokens with its surface variants read as the grammar's forms."""
    return without_aside(_unaddressed(_not_aside(_arrows(sentence, _in_truth(_spelled_out(
        _its_for_its(now_said(never_minded(sentence, tokens), sentence),  # ("these days")
                     sentence)))))))


# Words that may open a chat reply before its clause ("no its 5434", "ok its 40 now").
_ANSWERS = FILLER | closed("no nope nah yes yeah yep yup wait")
# What may follow the value of "it's X": the clause's end, "now", "actually", a preposition,
# "and"/"but".
_AFTER_VALUE = BOUNDARY | PREPOSITIONS | CONJUNCTIONS | closed("now actually")


def _its_for_its(tokens: list[Tok], sentence: str) -> list[Tok]:
    """"its 5434 now", "no its 1260 since renewal": chat drops the apostrophe of "it's". A
    possessive "its" opens a noun phrase, so "its" at a clause's opening (or after an answer
    word) right before a value that ends its noun phrase (the clause's end, "now", a
    preposition or a conjunction follows) is the pronoun and its copula ("its 2 ports" and
    "raised its 40 to 50" keep the determiner); so is a capitalised name ("its Vercel now")."""
    for k, token in enumerate(tokens[:-1]):
        nxt = tokens[k + 1]
        if token.word == "its" and nxt.word == "now" and (not k or tokens[k - 1].word in (
                BOUNDARY | _ANSWERS)):  # "its now row 14": a determiner never precedes "now"
            tokens[k] = Tok("it's", token.start, token.end)
            continue
        if token.word != "its" or token.value or not (nxt.value or numeric(nxt.word) or (
                sentence[nxt.start:nxt.start + 1].isupper() and
                nxt.word.replace(" ", "").isalpha())):
            continue
        prev = tokens[k - 1].word if k else ""
        after = tokens[k + 2].word if k + 2 < len(tokens) else ""
        if (not prev or prev in BOUNDARY or prev in _ANSWERS) and (
                not after or after in _AFTER_VALUE):
            tokens[k] = Tok("it's", token.start, token.end)
    return tokens


def _in_truth(tokens: list[Tok]) -> list[Tok]:
    """"The port is actually 9000", "but it's actually 9000": the adverb after a copula says
    the value holds against what was said or believed, as "now" does ("K is now X")."""
    for k, token in enumerate(tokens):
        if token.word == "actually" and k > 0 and not token.value and (
                tokens[k - 1].word in COPULAS or tokens[k - 1].word in _SUBJECT_BE):
            tokens[k] = Tok("now", token.start, token.end)
    return tokens


def _unaddressed(tokens: list[Tok]) -> list[Tok]:
    """Without the handles a sentence opens by addressing ("@kevindherman I upped this to
    100mb", "@ana, @li: the port is 9000"): a vocative, no key nor subject."""
    at = 0
    while at + 1 < len(tokens) and tokens[at].word == "@" and not tokens[at].value and \
            tokens[at].end == tokens[at + 1].start and (
                tokens[at + 1].value is not None or tokens[at + 1].word[:1].isalnum()):
        at += 2
        while at < len(tokens) and tokens[at].word in (",", ":", "and"):
            at += 1
    return tokens[at:] if at < len(tokens) else tokens


def _spelled_out(tokens: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    for k, token in enumerate(tokens):
        prev = out[-1] if out else None
        short = _CONTRACTIONS.get((prev.word, token.word)) if prev and not prev.value else None
        after = tokens[k + 1].word if k + 1 < len(tokens) else ""
        if prev is not None and short and not token.value and after not in ("now", "not"):
            # (before "now"/"not" the grammar reads "it is", as ``contracted`` splits it)
            out[-1] = Tok(short, prev.start, token.end)
        else:
            out.append(token)
    return out


def _arrows(sentence: str, tokens: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    for k, token in enumerate(tokens):
        if token.word in ARROWS and not token.value and 0 < k < len(tokens) - 1 and \
                tokens[k - 1].word not in BOUNDARY and tokens[k + 1].word not in BOUNDARY \
                and not _chained(tokens, k):
            old = out[-1]
            changed = len(out) > 1 and is_change(out[-2].word)  # "renamed main -> trunk"
            if not (_names_a_value(sentence, old) or changed or _quoted(sentence, old)
                    or _plain_word(sentence, tokens[k + 1])):  # "window -> Wednesday":
                out += [Tok("is", token.start, token.start), Tok("now", token.start, token.end)]
                continue
            if not (len(out) > 1 and out[-2].word == "from"):
                out.insert(len(out) - 1, Tok("from", old.start, old.start))
            out.append(Tok("to", token.start, token.end))
            continue
        out.append(token)
    return out


def _chained(tokens: list[Tok], k: int) -> bool:
    """The arrow at ``k`` is one of a chain ("build -> test -> deploy"): a sequence of steps,
    not a change from one thing to another."""
    return any(0 <= j < len(tokens) and tokens[j].word in ARROWS for j in (k - 2, k + 2))


def _quoted(sentence: str, token: Tok) -> bool:
    """A word in quotes or a code span ("`master` => `mainline`") is named as a thing."""
    return token.start > 0 and sentence[token.start - 1] in "`'\"\u2018\u201c"


def _plain_word(sentence: str, token: Tok) -> bool:
    """X of "w -> X" is a plain lower-case word as w is ("mysql -> postgresql"): two things
    of one kind, so w is the old one, not a key ("timeout -> 45 s", "window -> Wednesday")."""
    return not _names_a_value(sentence, token) and sentence[token.start:token.end].isalpha()


def _names_a_value(sentence: str, token: Tok) -> bool:
    """A value, a number or a name (a capital inside the sentence): the Y of "Y -> X"; a
    plain word before an arrow is its key's ("timeout -> 45 s")."""
    text = sentence[token.start:token.end]
    return token.value is not None or text[:1].isdigit() or (
        text[:1].isupper() and token.start > 0)


def _short_end(tokens: list[Tok], at: int) -> bool:
    """A short phrase from ``at`` ends the clause ("not the 7:40.", "not Dr. Peeters")."""
    ends = next((k for k in range(at, len(tokens)) if tokens[k].word in BOUNDARY), len(tokens))
    return at < ends <= at + _ASIDE_WORDS


def _not_aside(tokens: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    opened = False
    for k, token in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if token.word == "(" and nxt is not None and nxt.word == "not":
            out.append(Tok(",", token.start, token.end))  # "X (not Y)": the aside ", not Y"
            opened = True
            continue
        if token.word == ")" and opened:
            opened = False
            out.append(Tok(",", token.start, token.end))
            continue
        if token.word == "not" and nxt is not None and _short_end(tokens, k + 1) and \
                out and _bare_not(out):
            out.append(Tok(",", token.start, token.start))  # "X not Y": "X, not Y"
        out.append(token)
    return out


def _bare_not(before: list[Tok]) -> bool:
    prev = before[-1]
    if prev.value is None and (prev.word in BOUNDARY or prev.word in _NEGATED or
                               prev.word.endswith("ly") or prev.word in PREPOSITIONS):
        return False
    if _placed_after_value(before):  # "45 s on staging not prod": the place is contrasted
        return False
    clause: list[Tok] = []
    for token in reversed(before):
        if token.word in BOUNDARY:
            break
        clause.append(token)
    return bool(clause)


def unrenewed(entity: str, tokens: list[Tok] | None = None, i: int = 0) -> tuple[str, bool]:
    """A key without its adjective of correctness or novelty ("the new room", "the actual
    version", "the correct address": the room, the version, the address), and whether it had
    one: the value then replaces the key's earlier value (a correction). "New" also tells one
    thing from another: with an owner after the value (``tokens[i]``: "the new port is 9090
    for the admin panel") it is a word of the key, and no correction."""
    words = entity.split()
    if "new" in words and _owned_after(tokens, i):
        words = [w for w in words if w == "new" or w not in RENEWED]
        kept = [w for w in words if w != "new"]
        return " ".join(words), len(kept) < len(entity.split()) - 1
    kept = [w for w in words if w not in RENEWED]
    return " ".join(kept), len(kept) < len(words)


def _owned_after(tokens: list[Tok] | None, i: int) -> bool:
    """The value ``tokens[i]`` is followed by a phrase that owns it: "for", "of", "in" or "on"
    and a plain word ("for the admin panel", "in production"), not a value ("on Monday")."""
    if tokens is None:
        return False
    at = i + 1
    while at < len(tokens) and tokens[at].word == "·":  # the value's own words
        at += 1
    after = tokens[at:at + 4]
    if not after or after[0].word not in _OWNED_BY:
        return False
    for token in after[1:]:
        if token.value is not None or token.word in BOUNDARY:
            return False
        if token.word not in DETERMINERS:
            return token.word.isalpha()
    return False


def directed_to(tokens: list[Tok], first: int) -> bool:
    """"rent went up to £1,010", "the limit came down to 5": a verb's particle of direction
    before "to" and a value changes the subject's value (as a change verb's "to X" does)."""
    return not any(t.word in PAST_CUES for t in tokens) and any(  # ("last year it went
        t.word in ("up", "down") and tokens[k + 1].word == "to" and  # up to X": an event)
        tokens[k + 2].value is not None for k, t in enumerate(tokens[:-2])
        if k > first or (k == first and t.word == "down"))  # ("Down to 1 open bug."; a leading
    # "up to X" is a bound: "up to 6 guests")


def names_then_value(tokens: list[Tok], k: int, b: int) -> bool:
    """After a leading "is" (``fact_mood._interrogative``): a value, or one bare noun and a
    value, before ``b``: "is Tuesday too late", "is budget $6,000 now" ask without a "?"."""
    word = tokens[k].word if k < len(tokens) else ""
    return k < b and (tokens[k].value is not None or (
        k + 1 < b and tokens[k + 1].value is not None and word.isalpha() and word not in NOT_NP))


def _placed_after_value(before: list[Tok]) -> bool:
    """The words before "not" are a plain noun phrase after a preposition that follows a value
    of its clause ("45 s on staging not prod"): what is contrasted is where the value holds,
    not the value."""
    k = len(before) - 1
    while k >= 0 and before[k].value is None and before[k].word[:1].isalpha() and \
            before[k].word not in PREPOSITIONS and before[k].word not in BOUNDARY:
        k -= 1
    if k == len(before) - 1 or k < 1 or before[k].word not in PREPOSITIONS:
        return False
    return before[k - 1].value is not None


def header_end(tokens: list[Tok], first: int) -> int:
    """The index after a header before a lead ("quick update:", "hey all,"), else ``first``:
    plain words, no value, ending at ":" or ",". The caller checks that a lead follows."""
    for k in range(first, min(len(tokens), first + _HEADER_WORDS + 1)):
        if tokens[k].word in (":", ",") and k > first:
            return k + 1
        if not _header_word(tokens[k]):
            return first
    return first


def header_mood(tokens: list[Tok], first: int, end: int) -> str:
    """The mood a header's noun gives what follows it ("Idea: standup -> 10:00", "Proposal:
    ...", "Question: ..."): a proposal verb or its noun ("suggestion", "proposal",
    "recommendation", "suggested"), "idea", "pitch" or "RFC" (a request for comments) make a
    suggestion, "question" a question; "" for
    a header of no mood ("quick update:", "hey all,")."""
    for token in tokens[first:end]:
        if token.word in ("question", "questions"):
            return "question"
        if token.word in ("idea", "ideas", "rfc", "pitch") or _proposing(token.word):
            return "suggestion"
    return ""


def _proposing(word: str) -> bool:
    """A proposal or hearsay verb (``HEARSAY``), or its noun made with -ion, -ation or -al."""
    stems = {word, word.removesuffix("s")}
    for suffix in ("ations", "ation", "ions", "ion", "als", "al"):
        if word.endswith(suffix):
            stems |= {word[:-len(suffix)], word[:-len(suffix)] + "e"}
    return bool(stems & HEARSAY)


def clause_follows(tokens: list[Tok], at: int) -> bool:
    """A clause of its own opens at ``at``: a subject pronoun, a verb of being or a change
    verb comes before its first value ("quick update: the matter number is X", "heads up:
    make it 80"), so what came before it is a header, not a key ("Default port: 8443")."""
    for token in tokens[at:]:
        if token.value is not None or token.word in BOUNDARY:
            return False
        if token.word in PRONOUNS or token.word in _SUBJECT_BE or is_change(token.word) or \
                token.word in RETRACT or (token.word in COPULAS and token.word[:1].isalpha()):
            return True
    return False


def _header_word(token: Tok) -> bool:
    word = token.word
    return token.value is None and word[:1].isalpha() and word not in _NEGATED and \
        word not in PREPOSITIONS and word != "not"


def spelled_is(sentence: str, tokens: list[Tok]) -> list[Tok]:
    """A noun's "'s" that is "is", not a possessive (a possessive takes a noun after it: "the
    dog's vet"):

    - before a preposition: "Standup's at 9:45", "the key's under the mat";
    - before a value that ends its clause, after a common noun that opens its clause: "her
      name's Rosalind", "the code's 4411", "the deadline's Friday" (not "kept in the band's
      Google Doc", a preposition's object). A name's "'s" before a name is a possessive
      ("Sam's Tesla"), and so is one before a value that goes on ("the dog's 3 toys are")."""
    out: list[Tok] = []
    for i, token in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        before = tokens[i - 1].word if i else ""
        if token.word.endswith("'s") and len(token.word) > 2 and not token.value and \
                after is not None and token.word not in NOT_NP and \
                before not in PREPOSITIONS and before not in ("st", "st.") and (  # ("dinner
                    # at Luigi's at 8", "at St Mary's at 1pm": a place's name)
                    after.word in PREPOSITIONS or _value_said(sentence, tokens, i)):
            out += [Tok(token.word[:-2], token.start, token.end - 2),
                    Tok("is", token.end - 2, token.end)]
        else:
            out.append(token)
    return out


def _value_said(sentence: str, tokens: list[Tok], i: int) -> bool:
    """"her name's Rosalind": after the common noun's "'s" at ``i``, one value ends the
    clause."""
    at = i + 1
    said = sentence[tokens[at].start:tokens[at].start + 1]  # a value, a name or a number
    if not (tokens[at].value is not None or said.isupper() or said.isdigit()) or \
            (sentence[tokens[i].start:tokens[i].start + 1].isupper() and tokens[i].start > 0):
        return False
    j = i - 1  # the noun phrase opens its clause ("in the band's Google Doc" is a possessive)
    while j >= max(0, i - 2) and tokens[j].value is None and tokens[j].word.isalpha() and \
            tokens[j].word not in _NEGATED and tokens[j].word not in PREPOSITIONS and \
            tokens[j].word not in DETERMINERS:  # its modifiers ("the gate code's")
        j -= 1
    while j >= 0 and tokens[j].word in DETERMINERS:
        j -= 1
    if j >= 0 and tokens[j].word not in BOUNDARY and tokens[j].word not in CONJUNCTIONS:
        return False
    at += 1
    while at < len(tokens) and tokens[at].word == "·":  # the value's own words
        at += 1
    return at >= len(tokens) or tokens[at].word in BOUNDARY or tokens[at].word in (
        "and", "but", "now", "not") or clause_timed(tokens, at, i)  # ("Osprey from today")

