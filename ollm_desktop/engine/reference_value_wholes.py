"""Values read whole that the other shapes cut short (stop 50): a rate, an amount with its
period or its other unit ("45 a month", "3 days a week", "one tablet a day", "85/hour", "2
µg/mL", "1 unit per 12 g"); a number in words ("one hundred and twenty", "one and a half
months"); an amount joined to its unit by a hyphen ("a 2-year warranty", "30-liter tank"); a
weekday with its time ("Friday 10:30", "Sunday 22:00-00:00 UTC"), a time with its zone in
words ("17:00 Pacific"); a secret of letters, digits and signs ("Marigold#77"); a cron
schedule ("30 3 * * *"); an oil's viscosity grade ("5W-30"); digits said in words ("nine zero
nine zero"); a share of a gas or reagent ("5% CO2").

Split from ``reference_value_shapes`` (full): ``reference_patterns`` makes a rule of each
(pattern, kind, check) of :data:`RATE_SHAPES`, after that module's shapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ollm_desktop.engine.reference_value_shapes import ZONE
from ollm_desktop.engine.reference_words import (
    CURRENCY_CODES,
    EXT,
    MONTH_NAMES,
    NUMBER_WORDS,
    STOP,
    UNIT,
    WEEKDAYS,
)

Check = Callable[[re.Match[str]], tuple[str, str] | None]

_NB = r"(?<![\w.,$€£¥₹/:-])(?<![^\W\d_]-)"
_FIGURE = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d,.]\d)"
_ONES = "one|two|three|four|five|six|seven|eight|nine"
_TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
# A cardinal in words up to the thousands ("one hundred and twenty", "forty-five", "a
# hundred"): one number (the words are a closed class; ``fact_keys.unit_class`` drops them)
_BELOW_100 = rf"(?:(?:{_TENS})(?:[- ](?:{_ONES}))?|{_TEENS}|{_ONES})"
SPELLED = (rf"(?:(?:(?:{_ONES}|a)\s(?:hundred|thousand)(?:\s(?:and\s)?{_BELOW_100})?)"
           rf"|{_BELOW_100})")
# The periods a rate is counted in ("a month", "per week", "each night").
_PERIOD = ("day|week|month|year|night|hour|minute|second|fortnight|weekday|weekend|quarter"
           "|semester|term|season|session|meal|visit|person|head|kid|child|guest|user|seat")
# What after "a month" says when, not how often: "45 a month ago", "2 a year later".
# What after it makes it a step of a schedule: "1 tablet a day for the first week, then 2".
_NOT_RATE = (r"(?!\s+(?:ago|later|earlier|apart|before|after|back|from|since|old|older)\b)"
             r"(?!\s+for\s+(?:the\s+)?(?:first|next|initial|coming)\b)(?![^.;!?]*\bthen\s+\d)")
_STOPPED = frozenset(STOP.replace("\\", "").split("|")) | {"hours", "minutes", "seconds"}
_NOUN = r"[a-zµμ][a-zµμ'-]*"
_HALF = r"(?:\s(?:and\s)?a\shalf)"
_DIGIT_WORDS = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
_SHORT_DAYS = "mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_CLOCK = r"(?:[01]?\d|2[0-3])(?::[0-5]\d|(?::[0-5]\d)?\s?(?:am|pm|AM|PM|[ap]\.m\.)(?![\w]))"
_TIME = rf"{_CLOCK}(?:\s?[-–]\s?{_CLOCK})?"
_ZONE_WORDS = rf"(?:{ZONE}|(?:Pacific|Eastern|Central|Mountain)(?:\s[Tt]ime)?\b)"
_CRON_FIELD = r"(?:\*|\d{1,2}(?:[-,]\d{1,2})*)(?:/\d{1,2})?"
# The currency before an amount ("$", "ISK "): the rate's amount is money.
_MONEY = rf"(?:[$€£¥₹]\s?|(?-i:{'|'.join(CURRENCY_CODES)})\s)"


def _check_dotted(match: re.Match[str]) -> tuple[str, str] | None:
    """A code name's parts: a letter and a digit in one part, no part a plain number after
    the first ("db.t3.large", not "python3.11", a product's release, nor "v2.1")."""
    parts = match.group(0).split(".")
    coded = any(any(c.isdigit() for c in p) and any(c.isalpha() for c in p) for p in parts)
    return (match.group(0), "name") if coded and not any(p.isdigit() for p in parts[1:]) \
        and not re.fullmatch(EXT, parts[-1], re.IGNORECASE) else None


def _check_counted(match: re.Match[str]) -> tuple[str, str] | None:
    """A count's noun is a noun: no closed-class word ("2 of them a day", "5 for a week")."""
    groups = match.re.groupindex
    nouns = " ".join(match.group(g) or "" for g in ("noun", "noun2") if g in groups).split()
    if any(w.lower() in _STOPPED and w.lower() not in ("day", "days", "night", "nights")
           for w in nouns if w != "of"):
        return None
    return match.group(0), "number"


# What before a measure joined to its unit makes it no value of now: a past clause ("we had a
# 3-week sprint once", "it was a 5-mile loop"), or a sentence it opens as its subject, alone
# or another's ("A 2-pound loaf needs more", "My friend's 3-bedroom place costs 2000").
_PAST_CLAUSE = re.compile(r"\b(?:was|were|had|did|used to)\b", re.I)
_CLAUSE_END = re.compile(r"[.!?;,\n]\s|\b(?:and|but|so|now|then)\b", re.I)
_SENTENCE_END = re.compile(r"[.!?;\n]\s")
_OPENING = frozenset({"a", "an", "the", "my", "our", "your", "his", "her", "their", "this",
                      "that", "its"})


def _check_joined(match: re.Match[str]) -> tuple[str, str] | None:
    """A measure joined to its unit is a value where it is an object or a complement ("I
    have a 2-year warranty"), never a subject nor in a past clause (see ``_PAST_CLAUSE``)."""
    before = match.string[:match.start()]
    clause = before[max((m.end() for m in _CLAUSE_END.finditer(before)), default=0):]
    opening = before[max((m.end() for m in _SENTENCE_END.finditer(before)), default=0):]
    if _PAST_CLAUSE.search(clause) or all(w in _OPENING or w.endswith("'s") for w in
                                          re.findall(r"[\w']+", opening.lower())):
        return None
    return match.group(0), "number"


# The days of a month as ordinals in words ("fourteenth", "twenty-first", "thirty first").
_NTH_WORDS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh"
              "|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth"
              "|nineteenth|twentieth|thirtieth")
