"""The shapes of values people write, each read whole by its own form: a range of hours ("noon-6
p.m.", "9am-5pm"), a bound in time ("before 7 a.m."), a weekday of each month ("the first
Tuesday of the month"), a weekday with its day ("Tuesday 14th", "next Tuesday"), a month named
alone ("in May"), a host with its port and path ("localhost:3000/api"), a phone number with
its area code in brackets ("(555) 123-4567"), a release line ("18.x"), digits with a wildcard
("80xx") or a letter suffix ("4471-B"), a decimal without its leading zero (".75"), a
fraction ("2 1/2 teaspoons"), a time in words ("half past seven"), cents after the figure
("25¢", "50c", "99p").

Split from ``reference_patterns`` (which turns each (pattern, kind, check) of :data:`SHAPES`
into a rule, after the named hours) so that module stays one table; the pieces both read (a
clock's zone, where a number starts, a day of the month) live here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ollm_desktop.engine.reference_words import (
    MONTH_NAMES,
    PRODUCTS,
    SECTIONS,
    STOP,
    UNIT,
    WEEKDAYS,
)

Check = Callable[[re.Match[str]], tuple[str, str] | None]

# A clock time's zone after it ("3:15 p.m. CST", "4:25 p.m. ET", "noon CT", "09:00 UTC"): a
# region's letters and "S"/"D" (standard, daylight) before "T", or the universal ones; not "AT"
# nor "IT" (a word of a sentence in capitals)
ZONE = r"(?:[A-Z]{1,2}[SD]T|[ECMP]T|[CWE]ET|CEST|UTC(?:[+-]\d{1,2})?|GMT(?:[+-]\d{1,2})?)\b"
# A number starts here, not inside 1.234,56 nor "under-14s".
NUMBER_START = r"(?<![\w.,$€£¥₹])(?<![^\W\d_]-)"
UNIT_END = r"(?![A-Za-z0-9_])"
# The half of the day ("am", "PM", "p.m.").
HALF = r"(?:(?:am|pm|AM|PM)\b|[AaPp]\.[Mm]\.)"
# A day of the month, and the second day of a range of days in one month ("July 26-29").
DAY = r"\d{1,2}(?:st|nd|rd|th)?"
TO_DAY = r"\s?[-–]\s?\d{1,2}(?:st|nd|rd|th)?(?![\d:])"

# The points of a range of times of day: an hour with its half of the day ("6 p.m.", "9am",
# "10.30pm"), a clock time ("7:00", "6:55 a.m."), an hour with a name; the first may be a bare
# hour when the second has its half of the day ("7-9 pm").
_HOUR_HALF = rf"(?:1[0-2]|0?[1-9])(?:[.:][0-5]\d)?\s?{HALF}"
_HOUR = rf"(?:1[0-2]|0?[1-9])(?:[.:][0-5]\d)?(?:\s?{HALF})?"
_CLOCK = rf"(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?{HALF})?"
# An hour by its name ("noon", "12 midnight").
HOUR_NAME = r"(?:12\s)?(?:noon|midnight|midday)"
_HOUR_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|midnight"
_CLOCK_HOURS = _HOUR_WORDS.removesuffix("|noon|midnight")
_NTH = r"(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)"
_OF_MONTH = r"\s+of\s+(?:the|each|every)\s+month"
# The weekdays' short forms ("Fri the 3rd", "Thursday-7:30pm" is no model's name).
_WEEKDAY_SHORT = "mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
# Words before "to" whose object is a person, not a month: "Thanks to May, it shipped",
# "I talked to April." (each its own lookbehind: Python's are of one width)
_TO_A_PERSON = "".join(
    rf"(?<!\b{w} to )" for w in ("[Tt]hanks", "[Tt]hank you", "[Tt]alk", "[Tt]alked", "[Ss]poke",
                                 "[Ss]peak", "[Ss]aid", "[Ww]rote", "[Ww]rite", "[Hh]i",
                                 "[Hh]ello", "[Rr]eplied", "[Rr]eply", "[Mm]arried",
                                 "[Ll]isten", "[Ll]istened", "[Ii]ntroduced"))


def _check_hours(match: re.Match[str]) -> tuple[str, str] | None:
    """A range of hours says which half of the day (or names an hour) or is written in
    clock times on both sides ("9:00-17:30"): "10-12" alone is a range of numbers."""
    text = match.group(0)
    first, second = re.split(r"\s?[-–]\s?", text, maxsplit=1)
    named = re.search(r"noon|midnight|midday", text) is not None
    half = re.search(HALF, second) is not None
    clocks = ":" in first and ":" in second
    return (text, "time") if named or half or clocks else None


_TITLE = re.compile(rf"(?i:{SECTIONS}|step|question|part|option)")


def _check_cents(match: re.Match[str]) -> tuple[str, str] | None:
    """Cents written "c" or "p" after a figure, unless a title's word stands before it ("Step
    3c", "Form 2p", "section 4c": an item's number and its letter)."""
    text = match.group(0)
    if text.endswith(("c", "p")):
        before = match.string[:match.start()].rstrip().rsplit(None, 1)
        word = before[-1] if before else ""
        if word[:1].isupper() or _TITLE.fullmatch(word):
            return None
    return text, "number"


