"""Values that span several words by the shape around them: the two objects of "replace Y
with X" / "swap Y for X" (each noun phrase one value) and two measures joined by "by" or "x"
(the dimensions of one thing), a firm's name joined by "&"; and numbers whose place says
they are values: a count in a list of counts or of a noun with no plural "s", the Y of "V K
Y to X" or of a verbless "K Y to X"; and where a clause ends. Part of ``fact_values``'
reading, over ``fact_grammar``'s tokens, in place.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_keys import phrase_before
from ollm_desktop.engine.fact_leads import ENDING, from_now
from ollm_desktop.engine.fact_phrase_words import mark_value
from ollm_desktop.engine.fact_verbs import MOVED, changes, finite_verb, takes_infinitive
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    REPLACE,
    TIMES,
    Tok,
    closed,
    is_change,
    numeric,
)
from ollm_desktop.engine.reference_words import NUMBER_WORDS

# The words that join the two objects of "replace Y with X", "swap Y for X".
# "swap Y for X", and a verb that ends what the user had with the thing taken up for it ("we
# dropped Crashlytics for Sentry", "ditched the gym for running"): "for" names the successor.
_REPLACING = {"with": REPLACE, "by": REPLACE, "for": closed("swap swaps swapped swapping") |
              ENDING}


def replaced_objects(sentence: str, tokens: list[Tok], first: int) -> None:
    """The two objects of "replace Y with X" / "swap Y for X" ("Replaced the Netgear with an
    Eero mesh system", "swapping the butter for coconut oil"): each noun phrase one value (a
    name) where it holds none yet; which one goes is ``fact_grammar``'s reading."""
    for k in range(first, len(tokens) - 3):
        if tokens[k].word not in REPLACE and tokens[k].word not in ENDING:
            continue
        one = _object_span(tokens, k + 1)
        if one is None or one[1] >= len(tokens):
            return
        verbs = _REPLACING.get(tokens[one[1]].word)
        two = _object_span(tokens, one[1] + 1) if verbs and tokens[k].word in verbs else None
        if two is None or (tokens[k].word in ENDING and not (
                _named(sentence, tokens, one) and _named(sentence, tokens, two))):
            return  # ("dropped the price for members": a change and its beneficiary)
        for a, b in (one, two):
            _name_span(sentence, tokens, a, b)
        return


def _object_span(tokens: list[Tok], at: int) -> tuple[int, int] | None:
    """[at, end) of a noun phrase's words after its determiner: plain words (or one value),
    up to a preposition, a boundary or the end; None if empty or over four words."""
    at += at < len(tokens) and tokens[at].word in DETERMINERS
    end = at
    while end < len(tokens) and (tokens[end].value or (
            tokens[end].word[:1].isalnum() and tokens[end].word not in PREPOSITIONS and
            tokens[end].word not in NOT_NP and tokens[end].word not in CONJUNCTIONS and
            tokens[end].word not in DETERMINERS and tokens[end].word not in TIMES)):
        end += 1  # (up to a time: "... with a mesh system last night")
    return (at, end) if 0 < end - at <= 4 else None


def _named(sentence: str, tokens: list[Tok], span: tuple[int, int]) -> bool:
    """Whether a noun phrase opens with a name as written (a capital or a value already)."""
    first = tokens[span[0]]
    return first.value is not None or capital(sentence, first)


def _name_span(sentence: str, tokens: list[Tok], a: int, b: int) -> None:
    """The words [a, b) as one name value, kept on the last token (the others are part of
    it), unless a value is among them already."""
    if not any(t.value for t in tokens[a:b]):
        mark_value(sentence, tokens, a, b)


_RANGE_TO = re.compile(r"(\S+)\s+to\s+(\S.*)")


def changed_ranges(tokens: list[Tok], first: int) -> None:
    """"Increase the timeout from 10 to 30 seconds": after a change verb, "from N to M unit"
    is the change's old and new values, the unit written once, not a range of one value
    ("it takes from 10 to 30 seconds", with no change verb, stays a range). A verb of
    movement in the past is a change too ("we went from 60 to 120 requests per minute")."""
    for i in range(len(tokens) - 1, first, -1):
        value = tokens[i].value
        if value is None or value[3] != "number" or tokens[i - 1].word != "from":
            continue
        pair = _RANGE_TO.fullmatch(value[2])
        if pair is None or not numeric(pair.group(1)) or not any(
                is_change(t.word) or t.word in MOVED for t in tokens[first:i - 1]):
            continue
        start, old = value[0], pair.group(1)
        new_at = start + pair.start(2)
        tokens[i:i + 1] = [Tok("", start, start + len(old), (start, start + len(old), old,
                                                             "number")),
                           Tok("to", start + len(old) + 1, new_at - 1),
                           Tok("", new_at, value[1], (new_at, value[1], pair.group(2),
                                                      "number"))]