_DAY_WORDS = (rf"(?:(?:twenty|thirty)[- ](?:first|second|third|fourth|fifth|sixth|seventh"
              rf"|eighth|ninth)|{_NTH_WORDS})")

# A clock time in words, its hour and its minutes ("seven fifty one", "ten fifteen", "six oh
# five"): not before a plural it counts ("two twenty pound notes").
_MINUTE_WORDS = (r"(?:(?:twenty|thirty|forty|fifty)(?:[- ](?:one|two|three|four|five|six"
                 r"|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
                 r"|seventeen|eighteen|nineteen|oh[- ](?:one|two|three|four|five|six|seven"
                 r"|eight|nine))")
_HOUR_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"

_WHEN_WORDS = frozenset({"tomorrow", "tonight", "today", "sharp", "train", "bus", "flight",
                         "ferry", "service", "departure", "arrival", "start", "slot"})


# Nouns a number counts among the stop words ("eight ten times", "two twenty minutes").
_COUNTS = frozenset({"times", "time", "hours", "minutes", "seconds", "days", "nights", "ones"})


def _check_clock_words(match: re.Match[str]) -> tuple[str, str] | None:
    """A clock time in words ends its phrase: a plain word after it is a noun it counts ("two
    twenty pound notes", "seven eleven store"), unless that noun is a departure's or a day's
    ("the seven fifty train", "ten fifteen tomorrow")."""
    after = re.match(r"\s+([a-z]+)\b", match.string[match.end():])
    if after is not None and (after.group(1) not in _STOPPED or after.group(1) in _COUNTS) and \
            after.group(1) not in _WHEN_WORDS:
        return None
    return match.group(0), "time"