_NOT_COUNTED = frozenset(STOP.replace("\\", "").split("|"))


def _check_fraction(match: re.Match[str]) -> tuple[str, str] | None:
    """A fraction with the word after it when that word is a unit or a noun it counts ("1/2
    cup", "2 1/2 teaspoons"), without it when the word is a closed-class word or a name
    ("1/2 of the team", "3/4 for Anna": the fraction alone)."""
    text = match.group(0)
    head, _, word = text.rpartition(" ")
    if head and word.isalpha() and (word.lower() in _NOT_COUNTED or not word.islower()):
        return head, "number"
    return text, "number"


def _before(match: re.Match[str]) -> str:
    """The few words before a match (a bounded window: a check costs the same however long
    the text before it)."""
    return match.string[max(0, match.start() - 24):match.start()]


def _check_joined(match: re.Match[str]) -> tuple[str, str] | None:
    """Groups of six digits or more in all are an identifier the digit-groups rule reads
    ("20-45-77", a sort code: a name); fewer are a number ("9-5", "3-1", "4-4-7-1")."""
    text = match.group(0)
    if sum(c.isdigit() for c in text) >= 6 or _RESULT_VERB.search(_before(match)):
        return None  # (after a verb of a result, a game's score: "we won 3-1", "went 2-0
        # down", "lost 10-46" tell of a match, no value the user keeps)
    counted = _COUNTED_AFTER.match(match.string, match.end())
    if counted is not None and "-" in text and text.count("-") == 1:
        return text + counted.group(0), "number"  # a range and the plural it counts ("15-20
        # chairs", "15-20 people"): one count, the noun kept (as "15 chairs" keeps it)
    return text, "number"


# A verb in the past of a game's or a match's result, before a score.
_RESULT_VERB = re.compile(r"\b(?i:won|lost|drew|beat|went|ended|finished|led|trailed|were|got)"
                          r"(?:\s+(?i:us|them|him|her|you|me))?\s+$")  # ("beat us 4-1")
# A plural noun a range counts, ending the phrase ("15-20 chairs for the hall").
_COUNTED_AFTER = re.compile(r"\s(?!(?:is|was|has|us|this|its|as|yes|plus|minus|less)\b)"
                            r"(?:people|persons|guests|kids|children|adults|chairs|seats|tables"
                            r"|rooms|beds|staff|players|copies|boxes|units|items|pieces|volunteers"
                            r"|attendees|servings|portions|participants|members|students)\b")


def _check_grouped(match: re.Match[str]) -> tuple[str, str] | None:
    """Ten digits at least and no run of years: a number as the user groups it (a number, as
    its last group alone was, so no name said later is taken for it)."""
    text = match.group(0)
    years = all(len(g) == 4 and g[:2] in ("19", "20") for g in text.split())
    if all(g.endswith("0") for g in text.split()) or \
            _CODE_BEFORE.search(_before(match)) or \
            _SHORT_AFTER.match(match.string[match.end():]):
        return None  # round figures are a list ("quotes of 1200 1450 1600"); a capital code
        # before or a short group after make the groups part of a longer one (an IBAN's)
    return (text, "number") if sum(c.isdigit() for c in text) >= 10 and not years else None


_CODE_BEFORE = re.compile(r"\b(?=[A-Z0-9]*[A-Z])[A-Z0-9]{2,}\s$")
_SHORT_AFTER = re.compile(r"\s\d{1,2}\b")