def spelled_change(sentence: str, tokens: list[Tok], first: int) -> None:
    """"raises the number of daily sailings from seven currently to eight", "cut the team
    from five to three": after a change verb, the two numbers in words of "from N [adverb] to
    M" are the change's old and new values (elsewhere a number in words is prose). A compound
    number is one value ("from twenty to twenty five": ``compound_numbers``)."""
    for k in range(first + 1, len(tokens) - 3):
        if tokens[k].word != "from" or not any(changes(t.word) for t in tokens[first:k]):
            continue
        old = _past_joined(tokens, k + 1)
        to = old + 2 if old + 1 < len(tokens) and (tokens[old + 1].word.endswith("ly") or
                                                   tokens[old + 1].word == "now") else old + 1
        new = _past_joined(tokens, to + 1)  # (one adverb of the old value: "from seven
        if new >= len(tokens) or tokens[to].word != "to" or not all(  # currently to eight")
                _spelled(tokens[n]) for n in (old, new)):
            continue
        for n in (old, new):
            start, end = tokens[n].start, tokens[n].end
            tokens[n].value = (start, end, sentence[start:end], "number")
            tokens[n].word = ""


def compound_numbers(tokens: list[Tok]) -> list[Tok]:
    """The tokens with each number in words of tens and units ("twenty five") one word, as
    "twenty-five" is: one number, not a "twenty" and a "five" (read before anything else)."""
    out: list[Tok] = []
    for token in tokens:
        last = out[-1] if out else None
        if last is not None and last.word in _TENS and token.word in _UNITS and \
                not last.value and not token.value and token.start == last.end + 1:
            out[-1] = Tok(f"{last.word}-{token.word}", last.start, token.end)
        else:
            out.append(token)
    return out


def _past_joined(tokens: list[Tok], at: int) -> int:
    while at < len(tokens) and tokens[at].word == "·":
        at += 1
    return at


def _spelled(token: Tok) -> bool:
    """A number in words, compound ones hyphenated ("twenty-five") too."""
    return not token.value and bool(token.word) and all(
        part in NUMBER_WORDS for part in token.word.split("-"))


_TENS = frozenset({"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"})
_UNITS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine"})


# One item of an address: words that open with a capital or a digit ("Home Farm House",
# "5 Wilton Road", "4th Floor", "DT11 8LT").
_ADDRESS_ITEM = r"[A-Z0-9][\w'’&.-]*(?:[ ][A-Z0-9][\w'’&-]*)*"
_ADDRESS_REST = re.compile(rf"(?:,[ ]{_ADDRESS_ITEM}){{2,}}")


_WHEN = frozenset({"time", "date"})


def addresses(sentence: str, tokens: list[Tok], first: int) -> None:
    """A name and the items of its address after it ("convened at The Office, Home Farm
    House, Iwerne Minster, Dorset, DT11 8LT", "at Greencoat Capital LLP, 4th Floor, The
    Peak, 5 Wilton Road, London"): one value, the place as the user writes it, not its first
    item alone. Two items or more after the name, each opening with a capital or a digit, and
    a digit among them (a house number, a floor, a postcode: "Google, Meta, Amazon" is a list
    of names, no address), one of them a place's words (``_placed_item``)."""
    for i in range(first, len(tokens)):
        value = tokens[i].value
        if value is None or value[3] != "name":
            continue
        rest = _ADDRESS_REST.match(sentence, value[1])
        whens = [t.value[0] for t in tokens[i + 1:] if t.value and t.value[3] in _WHEN and
                 rest and t.value[0] < rest.end()]  # "at Central Park, 5th Avenue, 3pm"
        if whens:  # (a time or a date is when, not where: the address ends before it)
            rest = _ADDRESS_REST.match(sentence[:sentence.rfind(",", 0, whens[0])], value[1])
        if rest is None or not any(c.isdigit() for c in rest.group(0)) or \
                not _placed_item(rest.group(0)):
            continue
        end = rest.end() - rest.group(0).endswith(".")  # (the sentence's full stop)
        inside = [k for k in range(i + 1, len(tokens)) if tokens[k].start < end]
        for k in inside:
            tokens[k].word, tokens[k].value = "·", None
        tokens[i].value = (value[0], end, sentence[value[0]:end], "name")
        return