RATE_SHAPES: tuple[tuple[str, str, Check | None], ...] = (
    (rf"\b(?<![-'’])(?i:(?:{_HOUR_WORDS})\s{_MINUTE_WORDS})\b(?![-'’])"
     r"(?:\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w))?", "time", _check_clock_words),
    # a number in words and a half, alone ("nine and a half", "size 6 and a half": a shoe's,
    # an age): one number, not its first word alone
    (rf"(?<![\w.,-])(?:(?i:{SPELLED})|\d{{1,3}})\sand\sa\shalf\b(?!-)", "number", None),
    # a day of a month said in words ("the fourteenth of March", "March the twelfth", "twenty
    # first of june"): one date, as "14th of March" is (not a "fourteenth" keyed by "March")
    (rf"\b(?i:{_DAY_WORDS}\sof\s(?:{MONTH_NAMES}))\b"
     rf"|\b(?:{MONTH_NAMES})\s(?:the\s)?(?i:{_DAY_WORDS})\b(?!\s+be\b)", "date", None),
    # ("May the fourth be with you": a wish, "may" its verb)
    # an amount and the period or unit it is counted per ("45 a month", "640 a year", "3 days
    # a week", "2 tablets a day", "one tablet a day", "3 cups of coffee a day", "ISK 29,000 a
    # night"): one value, not "45" and a stray "month". A figure alone takes "a" or "an" only
    # ("90 per minute" alone is ``fact_counted.rates``'s, read where a value goes); a number
    # in words counts a noun, "a" or "each" ("five trains per hour (up from four)" is
    # ``fact_spelled_moves``'s)
    (rf"(?i:{_NB}(?:{_MONEY}?{_FIGURE}(?:(?:\s?(?-i:{UNIT})(?![\w])|(?P<noun>\s{_NOUN}"
     rf"(?:\s{_NOUN})?(?:\sof\s{_NOUN})?))\s(?:a|an|per|each|every)|\s(?:a|an))"
     rf"|(?:{SPELLED})(?P<noun2>\s{_NOUN}(?:\sof\s{_NOUN})?)\s(?:a|an|each|every))"
     rf"\s(?:{_PERIOD})s?\b{_NOT_RATE}(?![-/]\w))", "number", _check_counted),
    # an amount and its second unit after a slash or "per" ("85/hour", "2 µg/mL", "5 mg/kg",
    # "1 unit per 12 g", "10 mL per kg"): one value ("100/200mb" is two sizes)
    (rf"{_NB}{_MONEY}?{_FIGURE}(?:(?:\s?(?:{UNIT})|\s[a-z]+)?\s?/\s?|(?:\s?(?:{UNIT})|\s[a-z]+)"
     rf"\sper\s(?:{_FIGURE}\s?)?)(?:{UNIT}|(?i:{_PERIOD}|hr|wk|mo|yr))(?![\w/])", "number",
     _check_counted),
    # a number in words and a half, with its unit ("one and a half months", "two and a half
    # years", "a year and a half"): one duration
    (rf"\b(?i:(?:{SPELLED}){_HALF}\s(?:day|week|month|year|hour|minute|cup|mile|kilo|liter"
     r"|litre|pound)s?|an?\s(?:day|week|month|year|hour)\sand\sa\shalf)\b", "number", None),
    # a number in words of hundreds or thousands ("one hundred and twenty", "a hundred"), with
    # the plural noun it counts ("one hundred and twenty guests"): one number, not its last
    # word alone ("twenty five" is ``fact_value_spans.compound_numbers``'s, one word)
    (rf"\b(?i:(?:{_ONES}|a)\s(?:hundred|thousand)(?:\s(?:and\s)?{_BELOW_100})?)\b(?!-)"
     r"(?P<noun>\s[a-z]{3,}s\b)?", "number", _check_counted),
    # a number in words set against a number ("ninety, not one hundred and twenty", "not 12
    # but ten", "eight instead of 6"): a number, as the figure it stands for would be
    (rf"\b(?i:{SPELLED})(?=,?\s(?:not|instead\sof|rather\sthan)\s(?:\d|(?i:{SPELLED})\b))"
     rf"|(?<=\bnot\s)(?:\d[\d,.]*|(?i:{SPELLED}))\s(?i:but)\s(?P<ref>(?i:{SPELLED}))\b(?![-\w])",
     "number", None),
    # an amount joined to its unit by a hyphen, with the noun it measures ("a 2-year
    # warranty", "a 30-liter tank", "2-inch binder", "the 5-year plan"): one value
    (rf"{_NB}(?:\d+(?:\.\d+)?|(?i:{_ONES}|{_TEENS}|{_TENS}))-(?i:year|month|week|day|hour"
     r"|minute|inch|foot|feet|liter|litre|gallon|meter|metre|mile|pound|ounce|gram|kilo"
     r"|kilogram|kilometer|kilometre|centimeter|centimetre|millimeter|millimetre|person"
     r"|seat|door|speed|ton|cup|quart|page|bedroom|room|story|storey|night|piece|point)"
     rf"(?:\s(?!(?:{'|'.join(sorted(NUMBER_WORDS))}|and|or|but|so|to|for|of|in|on|at|by|with"
     r"|now|instead|not|is|was|are|one)\b)[a-z][a-z-]+)?\b(?!-)", "number", _check_joined),
    # a weekday and its time said as one ("Friday 10:30", "Thu 9am", "Sunday 22:00-00:00
    # UTC") or a time with its zone in words ("23:59 Pacific", "9am Eastern time"): one point
    # of the week ("Friday at 10:30" too)
    (rf"\b(?:(?i:{WEEKDAYS}|{_SHORT_DAYS})s?\.?\s(?:at\s)?(?={_CLOCK}){_TIME}(?:\s{_ZONE_WORDS})?"
     rf"|(?<![\w:.]){_TIME}\s{_ZONE_WORDS})(?![\w:]|-\d)", "time", None),
    # a secret of letters and digits with a sign inside ("Marigold#77", "Pa$$w0rd", "blue&Fox9"):
    # one token, as it is typed (not the word before its sign); three letters at least ("a*b+2"
    # is arithmetic, "C#" and "AT&T" have no digit)
    (r"(?<![\w@#$%&*!?/.:-])(?=[\w#$%&!]*\d)(?=(?:[\w#$%&!]*?[A-Za-z]){3})[A-Za-z0-9]+"
     r"(?:[#$%&!]+[A-Za-z0-9]+)+(?![\w@#$%&*!?^~+=/]|[.:-]\w)", "name", None),
    # a cron schedule: five fields of figures, ranges, steps and stars, a star among them ("30 3
    # * * *", "*/15 * * * *", "0 9 * * 1-5"): one value, not "30" and "3"
    (rf"(?<![\w*/,-])(?=(?:\S+\s){{0,4}}\*)(?:{_CRON_FIELD}\s){{4}}{_CRON_FIELD}(?![\w*/,-])",
     "code", None),
    # a motor oil's viscosity grade ("5W-30", "0W-20", "10w-40"): one name, not a "5W" and
    # a range
    (r"(?<![\w.-])\d{1,2}[Ww]-\d{2}(?![\w-]|\.\d)", "name", None),
    # digits said one by one in words ("nine zero nine zero", "four four three"): one number,
    # three digits or more ("one two" is prose)
    (rf"\b(?i:{_DIGIT_WORDS})(?:[ -](?i:{_DIGIT_WORDS})){{2,}}\b(?!-)", "number", None),
    # a share of a gas or a reagent named in capitals ("5% CO2", "10% FBS", "2% BSA"): one
    # value, not a bare "5%" ("5% CO2" replaces "8% CO2", not "20% O2"); no count after it
    (rf"{_NB}\d+(?:\.\d+)?\s?%\s(?!(?:OFF|ON|OR|AND|FOR|THE|OF|TO|IN|AT)\b)[A-Z][A-Z0-9]{{1,4}}"
     r"(?![\w-])(?!\s\d)",
     "number", None),
    # a dotted code name of lower-case parts with a digit ("db.t3.large", "m5.xlarge",
    # "cache.r6g.large": an instance class): one name, not a file ("app2.py") nor a host
    (r"(?<![\w.@/:-])(?=[a-z0-9.]*\d)[a-z][a-z0-9]*(?:\.[a-z0-9]+)+(?![\w/@:-]|\.\w)", "name",
     _check_dotted),
    # minutes and seconds no clock reads ("48:30", "47:52.4", "25:00": a race, a timer): one
    # time of the class of "18:45", not a "48" and a "30" (minutes from 24 to 199 only)
    (r"(?<![\w:.,/-])(?:2[4-9]|[3-9]\d|1\d\d):[0-5]\d(?:\.\d{1,2})?(?![\w:]|[.,]\d)", "time",
     None),
)