# Capitals of chat and of measures, never half of a code ("OK", "ETA", "USD").
_NO_CODE_HALF = frozenset((
    "OK", "PS", "PM", "AM", "BTW", "FYI", "IMO", "TBH", "ETA", "ASAP", "THE", "AND", "FOR", "NOT",
    "USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD", "RAM", "CPU", "GPU", "SSD", "HDD"))


def _check_paired_codes(match: re.Match[str]) -> tuple[str, str] | None:
    """Digits in one half only ("A380 A350" is a list of two) and letters in both; no half a
    word of chat or a currency, and no sentence written all in capitals (where every word
    is)."""
    text = match.group(0)
    halves = text.split()
    if match.string.isupper() or sum(any(c.isdigit() for c in h) for h in halves) != 1 or \
            any(h in _NO_CODE_HALF or h.isdigit() for h in halves):
        return None
    if _NOUN_PHRASE_BEFORE.search(_before(match)) or \
            _ROUTE_AFTER.match(match.string[match.end():]) or \
            _GROUP_AFTER.match(match.string[match.end():]):
        return None  # ("I need an A4 PDF", "my PS5 DIED", "on EZY123 LGW to Nice": a noun
        # phrase's words, a route, or part of a longer code)
    return text, "name"


# A determiner or a possessive before the pair: the words of a noun phrase ("an A4 PDF", "my
# PS5 DIED"), where a pair after "is", a colon or a key is a value ("the reg is K4 TSY").
_NOUN_PHRASE_BEFORE = re.compile(r"\b(?i:a|an|the|my|our|your|his|her|their|its|this|that|"
                                 r"these|those|some|any|new|old)\s+$")
_GROUP_AFTER = re.compile(r"\s[A-Z0-9]{2,}\b")  # (a longer code: "GB29 NWBK 6016 …")
_ROUTE_AFTER = re.compile(r"\s*(?:to|from|->|→|-|–)\s", re.IGNORECASE)


def _check_numbered(match: re.Match[str]) -> tuple[str, str] | None:
    """The digits after a noun's "no." ("acc no 70013345"); none after a verb or a closed
    word ("there is no 2000.", "said no 1000.")."""
    noun = match.group(0).split()[0].rstrip(".").lower()
    digits = _DIGITS_END.search(match.group(0))
    return None if noun in _NOT_NUMBERED or digits is None else (digits.group(0), "name")


_DIGITS_END = re.compile(r"\d[\d-]*$")
_NOT_NUMBERED = frozenset(("is", "are", "was", "were", "be", "said", "say", "says", "have",
                           "has", "had", "with", "and", "or", "at", "in", "of", "to", "there",
                           "answer", "answered", "voted", "vote"))