def _placed_item(items: str) -> bool:
    """An address has an item of two words or more that is no name and its number ("Home
    Farm House", "5 Wilton Road", "DT11 8LT"); "Tom, Jake, Sam 7, Ben" is a list of names."""
    return any(len(words) >= 2 and not words[-1].isdigit()
               for words in (item.split() for item in items.strip(" .").split(",")))


def dimensions(sentence: str, tokens: list[Tok], first: int) -> None:
    """Two measures joined by "by" or "x" ("5.4 m by 4.1 m", "3 x 4 m"): one value, the
    dimensions of one thing (not a second value that restates the first)."""
    for i in range(first, len(tokens) - 2):
        one, two = tokens[i].value, tokens[i + 2].value
        if one is None or two is None or one[3] != "number" or two[3] != "number" or \
                tokens[i + 1].word not in ("by", "x", "×"):
            continue
        tokens[i + 2].value = (one[0], two[1], sentence[one[0]:two[1]], "dimensions")
        tokens[i].value, tokens[i].word, tokens[i + 1].word = None, "·", "·"


def listed_count(tokens: list[Tok], i: int, first: int) -> bool:
    """A count in a list of counts: after a comma or "and" that follows a counted number
    ("11 starters, 5 subs, 2 coaches", "8 volunteers for the sort and 4 drivers", "rank 16,
    alpha 32, 2 epochs"), a number and the plain word it counts."""
    if i - 1 <= first or tokens[i - 1].word not in (",", "and") or i + 1 >= len(tokens) or \
            not tokens[i + 1].word.isalpha() or tokens[i + 1].word in DETERMINERS or \
            tokens[i + 1].word in PREPOSITIONS or tokens[i + 1].word in NOT_NP:
        return False
    return any(t.value is not None and _counted_pair(t.value[2]) for t in tokens[first:i - 1])


def _counted_pair(text: str) -> bool:
    """A number with the noun it counts or that names it ("11 starters", "rank 16")."""
    words = re.sub(r"(?<=\d)-[a-z]+", "", text.replace(",", "")).split()  # ("2-inch binder")
    return len(words) == 2 and any(numeric(w) for w in words) and any(w.isalpha() for w in words)


def changed_to_next(tokens: list[Tok], i: int, first: int) -> bool:
    """Y of "V K Y to X" with a change verb and no "from" ("Updated port 8080 to 8090",
    "bump the replicas 3 to 5"): a number right before "to" and a number (or a value) after
    it, and ``changes_its_object``."""
    nxt = tokens[i + 2] if i + 2 < len(tokens) else None
    if nxt is None or tokens[i + 1].word != "to" or not (
            nxt.value is not None or numeric(nxt.word)):
        return False
    return changes_its_object(tokens, i, i + 2, first)


def changes_its_object(tokens: list[Tok], y: int, x: int, first: int) -> bool:
    """Whether Y at ``y`` and X at ``x`` are the old and new values of a change "V [K] Y to
    X": a change verb earlier in the clause, no value and no "from" / "to" between; and X is
    no part of something ("changed 4 to 6 of them": six of the workers, not a new count).
    (A noun between the verb and Y is not required: "change 9:30 to 10:00" names the key
    by its old value.)"""
    if x + 1 < len(tokens) and tokens[x + 1].word == "of":
        return False
    for k in range(y - 1, first - 1, -1):
        word = tokens[k].word
        if word in BOUNDARY or tokens[k].value or word in ("from", "to"):
            return False
        if is_change(word):
            return True
    return _labelled_change(tokens, y, x, first)


def _labelled_change(tokens: list[Tok], y: int, x: int, first: int) -> bool:
    """A change written as a title, with no verb: the whole sentence is a one-word singular
    label, Y, "to" and a smaller X ("Port 5000 to 2000", "Limit 80 to 50"). A rising pair
    may be a range ("Budget 500 to 800"), as a plural label's is ("Rooms 101 to 110"), and a
    clause that goes on after X says what of it ("Pages 5 to 10 are missing")."""
    label = tokens[first].word
    if y != first + 1 or not label.isalpha() or label in NOT_NP or label in DETERMINERS or \
            label in PREPOSITIONS or label.endswith("s"):
        return False
    if not all(t.word in (".", "!") for t in tokens[x + 1:]):  # (no question: "… to 2000?")
        return False
    old, new = (_amount(t) for t in (tokens[y], tokens[x]))
    return old is not None and new is not None and old[1] == new[1] and new[0] < old[0]


