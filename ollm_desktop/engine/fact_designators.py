"""Designators: a noun of the places and seats one is assigned to and the code that names one
of them, one value ("Courtroom 4A", "class 2-A", "seat 14C", "Gate B22", "berth 3-b").

The word tokens split "4A" into a number and a letter, and the references read no code of
digits and one capital (digits before a letter are a quantity and its unit: "fuse 13A",
"50K"), so "we're in Courtroom 4A" held no value and a change of room kept the old one
current. The noun decides: a closed class of things one is given a numbered one of (a room,
a seat, a gate, a class), written right before a code of digits and one letter (joined or
by a hyphen) or of one or two capitals and digits; the code ends its word. The noun is part
of the value, as "room B12" is after "in" (``fact_values``). With the two codes of "from B12
to C4" (``fact_patterns.CODE_CHANGE``), read here first, before the references: split from
``provenance`` (full).
"""

from __future__ import annotations

import re

from ollm_desktop.engine import fact_patterns as P
from ollm_desktop.engine.fact_words import closed

_NOUNS = (r"(?:court)?rooms?|seats?|gates?|platforms?|flats?|apartments?|apt\.?|units?|suites?"
          r"|class(?:room)?|grades?|forms?|berths?|coach|cabins?|wards?|beds?|bays?|blocks?"
          r"|halls?|labs?|lockers?|desks?|stalls?|pitch|plots?|lots?|sections?|rows?"
          r"|terminals?|stands?|docks?|piers?|slips?|moorings?|pods?|booths?")
_DESIGNATOR = re.compile(
    rf"(?<![\w-])(?i:{_NOUNS})\s+(?:\d{{1,4}}-?[A-Z]|\d{{1,4}}-[a-z]|[A-Z]{{1,2}}-?\d{{1,4}}[A-Z]?)"
    r"(?![\w%°-]|[.,]\d)")
# What says the noun and its code name a place, not a label and its value: a preposition, a
# copula or a determiner right before ("in Courtroom 4A", "it's room C04", "is now class 2-A"),
# "now" after, or no list around ("sorry, typo, Flat 12D"); not the list item "booking: berth
# C-14, 3 nights" (a colon before, a comma after) nor "Apt 2B." opening its sentence, whose
# noun is the key.
_LEAD = re.compile(r"(?i)\b(?:in|at|on|to|into|from|for|is|are|was|were|be|'s|’s|now|the|my|our|"
                   r"your|his|her|their|a)\s+$")
_NOW = re.compile(r"(?i)\s+now\b")  # or "now" after: "they moved me, seat 18A now"
_ITEM = re.compile(r"\s*[,;]")  # (else no label's colon before and no next item after)


def coded(sentence: str, taken: list[tuple[int, int]]) -> list[tuple[int, int, str, str]]:
    """(start, end, value, "name") of the sentence's designators, its codes of capitals and
    a number, and the two codes of a change "from B12 to C4"; ``taken`` gets their spans
    (no other finder reads inside)."""
    found: list[tuple[int, int, str, str]] = []
    for match in P.CODE_CHANGE.finditer(sentence):  # (both codes are letters, then digits)
        found += [(*match.span(n), match[n], "name") for n in (1, 2)]
        taken += [match.span(1), match.span(2)]
    for match in _DESIGNATOR.finditer(sentence):  # (what goes before, in a window: linear)
        start = match.start()
        before = sentence[max(0, start - _WINDOW):start].rstrip()
        opens = _WORD.search(sentence, 0, start) is None
        if (_LEAD.search(sentence, max(0, start - _WINDOW), start) or
                _NOW.match(sentence, match.end()) or not (
                    before.endswith(":") or opens or _ITEM.match(sentence, match.end()))) and \
                not any(a < match.end() and match.start() < b for a, b in taken):
            found.append((match.start(), match.end(), match.group(0), "name"))
            taken.append(match.span())
        elif _NUMBER_FIRST.search(match.group(0)) and not opens and \
                not any(a < match.end() and match.start() < b for a, b in taken):
            found.append((match.start(), match.end(), match.group(0), "name"))  # a list's
            taken.append(match.span())  # "seat 7A, …": a code no reference reads (digits first)
    if sentence.isupper():
        return found  # (in a sentence all in capitals no word is a code)
    for match in _LINE_CODE.finditer(sentence):
        listed = _ITEM.match(sentence, match.end()) and _LISTED.search(sentence[:match.start()])
        if match[1] not in _NO_CODE and _CODE_END.match(sentence, match.end()) and not listed and \
                not _MEASURED.search(sentence, max(0, match.start() - _WINDOW), match.start()) and \
                not any(a < match.end() and match.start() < b for a, b in taken):
            found.append((match.start(), match.end(), match.group(0), "name"))
            taken.append(match.span())
    return found


# A code of capitals and the number after it, one name: a train, a flight, a standard, a
# release ("IC 2043", "BA 117", "ISO 9001", "DOS 6.22"). The number ends the code's clause
# (the end, a mark, a preposition, "now"): one followed by a word is a quantity of it ("USD
# 500 a month", "CPU 4 cores", "ETA 15 min"), as are codes of money; an abbreviation of chat
# ("OK 10", "PS 2") is none, nor a state and its ZIP code (five digits: "Boston MA 02118"),
# nor a setting's or a rate's acronym and its value ("ISO 3200", "MTU 1500", "BPM 120": the
# number is the value, the acronym its key), nor an item of a list ("settings: f/2.8, EV 2").
_LINE_CODE = re.compile(r"(?<![\w.-])([A-Z]{2,4}) (\d{2,4}(?:\.\d{1,2})?)(?![\w%°/:-]|[.,]\d)")
_CODE_END = re.compile(r"\s*(?:$|[.,;!?)—–]|- |(?i:at|on|in|from|to|for|now|instead|and|or|but|"
                       r"today|tomorrow|tonight|fine|again)\b)")
_NO_CODE = closed("OK NO PS PM AM BTW FYI IMO TBH LOL ASAP ETA THE AND FOR NOT AT IN ON TO IS "
                   "IT MY AN OR BY UP SO DO GO WE US ME HI USD EUR GBP CHF JPY CAD AUD INR NZD "
                   "SEK NOK DKK CNY PLN HKD SGD ZAR BRL MXN RUB TRY KRW ISO EV RPM BPM FPS DPI "
                   "PPI PSI SPF TTL MTU WPM HP KW CFM IOPS QPS TPS RPS MPH KPH KMH IQ LDL HDL HRV "
                   "BMI FTP RAM VRAM SSD HDD GPA SAT GRE")
# A possessive or a verb of having or scoring before capitals and a number makes them a
# measure and its figure, no code ("my LDL 130", "I scored IQ 130", "the VM has RAM 64").
_MEASURED = re.compile(r"(?i)\b(?:my|our|your|scored|score|has|have|had|got)\s+$")
_NUMBER_FIRST = re.compile(r"(?<=\s)\d{1,4}-?[A-Za-z]$")  # ("7A", "3-b": what no reference reads)
_WINDOW = 40  # characters before a match its lead is looked for in
_WORD = re.compile(r"\S")
_LISTED = re.compile(r"(?:^|[:,;])\s*$")
