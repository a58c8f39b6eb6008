"""The words a fact's sentence is read in: tokens (a value found in it is one token) and the
closed classes of words the grammar names (determiners, prepositions, copulas, modals...).

Closed classes are grammar, not cue lists: English has a fixed set of determiners and modal
verbs, and a new phrasing of a correction does not add to them. The one open set is ``CHANGE``,
the verbs of "set/bump/raise/lower/move/switch/rename K to X", which the issue names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ollm_desktop.engine.reference_words import NUMBER_WORDS

Value = tuple[int, int, str, str]  # (start, end, text, ref kind) in the sentence

# A word begins with a letter of any script ("Málaga", "Łukasz", not "M" and "laga"). An
# apostrophe inside it stays ("don't", "O'Brien"); one at its end only before another word
# ("Campo de' Fiori", "the students' room") and never on a word right after an opening quote:
# "'Quit'." and "‘Homebase’" are quoted words, the closing quote no part of the value.
TOKEN = re.compile(r"(?<=['‘])[^\W\d_](?:[\w'’-]*[\w-])?"
                   r"|[^\W\d_](?:[\w'’-]*[\w-])?(?:['’](?=\s+[^\W\d_]))?"
                   r"|\d+(?:[.,:]\d+)*|->|=>|[,;:?!.()=]|[^\s`\"'‘’*_]")
ARROWS = frozenset({"->", "=>", "→"})  # "Y -> X", "Y → X": from Y to X


def closed(text: str) -> frozenset[str]:
    """A closed class of words (determiners, modals...): grammar, not a growing list."""
    return frozenset(text.split())


DETERMINERS = closed("the a an our my your their its this that these those his her")
PREPOSITIONS = closed("on at in for of to from with by via under over as into until till since "
                      "across after before between through per within without behind beyond "
                      "during against toward towards near among above below beside onto upon")
COPULAS = closed("is are was were be becomes become stays remains equals = :")
AUXILIARIES = closed("should shall could can would will do does did is are isn't aren't "
                       "don't doesn't won't wouldn't shouldn't")
PRONOUNS = closed("we i you it they he she")
MODALS = closed("could might would may i'd we'd you'd it'd")
HEDGES = closed("maybe perhaps possibly probably tempted")
HYPOTHETICAL = ("what if", "if", "unless", "suppose", "imagine", "what about", "how about",
                "let's say", "say")
# The verbs whose "K to X" changes K (the closed set the issue names, and their forms).
CHANGE = closed("set bump raise lower move switch rename change increase decrease reduce "
                 "update upgrade downgrade migrate make cut drop push postpone delay extend "
                 "shorten scale resize reshard relocate reschedule reassign")
# A preposition made a change verb ("I upped it to 100mb"): its inflected forms only, since
# the bare "up" is the particle.
UPPED = closed("upped upping")
# The verbs by which a text or a person relays a value ("the docs say 8080", "the menu lists
# $12"): what follows is a value as the report gives it.
REPORTING = closed("says said say mentions mentioned mention lists listed list shows showed "
                   "show states stated state reads read")
# Deictic words of time and place ("from here on", "from this point on"): a closed class.
DEICTIC = closed("now here today tomorrow then this that point there")
# Times after a noun phrase ("… this week", "… next time"): it ends there.
TIMES = DEICTIC | closed("last next yesterday tonight")
# The speaker and an auxiliary in one word ("I'm using", "we're laying"): a closed class.
SPEAKING = closed("i'm we're i'll we'll they're you're im")  # ("im": chat's "I'm")
# The verbs of "replace Y with X" (Y goes, X comes), in their forms.
REPLACE = closed("replace replaces replaced replacing swap swaps swapped swapping substitute "
                 "substitutes substituted substituting")
LEADS = ("scratch that", "from now on", "on second thought", "actually", "correction",
          "update", "i meant", "i mean the", "sorry", "wait", "no", "oops", "typo", "more like")
FILLER = closed("so ok okay oh hmm well also and but btw ah right ugh argh whoops hm "
                "hey hi hello yo")  # (interjections and greetings: a closed class)
BOUNDARY = frozenset([*",;:?!.()", "—", "–"])  # (a dash between clauses too)
# Unit classes of which a key holds many values at once (a list of files, of links): only a
# correction replaces one, never a restatement.
MANY = frozenset({"path", "url", "hash", "ticket", "code", "function", "class", "env"})
DURATION = closed("ms s sec secs second seconds min mins minute minutes h hr hrs hour hours "
                    "day days week weeks")
SIZE = closed("b kb mb gb tb kib mib gib tib ki mi gi ti bytes")  # (Mi, Gi: Kubernetes')
BANDWIDTH = closed("bps kbps mbps gbps tbps kbit/s mbit/s gbit/s kbit mbit gbit tbit")  # 1 Gbps
# Units of area, one class however written ("68 square meters", then "the living area is
# 72 m²": one quantity, as "300 MB" and "2 GB" are one size).
AREA = frozenset({"m²", "m2", "sqm", "sq m", "sq. m", "sq.m", "square meter", "square meters",
                  "square metre", "square metres", "sq meter", "sq meters", "sq metres",
                  "ft²", "ft2", "sqft", "sq ft", "sq. ft", "sq.ft", "square foot", "square feet",
                  "km²", "square kilometers", "square kilometres", "acre", "acres",
                  "hectare", "hectares"})
# Each measured unit's class (a size, a bandwidth, an area, a share): one class each.
MEASURE_CLASS = {**dict.fromkeys(SIZE, "size"), **dict.fromkeys(BANDWIDTH, "bandwidth"),
                 **dict.fromkeys(AREA, "area"), "%": "percent", "percent": "percent"}
NOT_NP = PRONOUNS | AUXILIARIES | MODALS | closed(
    "now then also just only still already here there please let's us me not no really it's that's "
    "they're we're there's back over again away instead rather than i've i'm i'll we've we'll "
    "you've you're they've they'll more less fewer actually -> => → im ive")
CONJUNCTIONS = closed("and or but so")
# Hesitations that open a self-repair in writing ("err, 40 s", "erm, the 5th", "nvm, 4 am":
# never mind): a closed class (``fact_leads``); in capitals an acronym ("ER: 4 nurses").
REPAIRS = closed("er erm nvm")
# A noun phrase begins after the last conjunction in it ("shift and maintain"); a relative
# or subordinating word in it is none of its words ("which caused"): no key is one of them.
LINKS = CONJUNCTIONS | closed("yet nor")
NO_NOUN = NOT_NP | closed("which who whom whose whereas however although though because")
# Auxiliaries (of a passive, a perfect) a subject's words may end with before a verb ("the
# budget got cut", "the pool has been resized") and an adjective of judgement with its noun
# left out ("remained the same at $11.95", "the correct (port) for"): never a phrase's head.
# A verb of movement in the past ("we went from 60 to 120", "it rose from 3 to 5"): a value
# that moved from N to M, a change told after the fact ("goes from 1 to 10" is a range); no
# head of the phrase before it either ("my pay went (to 91k)").
MOVED = closed("went gone rose risen fell fallen grew grown jumped climbed shrank shrunk "
               "sank sunk soared dipped spiked leapt leaped")
# An adjective of a value's standing, its noun left out ("increased to the recommended 4GB",
# "raised to the usual 60s"), is no head either: the value is the change's, keyless.
NO_HEAD = closed("got get gets getting been being has have had same correct incorrect current "
                 "wrong right actual real new usual recommended suggested") | (
                     MOVED - {"rose"})  # ("my daughter Rose")
TITLES = closed("dr mr mrs ms prof st rev fr capt lt sgt")  # a title opens a name
# The kinds of place that open a name, also as a sentence's first word ("Hotel Sol in Seville",
# "Osteria Ventidue."): the capital is the name's, not the sentence's (a closed class).
NAME_HEADS = closed("hotel hostel inn motel resort osteria trattoria ristorante restaurant "
                    "bistro brasserie taverna café cafe pub bar club studio villa casa "
                    "hospital clinic museum gallery theatre theater lake mount camp")
# The particles of phrasal verbs ("goes out", "moved up").
PARTICLES = closed("out up down off back over away around along")
NAMING = closed("call calls called name names named")


@dataclass(slots=True)
class Tok:
    word: str  # lower case; "" for a value
    start: int
    end: int
    value: Value | None = None


def open_class(word: str) -> bool:
    """A plain word of no closed class: no determiner, pronoun, auxiliary, copula, conjunction
    or preposition. What the readers that guess a noun or a verb from its place ask of a word
    ("need 2 approvals", "up from four trains"), kept in one place so they agree."""
    return word.isalpha() and word not in DETERMINERS and word not in NOT_NP and \
        word not in COPULAS and word not in CONJUNCTIONS and word not in PREPOSITIONS


def tokens_of(sentence: str, values: list[Value]) -> list[Tok]:
    out: list[Tok] = []
    cursor = 0
    shouted = sentence.isupper()  # (in a sentence all in capitals no word is an acronym)
    for value in sorted(values):
        out += [Tok(_word(m.group(0), shouted), m.start() + cursor, m.end() + cursor)
                for m in TOKEN.finditer(sentence[cursor:value[0]])]
        out.append(Tok("", value[0], value[1], value))
        cursor = value[1]
    out += [Tok(_word(m.group(0), shouted), m.start() + cursor, m.end() + cursor)
            for m in TOKEN.finditer(sentence[cursor:])]
    for token in out:  # "scratch that - it's X": a hyphen between spaces is a dash; one
        # that opens a line before a space is a list's mark ("- staging db: postgres 14")
        if token.word == "-" and sentence[token.start - 1:token.start].isspace() | (
                not sentence[:token.start].strip()) and \
                sentence[token.end:token.end + 1] in (" ", ""):
            token.word = "—"
        elif PICTOGRAPH.fullmatch(token.word) and token.start:
            token.word = ","  # "scratch that 😅 i changed it": an emoji punctuates as a comma does
    for k, token in enumerate(out[1:], start=1):  # "renamed him Biscuit lol so that's ...":
        if token.word in _LAUGHS and (out[k - 1].value is not None or sentence[
                out[k - 1].start:out[k - 1].start + 1].isupper()):  # a laugh after a value or
            token.word = ","  # a name closes its clause as an emoji does
    for k, token in enumerate(out[1:], start=1):  # "fridge A: 4°C", "Hall A is 120 seats":
        if not shouted and sentence[token.start:token.end] == "A" and open_class(
                out[k - 1].word) and _designates(out[k + 1:k + 3]):  # a capital after a
            token.word = "A"  # noun names one of its kind (as "Hall B" does), no article
    _gerunds_changing(out)
    return out


_LAUGHS = closed("lol lmao haha hahaha hehe rofl xd")


def _designates(after: list[Tok]) -> bool:
    """What follows a capital "A" after a noun makes it a designator: no noun phrase of its
    own ("fridge A: 4°C", "gate A opens at 7:15", "locker A code 4471"; not "bought A new
    laptop for", "need A lot of")."""
    if not after or not open_class(after[0].word):
        return True
    return after[0].word not in ("lot", "few", "bit") and (
        len(after) < 2 or not open_class(after[1].word))
# What may stand before a gerund that is its clause's verb: a form of "be" ("we're moving it
# to Friday") or a word that opens the clause ("so changing it to X").
_BEFORE_GERUND = closed("am is are was were be been i'm we're they're you're he's she's it's "
                        "now so just and actually then")


_GERUND_CHANGES = CHANGE - {"make"}  # (built once: it is asked of every "-ing" word read)


def _gerunds_changing(tokens: list[Tok]) -> None:
    """A change verb's gerund that drops its "e" ("changing it to Cinder Pact", "we're moving
    it to 10:00") spelled as ``is_change`` reads it ("changeing"), where it is its clause's verb:
    it opens the clause or follows "be", no copula, auxiliary or modal follows it in its
    clause, and its clause names where the value goes ("to", "from": "I'm moving house on
    the 5th" states a plan). Never after another verb ("mentioned increasing the rent to
    £1000": a report), nor as a subject ("moving it to Monday was rejected"), nor "making"."""
    for k, token in enumerate(tokens):
        word = token.word
        if not word.endswith("ing") or f"{word[:-3]}e" not in _GERUND_CHANGES or (
                k and tokens[k - 1].word not in BOUNDARY and
                tokens[k - 1].word not in _BEFORE_GERUND and (
                    tokens[k - 1].word in PREPOSITIONS or k + 1 == len(tokens) or
                    tokens[k + 1].word not in ("up", "down", "back"))):
            continue  # (after its noun, with a particle: "kickoff moving up to noon")
        end = next((j for j in range(k + 1, len(tokens)) if tokens[j].word in BOUNDARY),
                   len(tokens))
        if not any(t.word in COPULAS or t.word in AUXILIARIES or t.word in MODALS
                   for t in tokens[k + 1:end]) and \
                any(t.word in ("to", "from") for t in tokens[k + 1:end]):
            token.word = f"{word[:-3]}eing"


# Pictographs (emoji, dingbats; their joiners and selectors), never arrows ("Y → X"), "°" or
# "™": chat writers punctuate with them between clauses ("the east pitch ⚽ warmup at 17:15").
PICTOGRAPH = re.compile("[\u2300-\u23ff\u2600-\u2793\u2b50-\u2b55\U0001f300-\U0001faff"
                        "\u200d\ufe0f]")


def _word(text: str, shouted: bool = False) -> str:
    """A token's word, in lower case; an acronym whose letters spell a closed-class word
    ("the US bucket", "the IT budget": not "us", "it") keeps its capitals, so no closed
    class takes it (``fact_grammar.read`` puts a key's words in lower case)."""
    word = text.lower().replace("’", "'")
    if not shouted and len(text) > 1 and text.isupper() and text.isalpha() and word in _CLOSED:
        return text
    return word


def joined(tokens: list[Tok], start: int = 0) -> str:
    return " ".join(t.word or "#" for t in tokens[start:])


def change_verb_at(tokens: list[Tok], index: int) -> bool:
    """A change verb where a noun phrase read backwards ends: its base form ("set the
    port"), or an inflected form after no determiner ("we switched vets": the vet's key, not
    "switched vet"; "the updated schedule" is an adjective)."""
    word = tokens[index].word
    return word in CHANGE or (is_change(word) and not (
        index > 0 and tokens[index - 1].word in DETERMINERS))


@lru_cache(maxsize=8192)
def is_change(word: str) -> bool:
    """A change verb in any form ("bumped", "switching"): memoised, it is asked of every
    word of every sentence several times."""
    return word in UPPED or any(word.removesuffix(end) in CHANGE
                                for end in ("", "d", "ed", "ing", "s")) or \
        (word.endswith("ped") and word[:-3] in CHANGE) or \
        (word.endswith("ching") and word[:-3] in CHANGE)


def is_replace(word: str) -> bool:
    return word in REPLACE


def contracted(tokens: list[Tok]) -> list[Tok]:
    """"the venue's now X", "the port's not 8443", "python's 3.12 now": a noun's "'s" before
    "now" or "not" (or a value and "now") is "is", not a possessive; "isn't" inside a
    sentence is "is not"."""
    out: list[Tok] = []
    for i, token in enumerate(tokens):
        after = tokens[i + 1].word if i + 1 < len(tokens) else ""
        if i > 0 and token.word.endswith("n't") and len(token.word) > 4 and not token.value:
            # "isn't on Thursday but on Friday": the verb and "not" (a question's leading
            # "Isn't the port ...?" stays one auxiliary)
            verb = {"won't": "will", "can't": "can"}.get(token.word, token.word[:-3])
            out += [Tok(verb, token.start, token.end - 3), Tok("not", token.end - 3, token.end)]
            continue
        then = tokens[i + 2].word if i + 2 < len(tokens) else ""  # "python's 3.12 now"
        valued = i + 1 < len(tokens) and (tokens[i + 1].value is not None or numeric(after))
        if token.word.endswith("'s") and len(token.word) > 2 and not token.value and (
                after in ("now", "not") or (valued and then == "now")):
            out += [Tok(token.word[:-2], token.start, token.end - 2),
                    Tok("is", token.end - 2, token.end)]
        else:
            out.append(token)
    return out


def particles_split(tokens: list[Tok]) -> list[Tok]:
    """"turned the heater down to 18 °C", "pushed the launch back to June": a verb's particle
    between its object (a determiner, then at most three plain words) and "to" belongs to
    the verb, not to the object's noun phrase; it is left out so the object is the key."""
    out: list[Tok] = []
    for k, token in enumerate(tokens):
        if token.word in PARTICLES and not token.value and k + 1 < len(tokens) and \
                tokens[k + 1].word == "to" and k >= 2:
            det = next((j for j in range(k - 1, max(-1, k - 5), -1)
                        if tokens[j].word in DETERMINERS), -1)
            if det >= 0 and all(t.word[:1].isalpha() and not t.value and t.word not in NOT_NP
                                and t.word not in COPULAS and t.word not in PREPOSITIONS
                                for t in tokens[det + 1:k]) and det + 1 < k:
                continue
        out.append(token)
    return out


def names_joined(sentence: str, tokens: list[Tok]) -> list[Tok]:
    """A run of capitalised words after the first ("Redis Streams") is one word: a name."""
    out: list[Tok] = []
    for token in tokens:
        prev = out[-1] if out else None
        if prev is not None and token.word == "." and prev.word in TITLES:
            out[-1] = Tok(f"{prev.word}.", prev.start, token.end)  # "Dr. Lindqvist"
            continue
        if prev is not None and prev.word.removesuffix(".") in TITLES and not prev.value and \
                sentence[prev.start:prev.start + 1].islower() and \
                sentence[token.start:token.start + 1].isupper():
            out[-1] = token  # "is dr. Ines Carvalho": a title in lower case opens the name
            continue
        if (prev is not None and (len(out) > 1 or prev.word in NAME_HEADS) and
                not token.value and not prev.value and
                sentence[token.start:token.start + 1].isupper() and
                sentence[prev.start:prev.start + 1].isupper() and token.word.isalpha() and
                "i" not in (token.word, prev.word) and  # ("it's Mrs. Costa I should …")
                prev.word.replace(" ", "").replace(".", "").isalpha()):  # "Grand Alpine Lodge"
            out[-1] = Tok(f"{prev.word} {token.word}", prev.start, token.end)
        else:
            out.append(token)
    return out


_CLOSED = NOT_NP | DETERMINERS | PREPOSITIONS | COPULAS | CONJUNCTIONS | PRONOUNS | REPAIRS

# Where a one-digit number is a value: "is now 5", "from 3 to 5", "5, not 4", "not 4 but 5",
# "5 (was 3)".
PAIRED = frozenset({"now", "from", "to", "not", "but", "was"})


def cardinal(word: str) -> bool:
    """A cardinal number, in figures or in words ("2", "two"): what a count opens with."""
    return word.isdigit() or word in NUMBER_WORDS


def numeric(word: str) -> bool:
    """A number as a word: "9443", "3.12" (a bare version or amount)."""
    return word[:1].isdigit() and word.replace(".", "").isdigit() and not word.endswith(".")


def unitless(text: str) -> bool:
    """A value's text is digits alone, with thousands separators or a decimal point ("5,908",
    "3.5"): a number without a unit."""
    return text.replace(",", "").replace(".", "").isdigit()