def _amount(token: Tok) -> tuple[float, str] | None:
    """A number's amount and what is around it ("€900": 900 and "€"; "30s": 30 and "s"), of
    a value's text or a bare word, or None."""
    text = (token.value[2] if token.value else token.word).replace(",", "")
    match = _AMOUNT.fullmatch(text)
    return (float(match.group(2)), match.group(1) + match.group(3)) if match else None


_AMOUNT = re.compile(r"([€$£¥]?)(\d+(?:\.\d+)?)\s?([A-Za-z%]*)")


def noun_place(tokens: list[Tok], i: int, first: int) -> bool:
    """A lower-case word where a noun phrase stands: after a preposition, a determiner or a
    copula, or as the object of a verb after a pronoun ("we use lodash 4.17.15", "the
    harness is lm-eval 0.4.2"); a word after a noun, or opening its clause, may be a verb
    there ("the tool requires 3.8.1", "Pip requires 3.8.1")."""
    if i - 1 < first:
        return False
    prev = tokens[i - 1].word
    if prev in PREPOSITIONS or prev in DETERMINERS or prev in COPULAS:
        return True
    return i - 2 >= first and prev.isalpha() and prev not in NOT_NP and \
        not tokens[i - 1].value and tokens[i - 2].word in PRONOUNS


def firm_end(sentence: str, tokens: list[Tok], i: int) -> int:
    """Where a firm's name joined by "&" ends ("is now Kessler & Moens", "is at Harlow &
    Finch,"): after a copula (its "now", or "at"), two capitalised names with a spaced "&"
    between, ending the clause, are one name. Elsewhere "&" may join two people ("Ana & Ben
    lead the Tuesday shift"): each is a value of its own."""
    second = sentence[tokens[i + 2].start:tokens[i + 2].end] if i + 2 < len(tokens) else ""
    coded = tokens[i + 2].value if i + 2 < len(tokens) else None  # ("McKenzie": a class's)
    if i + 2 >= len(tokens) or tokens[i + 1].word != "&" or not second.isalpha() or \
            (coded is not None and coded[3] not in ("identifier", "class")) or \
            sentence[tokens[i].end:tokens[i + 2].start] != " & " or \
            not capital(sentence, tokens[i + 2]) or second.lower() in PRONOUNS or \
            not ends_clause(tokens, i + 2) or \
            i < 1 or not (tokens[i - 1].word in COPULAS or tokens[i - 1].word in ("now", "at")):
        return tokens[i].end
    tokens[i + 1].word = tokens[i + 2].word = "·"  # part of the value now ("McKenzie" too:
    tokens[i + 2].value = None  # an inner capital does not make the firm's second name a code)
    return tokens[i + 2].end


def ends_clause(tokens: list[Tok], index: int) -> bool:
    return index + 1 >= len(tokens) or tokens[index + 1].word in _CLAUSE_ENDS or \
        from_now(tokens, index + 1) > 0  # "going forward": a time from which it holds


def subject_verb_count(words: list[str], i: int, first: int) -> bool:
    """A number after a verb with its subject ("we need 3 staff on the front desk"), before
    one word and a preposition: the word is the noun it counts. A verb that opens the
    sentence may be a noun ("question 4 look at ..."), so the subject must be there."""
    return i - 2 >= first and words[i - 2].isalpha() and words[i - 2] not in DETERMINERS and \
        words[i + 2:i + 3] != [] and words[i + 2] in PREPOSITIONS


_MORE = frozenset(("more", "less", "fewer", "extra", "others", "other"))


def opening_count(tokens: list[Tok], i: int, first: int) -> bool:
    """A number right after the conjunction that opens a sentence, before the plain noun it
    counts and a preposition or the clause's end ("And 2 people on the front desk.", "Plus 4
    children."): the sentence adds one more count to the list before it."""
    opener = i - 1 if i - 1 >= 0 and i - 1 in (first, first - 1) else -1  # (a lead's "And")
    if opener < 0 or tokens[opener].word not in CONJUNCTIONS or i + 1 >= len(tokens) or \
            (opener == first - 1 and opener != 0):
        return False
    noun = tokens[i + 1].word
    if not noun.isalpha() or noun in DETERMINERS or noun in PREPOSITIONS or noun in NOT_NP \
            or noun in COPULAS or noun in _MORE:  # (NOT_NP holds auxiliaries and pronouns)
        return False  # ("And 2 more on Sunday": an increment, not a count of its own)
    return ends_clause(tokens, i + 1) or (i + 2 < len(tokens) and
                                           tokens[i + 2].word in PREPOSITIONS)