_NB = NUMBER_START
# How many times, in a value of how often ("twice a day", "3 times a week"; read whole here,
# its unit class by ``fact_value_classes``).
TIMES = r"(?:once|twice|thrice|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+times)"
# The units a size in dimensions is written in ("30x40 cm", "1920x1080 px", '2x4"').
_SIDE = r"mm|cm|m|km|in|inch|inches|ft|px|\"|″"
# (pattern, kind, check) of each shape; ``reference_patterns`` makes each a rule.
SHAPES: tuple[tuple[str, str, Check | None], ...] = (
    # a range of times of day ("noon-6 p.m.", "9am-5pm", "6:55-7:00 a.m.", "7-9 pm"): one value,
    # the hours of one thing (the half of the day written once or on both sides)
    (rf"(?<![\w:.-])(?:{_HOUR}|{_CLOCK}|{HOUR_NAME})\s?[-–]\s?(?:{_HOUR_HALF}|{_CLOCK}"
     rf"|{HOUR_NAME})(?:\s(?:{ZONE})(?![\w:]))?(?![\w:-]|\.\d)", "time", _check_hours),
    # a bound in time with its hour ("start before 7 a.m.", "after 6pm"): one value, the bound
    # is part of what holds ("before 7" is not "at 7")
    (rf"\b(?i:before|after)\s+(?:{_HOUR_HALF}|{HOUR_NAME})(?:\s(?:{ZONE})(?![\w:]))?"
     r"(?![\w:-]|\.\d)", "time", None),
    # a weekday of each month ("the first Tuesday of the month", "last Friday of every month")
    # ("last Tuesday" alone is a past day: "last" only with its month)
    (rf"\b(?i:{_NTH}\s+{WEEKDAYS})(?:{_OF_MONTH})?\b|\b(?i:last\s+{WEEKDAYS}){_OF_MONTH}\b",
     "date", None),
    # a day of each month by its place ("on the last working day", "the first business day of
    # the month", "the first of each month"; "the 1st" is a day, below): a date; without "of
    # the month" only after "on the" and with "working" or "business" ("my last working day is
    # Friday" is a person's last day, "on the first day we hiked" a story's)
    (rf"(?<=\b[Oo]n the )(?i:(?:{_NTH}|last)\s+(?:working|business)\s+day)\b"
     rf"(?:{_OF_MONTH})?|\b(?i:(?:{_NTH}|last)\s+(?:(?:working|business)\s+)?day){_OF_MONTH}\b"
     rf"|\b(?i:first|second|third|fourth|fifth|last){_OF_MONTH}\b", "date", None),
    # a month named alone after a preposition of time ("in May", "until early March": its
    # "early", "mid-" or "late" is part of it): a date; the capital tells the month "May"
    # from the modal. After "to" or "for" a month may be a person ("talked to April", "a gift
    # for June") unless the clause ends there ("moved to September.", "pegged for May, ...")
    (rf"\b(?:(?:[Ii]n|[Uu]ntil|[Tt]ill|[Bb]y|[Ff]rom|[Ss]ince|[Bb]efore|[Aa]fter)\s+"
     rf"(?P<ref>(?:(?i:early|late)\s+|mid-?)?(?:{MONTH_NAMES}))(?![\w'’-]|\s+\d))", "date", None),
    (rf"(?:(?<=\b[Tt]o )|(?<=\b[Ff]or )){_TO_A_PERSON}(?:{MONTH_NAMES})(?=\s?[.,;!?)]|$)",
     "date", None),
    # a weekday with its day of the month ("Tuesday 14th", "Fri the 3rd") or said from now
    # ("next Tuesday", "this Friday"): one date ("last Tuesday" is past, no value to keep)
    (rf"\b(?i:{WEEKDAYS}|{_WEEKDAY_SHORT})\.?,?\s+(?:the\s+)?"
     r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b", "date", None),
    (rf"\b(?:next|this|coming)\s+(?i:{WEEKDAYS})\b", "date", None),
    # a day of the month alone after a preposition of time ("on the 14th", "moved me to the
    # 21st", "due on the 1st of each month"): a date, as "June 21st" is
    (r"(?:(?<=\b[Oo]n )|(?<=\b[Bb]y ))the (?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
     r"(?! (?:of(?! (?:each|every|the) month)|floor|time|place|"
     r"century|row|grade|birthday|anniversary|attempt|try)\b)", "date", None),
    (r"(?:(?<=\bto )|(?<=\buntil )|(?<=\btill )|(?<=\bfrom )|(?<=\bafter )|"
     r"(?<=\bbefore ))the (?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)"
     r"(?=\s?[.,;!?)]|$|\s(?:to|until|till|through|and) the\b)", "date", None),
    # a phone number with its area code in brackets ("(555) 123-4567", "(020) 7946 0958")
    (r"(?<![\w)])\(\d{2,5}\)\s?\d{3,4}[-\s]\d{3,4}(?![\w-])", "name", None),
    # a host with its port and path ("wiki.acme.internal:8443/home", "localhost:3000/api"): one
    # address, not a host and a port apart
    (r"(?<![\w.@/-])(?:localhost|(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}):\d{2,5}"
     r"/[^\s<>()\"'`\]]*[^\s<>()\"'`\].,;:!?]", "url", None),
    # a release line with its wildcard ("18.x", "3.12.x"): a version as "v18.x" is
    (r"(?<![\w.])\d+(?:\.\d+)*\.[xX](?![\w]|\.\w)", "version", None),
    # digits with a wildcard for the rest ("80xx", "5XX", "91xx"): a range of ports, codes or
    # statuses, one value (a single "x" is a multiple: "10x")
    (r"(?<![\w.-])\d{1,4}(?:xx|XX)(?:x|X)?(?![\w-])", "name", None),
    # a number and its letter suffix after a hyphen ("SKU 4471-B", "batch 2024-B", "12-A"):
    # one identifier, not the letter alone
    (r"(?<![\w./-])\d{2,6}-[A-Z]{1,3}(?![\w-])", "name", None),
    # a decimal without its leading zero (".75", ".4 mm"): a number, with its unit if one follows
    (rf"(?<![\w.,$€£¥₹/\\-])\.\d+(?:[ \u00a0]?(?:{UNIT}){UNIT_END})?(?![\w]|\.\d)", "number",
     None),
    # a fraction or a mixed number and its unit ("2 1/2 teaspoons", "1/2 cup", "1½ cups", "¾
    # mile"): one number, not a ratio "1/2" and a stray "2" (common denominators only: "3/17"
    # is no amount a person writes so)
    (rf"{_NB}(?:\d{{1,3}}[ \u00a0])?[1-9]/(?:2|3|4|8|16)(?![\d/])(?:[ \u00a0]?[A-Za-z]+)?"
     rf"|{_NB}(?:\d{{1,3}}\s?)?[½⅓⅔¼¾⅛](?:[ \u00a0]?[A-Za-z]+)?", "number", _check_fraction),
    # a time of day in words ("half past seven", "quarter to nine", "a quarter past 10"), and
    # the British "half eight" (half past eight; not before a plural it counts: "half six packs")
    (rf"\b(?i:(?:half|quarter)\s+(?:past|to)\s+(?:{_HOUR_WORDS}|1[0-2]|[1-9]))\b(?:\s?{HALF})?"
     rf"|\b(?<!-)(?<!\b[Ii]n )(?<!\b[Bb]y )(?i:half\s(?:{_CLOCK_HOURS}))\b(?![-'’])"
     r"(?!\s(?!(?:is|was|on|at|in|for|and|or|but|now|instead|then|tomorrow|tonight|today)\b)"
     r"[a-z]+s\b|\s(?:more|less|of|the|a|each|apiece|every)\b)", "time", None),
    # an hour said with "o'clock" ("8 o'clock", "eleven o'clock", "7 oclock pm"): one time,
    # not a bare number and a stray word
    (rf"\b(?:(?i:{_HOUR_WORDS})|1[0-2]|0?[1-9])\s?o['’]?clock\b(?:\s?{HALF})?", "time", None),
    # a dilution or a scale ("1:500", "1:2000", "1:50000"): one ratio, not a time (a minute has
    # two digits) nor "1" and a port
    (r"(?<![\w.:/])\d{1,2}:\d{3,6}(?![\w:]|\.\d)", "number", None),
    # a number after "no." / "nr" / "#" and a noun, ending its clause ("acc no 70013345",
    # "policy no. 88231", "ref nr 4471-2"): the noun's identifier, not "no" and a count
    (r"(?<![\w.])[A-Za-z]{2,}\.?\s(?:[Nn]o|[Nn]r)\.?\s?\d{4,12}(?:-\d{1,4})?"
     r"(?=\s*(?:$|[,;.!?)]|\s(?:now|and|but)\b))", "name", _check_numbered),
    # a size in two or three dimensions ("30x40 cm", "1920x1080", "2 x 4 m", "5x5"): one value,
    # the "x" written close on both sides or spaced on both sides
    (rf"{_NB}(?!0[xX])\d+(?:\.\d+)?(?:[x×]\d+(?:\.\d+)?(?!\d)){{1,2}}"
     rf"(?:[ ]?(?:{_SIDE}){UNIT_END})?(?![\w.]\w)"  # (never ends inside a number: "15.4x1"
     rf"|{_NB}\d+(?:\.\d+)?(?: [x×] \d+(?:\.\d+)?(?!\d)){{1,2}}"  # of "15.4x15.4port")
     rf"(?:[ ]?(?:{_SIDE}){UNIT_END})?(?![\w.]\w)", "number", None),
    # a container image and its tag ("node:18-alpine", "python:3.12-slim", "redis:7.2",
    # "bitnami/redis:7.2", "postgres:16"): one name, not a host "node" and a port 18. Its name
    # is a product's or a registry path (not "temp:37.2", "ph:7.2"); a bare tag of one or two
    # digits after a product only, and not a low port ("nginx:80" is an address)
    (rf"(?<![\w./@:-])(?:(?i:{PRODUCTS})|[a-z][a-z0-9._-]*(?:/[a-z0-9._-]+)+)"
     r":\d+(?:(?:\.\d+)+(?:-[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)*|(?:\.\d+)*"
     r"(?:-[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*)+)(?![\w:-]|\.\w)"
     rf"|(?<![\w./@:-])(?i:{PRODUCTS}):(?!(?:21|22|23|25|53|80|88)(?!\d))\d{{1,2}}"
     r"(?![\w:.-]|\.\w)", "name", None),
    # how often, in words ("twice a day", "three times a week", "once daily"): one value
    (rf"\b(?i:{TIMES}\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|night|fortnight|hour)"
     r"|(?:once|twice)\s+(?:daily|weekly|monthly|nightly|yearly|hourly))\b", "number", None),
    # how often in one word, said at its clause's end ("we deploy daily.", "backups run nightly
    # now"): the value of the clause ("a daily standup" is a kind of meeting, no value)
    (r"(?<![\w-])(?i:daily|weekly|biweekly|fortnightly|monthly|quarterly|nightly|hourly|yearly"
     r"|annually|every\s+(?:day|night|week|month|morning|evening|weekday|other\s+(?:day|week)))"
     r"(?=\s?[.,;!?)]|\s*$|\s+now\b)", "number", None),
    # a strength as a multiple of a stock solution or a mix, with its name in capitals ("0.5x
    # PBS", "10x TBE", "1X SSC"): one value, the reagent at that strength (not "0.5x" alone);
    # a capital code with a number after it is a product ("2x RTX 3090": two of one)
    # ("3x AAA batteries", "2x HDMI cables": a count of a plural noun, no strength)
    (rf"{_NB}\d+(?:\.\d+)?[xX×][ ]?[A-Z][A-Z0-9]{{1,5}}(?![\w-])(?![ ]\d)(?![ ][a-z]+s\b)",
     "number", None),
    # the last digits of a number ("my mobile ends in 9902", "the card ending in 4471"): the
    # digits the user gives, one identifier (not a count); three digits or more and no year
    # ("the meeting ends in 10", "the lease ends in 2026" say when)
    (r"(?:(?<=\bends in )|(?<=\bending in )|(?<=\bends with )|(?<=\bending with ))"
     r"(?!(?:19|20)\d\d(?!\d))\d{3,6}(?![\w:/-]|[.,]\d)", "name", None),
    # sets and repetitions ("3 sets of 8", "4 sets of 10 reps", "5 sets of 5 at 80kg"): one
    # value, the sets and their count, not a "3" and a stray "8"
    # ("3 sets of 8 squats": the exercise named after it keeps its own reading and key)
    (rf"{_NB}\d{{1,2}}\s(?i:sets?)\sof\s\d{{1,3}}(?:\s(?i:reps?|repetitions))?(?![\w.]|\.\d)"
     r"(?![ ](?!(?:at|with|on|and|for|in|of|now|instead|but|so)\b)[a-z])", "number", None),
    # a command-line option with its figure attached ("-Xmx4g", "-Xss1m", "-j8", "-O2"): one
    # value, the option set to that figure (not a "4g" alone); a word's hyphen is none
    (r"(?<![\w-])-[A-Za-z]{1,4}\d+[kKmMgG]?(?![\w.-]|\.\w)", "number", None),
    # how many a dish or a batch serves ("the recipe serves 4", "feeds 6-8 people"): one
    # value, the yield (not a bare "4" that nothing reads); a count of another noun after it
    # is that noun's ("the bus serves 14 stations")
    (r"\b(?i:serves|feeds)\s\d{1,3}(?:\s?[-–]\s?\d{1,3})?(?:\s(?:people|persons|adults|guests))?"
     r"(?=\s?[.,;!?)]|\s*$|\s+(?:now|and|but|so|if|when|instead|at most|max)\b)", "number",
     None),
    # a pace, minutes and seconds said as one ("24:30 pace", "a 4:10 pace") or minutes a
    # distance ("9 minute miles"): one value, not a clock time (a "24:30" is none) nor a count
    # of miles ("5:45/km" keeps its reading: a time of a unit's rate)
    (r"(?<![\w:.])\d{1,2}:[0-5]\d\space\b|\b\d{1,2}[ -]minute\s(?:miles?|kms?|kilometres?"
     r"|kilometers?)\b", "number", None),
    # small digit groups joined by hyphens ("9-5", "10-46", "4-4-7-1"): one value as written
    # (a range, a score, a gauge, a keypad code), never its first group alone; a unit after a
    # range keeps the number rule's longer reading ("3+4" with a plus is arithmetic, none)
    (r"(?<![\w./:+\-–])\d{1,3}(?:(?:-|–)\d{1,3}){1,4}(?![\w/:+\-–]|[.,]\d)", "number",
     _check_joined),
    # a long number written in groups of three or four digits with spaces ("985 112 004 553
    # 201", a microchip; "4111 1111 1111 1111", a card; "943 476 5919"): one identifier, not
    # its last groups (ten digits at least: "100 200 300" is a list; no run of years)
    (r"(?<![\w.,+:/-])\d{3,4}(?: \d{3,4}){2,5}(?![\w]|[.,:]\d)", "number", _check_grouped),
    # two codes of capitals and digits side by side, a digit in one of them ("K4 TSY", "LB68
    # XKE": a number plate; "KMC X11": a maker and its model): one name, not its first half
    (r"(?<![\w.-])[A-Z][A-Z0-9]{1,5} [A-Z][A-Z0-9]{1,5}(?![\w-]|[.,]\d)", "name",
     _check_paired_codes),
    # cents and pence after the figure ("25¢", "50c", "99p"): money, one value; a letter after
    # one or two digits only (a "1080p" is a resolution) and not a title's item ("Step 3c")
    (rf"{_NB}(?:\d{{1,3}}\s?¢|\d{{1,2}}[cp](?![\w'’-]|\.\w))", "number", _check_cents),
)


# A model's name with its size and release ("gpt-4.1", "llama-3.1-8b", "claude-3.5-sonnet",
# "mistral-7b-v0.3", Ollama's "qwen2.5:7b", "llama3.1:8b-instruct-q4_K_M"): one name, not
# "gpt-4" and a stray ".1". A dot must be followed by a digit, so "host-1.example.com" is
# none of it; a hyphen or a colon must join its parts, so "mp3" and "v2" are not; a word's
# prefix is no name ("pre-2020", "post-2.0"). ``reference_patterns`` lists it last, so a
# ticket ("JIRA-1234") or a release read by an earlier rule keeps its kind on a tie.
MODEL_NAME = (
    r"(?<![\w.@/:\\-])(?!(?i:pre|post|non|anti|mid|sub|semi|multi|co|re|self|ex|over|under)-)"
    r"(?![A-Z]+-\d+(?![\w.:-]))"  # (a code of capitals and digits, "ML-4420881", is no model)
    r"(?=[A-Za-z][\w.:-]*?[-:])(?=[A-Za-z][\w.:-]*?\d)[A-Za-z][A-Za-z0-9]*"
    r"(?:\.\d+[A-Za-z0-9]*)*(?:(?:-|:)[A-Za-z0-9_]+(?:\.\d+[A-Za-z0-9_]*)*)+"
    r"(?![\w@/:\\-]|\.\w)")


def check_model(match: re.Match[str]) -> tuple[str, str] | None:
    """A model's name says which release or size it is: a dotted release ("gpt-4.1"), a size
    ("-8b", "4o") or its tag (":7b", ":latest"), or a word after a figure's part ("-mini",
    "-sonnet", "-coder"). "utf-8", "x86-64", "sha-256" and "covid-19" join a figure and say
    none of it; a day's or an hour's words joined to a figure ("Thursday-7:30pm",
    "Saturday-10am", "10-noon") are times, not names."""
    text = match.group(0)
    name, _, tag = text.partition(":")
    parts = name.split("-")
    words = {p.lower() for p in parts}
    if re.fullmatch(_DAY_WORDS, parts[0]) or words & {"am", "pm", "noon", "midnight"} or \
            any(re.fullmatch(r"\d+(?:am|pm|h)", p, re.I) for p in parts):
        return None
    if tag:
        return (text, "name") if re.fullmatch(r"(?:\d+(?:\.\d+)?[bBmM]|latest)(?:[-_.]\w+)*",
                                              tag) else None
    if re.search(r"\.\d", name) or any(re.fullmatch(r"\d+(?:\.\d+)?[bBmMkKoO]", p)
                                        for p in parts[1:]):
        return text, "name"
    if not any(c.islower() for c in name):
        return None  # a code in capitals ("MARK-5-2-END", "ISO-9001-A") is no model's name
    figured = any(c.isdigit() for c in "".join(parts[:-1]))
    return (text, "name") if figured and parts[-1].isalpha() and len(parts) > 1 else None


_DAY_WORDS = rf"(?i:{WEEKDAYS}|{MONTH_NAMES}|{_WEEKDAY_SHORT})"