def capital(sentence: str, token: Tok) -> bool:
    return sentence[token.start:token.start + 1].isupper()


def listed_name(sentence: str, tokens: list[Tok], i: int) -> bool:
    """A capitalised item of a list of values ("Sunday: October 23, 11am, Centenary Hall,
    Hamilton Street", "Fri 3 May, 7pm, Corn Exchange"): after a comma, a value and another
    comma before that value, and ending its item (a comma or the end after it). One value
    and one comma before it is a name addressed ("Let's do 3pm, Mark."), not an item."""
    return i >= 4 and capital(sentence, tokens[i]) and tokens[i].word.replace(" ", "").isalpha() \
        and tokens[i - 1].word == "," and tokens[i - 2].value is not None and \
        tokens[i - 3].word == "," and (i + 1 >= len(tokens) or tokens[i + 1].word in BOUNDARY)


_REASONS = frozenset({"because", "since", "so"})
_CLAUSE_ENDS = BOUNDARY | _REASONS | frozenset({  # ("… postgresql because it is simpler")
    "not", "instead", "but", "and", "from", "now", "anymore", "actually"})  # ("it's X actually")


def code_label(sentence: str, tokens: list[Tok], i: int) -> bool:
    """A setting's code name right before its plain number ("versionCode 4120", "maxRetries
    5", "worker_count 8" at a clause's end): the name is the number's label, the number the
    value. A code name of letters only (one with a digit is a value of its own), one space
    from a number that nothing else reads."""
    coded = tokens[i].value
    if coded is None or coded[3] != "code" or not coded[2].replace("_", "").isalpha() or \
            i + 1 >= len(tokens):
        return False
    number = tokens[i + 1]
    return number.value is None and numeric(number.word) and \
        sentence[tokens[i].end:number.start] == " " and ends_clause(tokens, i + 1)


# Cardinals in words that count a plural noun ("two tablespoons"; "one" counts no plural).
_SPELLED = NUMBER_WORDS - {"one", "hundred"}


def spelled_counts(sentence: str, tokens: list[Tok], first: int) -> None:
    """A number in words and the plural noun it counts in a correction ("Two teaspoons, not
    two tablespoons", "three cups of flour instead"): one count, as "2 tablespoons" is (in a
    plain statement, "we hand-picked three examples", a count in words is prose). Not after a
    determiner ("the two teams": the teams themselves), and only before a plain plural noun
    (one with capitals inside is that noun stressed, "two TABLEspoons": a number in words
    counts no class name)."""
    for i in range(first, len(tokens) - 1):
        word, noun = tokens[i], tokens[i + 1]
        if word.word in _SPELLED and noun.value and noun.value[3] == "class" and \
                noun.value[2].isalpha():
            noun.word, noun.value = noun.value[2].lower(), None  # "two TEAspoons": stress
        if word.value or word.word not in _SPELLED or noun.value or \
                not (noun.word.isalpha() and noun.word.endswith("s") and len(noun.word) > 3) or \
                noun.word in NOT_NP or noun.word in PREPOSITIONS or noun.word in COPULAS or \
                noun.word in CONJUNCTIONS or is_change(noun.word) or \
                (i > 0 and tokens[i - 1].word in DETERMINERS):
            continue
        word.value = (word.start, noun.end, sentence[word.start:noun.end], "number")
        word.word, noun.word = "", "·"


def subject_verb_to(tokens: list[Tok], to: int, first: int) -> bool:
    """"the log level defaults to X", "the nightly job writes to X": a present verb right
    before "to" after a noun phrase of two words or more (a key, as "K is X" needs) takes
    X as that key's value; not after a verb that takes an infinitive ("the sauce needs to
    simmer", "my son likes to swim": a verb follows, no value)."""
    verb = to - 1
    return verb > first and finite_verb(tokens[verb]) and \
        not takes_infinitive(tokens[verb].word) and len(phrase_before(tokens, verb, first)) >= 2
