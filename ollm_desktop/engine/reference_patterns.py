"""What counts as a reference: the checks and the rule table ``references`` runs (the word tables
they read are ``reference_words``).

Split from ``references`` so that the matching and ranking code stays short; this module only
describes patterns. Order in :data:`RULES` is the tie-break between spans of equal length.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from ollm_desktop.engine.reference_value_shapes import DAY as _DAY
from ollm_desktop.engine.reference_value_shapes import HALF as _HALF
from ollm_desktop.engine.reference_value_shapes import HOUR_NAME as _HOUR_NAME
from ollm_desktop.engine.reference_value_shapes import MODEL_NAME, SHAPES, check_model
from ollm_desktop.engine.reference_value_shapes import NUMBER_START as _NB
from ollm_desktop.engine.reference_value_shapes import TO_DAY as _TO_DAY
from ollm_desktop.engine.reference_value_shapes import UNIT_END as _UNIT_END
from ollm_desktop.engine.reference_value_shapes import ZONE as _ZONE
from ollm_desktop.engine.reference_value_wholes import RATE_SHAPES
from ollm_desktop.engine.reference_words import (
    CURRENCY_CODES,
    EXT,
    KNOWN_DIRS,
    MONTH_ABBREVIATIONS,
    MONTH_NAMES,
    NUMBER_WORDS,
    NUMBER_WORDS_RE,
    PER,
    PREP,
    PRODUCTS,
    SECTIONS,
    STOP,
    TICKET_STOP,
    TIME_UNIT,
    UNIT,
    alternation,
)

# (``fact_keys`` reads CURRENCY_CODES and NUMBER_WORDS here, beside the patterns.)
__all__ = ["BACKTICK", "CURRENCY_CODES", "NUMBER_WORDS", "RULES", "Rule", "match_text"]

_NUM = (r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?"
        r"|\d{1,3}(?:[\u00a0\u202f']\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?!\d)")
_MULT = r"(?:[kKMB](?![A-Za-z])|\s?(?:million|billion|thousand|bn|mn)\b)"
_RATE = rf"(?:\s?/\s?(?:{PER})|\s+per\s+(?:{PER}))(?![A-Za-z])"
# An amount of money: a figure, or cents after the symbol without a leading zero ("$.99"); a
# price "a" or "an" unit is a rate as "per" is ("$1.50 an hour", "£9 a month").
_CASH = rf"(?:{_NUM}|\.\d{{1,2}}(?!\d))"
_CASH_RATE = rf"(?:{_RATE}|\s+an?\s+(?:{PER})(?![A-Za-z]))"
_SYMBOL = r"[$€£¥₹]"
_MONTH = rf"(?:{MONTH_NAMES}|{MONTH_ABBREVIATIONS})\.?"
# The day of the week a date opens with ("Friday, September 4th 2020", "Thu 3 Sept"): one date
_ON_DAY = (r"(?:(?:(?i:mon|tues|wednes|thurs|fri|satur|sun)day|(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat"
           r"|Sun)\.?)(?!\w),?\s+)?")
_QUOTE = (r"(?:[\"“”`]|(?<![A-Za-z])')(?P<q>[^\"“”`'\n]{2,60}?)(?:[\"“”`]|'(?![A-Za-z]))")
_TOKEN = r"[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?(?!\w)"
_X = rf"(?:{_QUOTE}|(?!(?i:{STOP})\b)(?P<ref>[A-Z][\w-]*(?:[ ][A-Z][\w-]*){{0,3}}|{_TOKEN}))"
_END = (r"(?=[ \t]*(?:[.,;:!?)\]}\"”\n]|$)|[ \t]+(?i:and|or|but|so|from|for|because|since|then"
        r"|going|instead|when|while|until|as|in|on|to|too|now|here|please|with|which|that)\b)")
# "call" after "on" is a noun ("on call this week"), naming nothing
_NAME_VERB = r"(?<![Oo]n )(?i:call(?:s|ed|ing)?|nam(?:e|es|ed|ing)|dub(?:s|bed)?)"

Check = Callable[[re.Match[str]], tuple[str, str] | None]


@dataclass(frozen=True, slots=True)
class Rule:
    pattern: re.Pattern[str]
    kind: str
    whole: bool = False  # the overlap span is the whole match, not just the reference group
    check: Check | None = None


def match_text(match: re.Match[str]) -> str:
    for group in ("q", "ref"):
        if group in match.re.groupindex and match.group(group) is not None:
            return match.group(group)
    return match.group(0)


def _rule(pattern: str, kind: str, *, whole: bool = False, check: Check | None = None) -> Rule:
    return Rule(re.compile(pattern), kind, whole, check)


def _has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


def _check_path(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0).rstrip(".,:;!?")
    if not _has_letter(text):
        return None
    if "/" in text and not text.startswith(("/", "~/", "./", "../")):
        parts = [p for p in text.split("/") if p]
        special = any(c in "._-@+" or c.isdigit() for c in text)
        if len(parts) == 2 and any(p.isdigit() for p in parts):
            return None
        if not (len(parts) >= 3 or text.endswith("/") or special or parts[0] in KNOWN_DIRS):
            return None
    elif text.startswith("/") and len(text.strip("/").split("/")[0]) < 3:
        return None
    if re.fullmatch(r"[A-Z][a-z]+\.js", text):
        return text, "name"  # Node.js, Vue.js: products, not files
    return text, "path"


def _check_windows(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0).rstrip(".,:;!?)")
    return (text, "path") if len(text) > 3 else None


def _check_function(match: re.Match[str]) -> tuple[str, str] | None:
    name, args = match.group("ref"), match.group("args").strip()
    if len(name) < 2 or args in {"s", "es", "ies", "ren", "e"}:
        return None  # "file(s)" is prose
    return name + "()", "function"


def _check_class(match: re.Match[str]) -> tuple[str, str] | None:
    word = match.group(0)
    if word.isupper() or re.fullmatch(r"[A-Z]+s", word) or not any(c.islower() for c in word):
        return None
    humps = any(
        (word[i].isupper() and (word[i - 1].islower() or word[i - 1].isdigit()))
        or (word[i].isupper() and word[i - 1].isupper() and i + 1 < len(word)
            and word[i + 1].islower())
        for i in range(1, len(word))
    )
    return (word, "class") if humps else None


def _check_min(length: int) -> Check:
    def check(match: re.Match[str]) -> tuple[str, str] | None:
        text = match_text(match)
        return (text, "") if len(text) >= length else None
    return check


# The words before "9h30" that make it a time of day, not a duration ("at 9h30", "à 9h30",
# "from 8h15", "until 10h40"), and what joins a second time to a first ("from 8h15 to 10h40").
_AT_HOUR = re.compile(r"(?i:\b(?:at|à|from|until|till|by|before|after|since|dès|vers)\s+"
                      r"(?:\d{1,2}h[0-5]\d\s*(?:to|[-–]|and|et|à)\s*)?)$")


def _check_hour_h(match: re.Match[str]) -> tuple[str, str] | None:
    """"17h30" is a time; "2h15" after no word of a point in time is a duration ("the flight
    is 2h15"): an hour of 13 or later can only be a time of day, an earlier one only after
    "at", "from", "until"... (or as the second of "from 8h15 to 10h40")."""
    text = match.group(0)
    if int(text.split("h")[0]) >= 13 or _AT_HOUR.search(match.string, 0, match.start()):
        return (text, "time")
    return (text, "number")


def _check_hash(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0)
    ok = any(c.isdigit() for c in text) and any(c.isalpha() for c in text)
    return (text, "hash") if ok else None


def _check_ip(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0)
    octets = text.split("/")[0].split(".")
    return (text, "url") if all(int(o) <= 255 for o in octets) else None


_ENDS_WITH_EXT = re.compile(rf"\.(?i:{EXT})$")


def _check_port(match: re.Match[str]) -> tuple[str, str] | None:
    host = match.groupdict().get("host")
    if host is not None and not _has_letter(host) and host.count(".") != 3:
        return None  # 14:30 is a time
    if host is not None and _ENDS_WITH_EXT.search(host):
        return None  # main.py:42 is a line number
    text = match.group("ref")
    return (text, "port") if 1 <= int(text) <= 65535 else None


def _check_host(match: re.Match[str]) -> tuple[str, str] | None:
    host = match.group("ref")
    if _ENDS_WITH_EXT.search(host) or len(host) < 3 or host[0].isupper():
        return None
    return host, "url"


def _check_number(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group("ref")
    if match.group("bare") is not None and not re.fullmatch(
        r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?"
        r"|\d{1,3}(?:[\u00a0\u202f']\d{3})+(?:[.,]\d+)?", text):
        return None  # a bare number is kept only when its separators make it a figure
    return text, "number"


def _check_digit_groups(match: re.Match[str]) -> tuple[str, str] | None:
    """Digit groups joined by hyphens with six digits or more (a phone or account number):
    "2019-2023" (two years) and "10-20" (a range) are no such number."""
    text = match.group(0)
    digits = sum(c.isdigit() for c in text)
    years = all(len(g) == 4 and g[:2] in ("19", "20") for g in text.split("-"))
    return (text, "name") if digits >= 6 and not years else None


# The units of a duration in several parts, by size (a larger unit comes first).
_SPAN_RANKS = {
    **dict.fromkeys(("week", "weeks", "wk", "wks"), 5),
    **dict.fromkeys(("day", "days", "d"), 4),
    **dict.fromkeys(("hour", "hours", "hr", "hrs", "h"), 3),
    **dict.fromkeys(("minute", "minutes", "min", "mins", "m"), 2),
    **dict.fromkeys(("second", "seconds", "sec", "secs", "s"), 1),
}
_SPAN_UNIT = alternation(list(_SPAN_RANKS)) + r"(?![A-Za-z])"


def _check_span(match: re.Match[str]) -> tuple[str, str] | None:
    """Each unit smaller than the one before ("5 minutes 2 hours" is two durations)."""
    ranks = [_SPAN_RANKS[u] for u in re.findall(r"[A-Za-z]+", match.group(0)) if u != "and"]
    ok = all(a > b for a, b in pairwise(ranks))
    return (match.group(0), "number") if ok else None


def _check_phone(match: re.Match[str]) -> tuple[str, str] | None:
    """A phone number's length (9 to 15 digits, as E.164 allows): "05 10 15 20" is a list."""
    digits = sum(c.isdigit() for c in match.group(0))
    return (match.group(0), "name") if 9 <= digits <= 15 else None


def _check_lettered(match: re.Match[str]) -> tuple[str, str] | None:
    """Digit groups with a letter group among them: an identifier (a docket number)."""
    text = match.group(0)
    return (text, "name") if any(c.isalpha() for c in text) else None


def _check_product(match: re.Match[str]) -> tuple[str, str] | None:
    """A product and its release: a known product, a dotted release, or a product's name in
    capitals inside ("QuickBooks 2024", "PowerPoint 2019": a trade name and its edition; a
    code name opens in lower case, "maxRetries 5", and is a setting's label)."""
    text = match.group("ref")
    product = match.group("product")
    traded = product[:1].isupper() and any(
        a.islower() and b.isupper() for a, b in pairwise(product))
    if product.lower() not in _PRODUCT_SET and "." not in text[len(product):] and not traded:
        return None
    return text, "version"


_PRODUCT_SET = set(PRODUCTS.replace("\\", "").split("|"))

BACKTICK = _rule(r"(?<!`)`(?P<ref>[^`\n]{2,100})`(?!`)", "code", whole=True)
# Order is the tie-break between spans of equal length: earlier rules win.
RULES: tuple[Rule, ...] = (
    _rule(r"\b(?:https?|wss?|s?ftp|file|s3|gs|ssh|git|postgres(?:ql)?|mysql|redis"
          r"|mongodb(?:\+srv)?|amqp)://[^\s<>()\"'`\]]*[^\s<>()\"'`\].,;:!?]", "url"),
    _rule(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b", "url"),
    _rule(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?(?!\.?\w)", "url", check=_check_ip),
    BACKTICK,
    _rule(r"(?<![\w.-])\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
          r"(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])", "date"),
    _rule(r"(?<![\w./])\d{1,2}([./])\d{1,2}\1\d{4}(?![\w./])", "date"),
    _rule(r"(?<![\w./-])\d{4}/\d{1,2}/\d{1,2}(?![\w/])", "date"),  # "2024/01/05"
    # (a range of days in one month is one date: "July 26-29", "3–5 March")
    _rule(rf"\b{_ON_DAY}{_MONTH}\s+(?:the\s+)?{_DAY}(?:{_TO_DAY})?(?:,?\s+\d{{4}})?\b"
          rf"(?!\s?{_HALF}|:\d)", "date"),
    _rule(rf"\b{_ON_DAY}{_DAY}(?:{_TO_DAY})?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?\b", "date"),
    _rule(rf"\b{_MONTH}\s+\d{{4}}\b", "date"),  # a month of a year: "June 2024"
    # (the half of the day with its own dots only: "6:30 PM." ends its sentence, "6:30 p.m.")
    _rule(r"(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?"
          rf"(?:\s?(?:[AaPp][Mm]\b|[AaPp]\.[Mm]\.))?(?:\s?(?:{_ZONE}|Z))?(?![\w:])", "time"),
    _rule(r"\b(?:[01]?\d|2[0-3])h[0-5]\d\b", "time", check=_check_hour_h),  # "17h30"
    # "8 pm", "8 p.m.", "10.30am" (an hour, its minutes after a dot, the half of the day)
    _rule(r"\b(?:1[0-2]|0?[1-9])(?:\.[0-5]\d)?\s?(?:(?:am|pm|AM|PM)\b|[AaPp]\.[Mm]\.)"
          rf"(?:\s(?:{_ZONE})(?![\w:]))?", "time"),
    # the hours that have a name ("noon", "midnight", "12 noon"), with their zone ("noon CT")
    # (lower case: "the Noon Bistro", "Midnight Library" are names; "pre-noon" and the
    # colour "midnight blue" are no hour)
    _rule(rf"(?<![\w-]){_HOUR_NAME}\b(?!\s(?:blue|black)\b)"
          rf"(?:\s(?:{_ZONE})(?![\w:]))?", "time"),
    # the shapes of values read whole (``reference_value_shapes``: ranges of hours, a weekday of
    # each month, a month alone, release lines, wildcard and suffixed identifiers, decimals
    # without a leading zero, fractions, times in words, cents)
    *(_rule(pattern, kind, check=check) for pattern, kind, check in SHAPES),
    *(_rule(pattern, kind, check=check) for pattern, kind, check in RATE_SHAPES),
    _rule(r"(?<![\w\\])(?:[A-Za-z]:\\|\\\\[\w.$-]+\\)(?:[^\\/:*?\"<>|\s]+\\)*"
          r"[^\\/:*?\"<>|\s]*", "path", check=_check_windows),
    # a drive path written with forward slashes ("D:/Photos/2023"): one path, not "D"
    _rule(r"(?<![\w\\/:.-])[A-Za-z]:/(?:[^\\/:*?\"<>|\s]+/)*[^\\/:*?\"<>|\s]*", "path",
          check=_check_windows),
    _rule(rf"(?<![\w.\\-])(?:[\w.-]+\\)+[\w.-]+\.(?i:{EXT})(?![\w-])", "path"),
    _rule(r"(?<![\w/.~\\@+:-])(?:(?:~|\.{1,2})?/(?:[\w.@+-]+/)*[\w.@+-]+/?"
          r"|[\w.@+-]+(?:/[\w.@+-]+)+/?)", "path", check=_check_path),
    _rule(rf"(?<![\w/.\\@+-])\w[\w.+-]*\.(?i:{EXT})(?![\w-])", "path", check=_check_path),
    _rule(r"(?<![\w/.\\-])(?:\.(?:env(?:\.[\w-]+)?|gitignore|gitattributes|gitmodules|dockerignore"
          r"|editorconfig|bashrc|zshrc|profile|npmrc|pypirc|netrc|ssh|github|vscode|venv)"
          r"|Dockerfile|Containerfile|Makefile|Justfile|Procfile|Gemfile|Jenkinsfile"
          r"|Vagrantfile|Rakefile|CODEOWNERS)(?![\w-])", "path"),
    _rule(r"(?<![\w.])[vV]\d+(?:\.(?:\d+|x))*(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\w)",
          "version"),
    _rule(r"(?<![\w.])\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?"
          r"(?:\+[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\w)", "version"),
    _rule(rf"(?<![\w.])(?P<ref>(?P<product>(?i:{PRODUCTS})|(?=[A-Za-z]*?[a-z][A-Z])[A-Za-z]++"
          rf"|(?!(?:{SECTIONS})\b)[A-Z][A-Za-z]+(?=\s\d+\.\d+\.\d))"
          rf"[ ]?v?\d+(?:\.(?:\d+|x))*(?:-[0-9A-Za-z]+)?)"
          rf"(?![\w]|\.\w)(?!\s?(?:{UNIT}){_UNIT_END})(?!\stimes\b)", "version",
          check=_check_product),  # ("LinkedIn 3 times a week" is how often, no release)
    _rule(r"(?<![\w.@/-])@?[\w.-]+(?:/[\w.-]+)?(?:==|>=|<=|~=|@|\^)v?\d+(?:\.(?:\d+|x))+"
          r"(?![\w]|\.\w)", "version"),
    # a product's constraint written with spaces ("Python >= 3.8", "node >= 18"): one value
    _rule(rf"(?<![\w.])(?i:{PRODUCTS})\s(?:==|>=|<=|~=)\s?v?\d+(?:\.(?:\d+|x))*(?![\w]|\.\w)",
          "version"),
    _rule(r"(?<![\w.$])(?P<ref>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\("
          r"(?=(?P<args>(?:[^()\n]|\([^()\n]*\)){0,200})\))", "function", whole=True,
          check=_check_function),
    _rule(rf"\b{_NAME_VERB}\s+(?i:it|this|that|them|these|those)\s+(?:(?i:simply|just)\s+)?{_X}",
          "name"),
    _rule(rf"\b{_NAME_VERB}\s+(?i:the|this|that|our|my|your|their|its|an?)\s+"
          rf"(?:(?!(?i:{PREP})\b)[A-Za-z][\w-]*\s+){{1,3}}?(?![a-z]+ly\b){_X}{_END}", "name"),
    _rule(r"\b(?i:named|called|code[- ]?name[sd]?|nicknamed|dubbed|aka|a\.k\.a\.|alias(?:ed)?"
          rf"|(?:its|the|our|my|his|her|their) name is)\s*:?\s+"
          rf"(?:(?i:is|was|will be)\s+)?(?:(?i:actually|really|now|still)\s+(?=[A-Z]))?{_X}",
          "name"),
    _rule(r"\b(?i:(?:refer(?:s|red|ring)?\s+to|think\s+of)\s+(?:(?:it|this|that|them)\s+"
          r"|(?:the|this|that|our|my)\s+(?:[A-Za-z][\w-]*\s+){1,3}?)|known\s+|goes\s+by\s+)"
          rf"(?i:as)\s+(?:(?i:the|an?|our)\s+)?(?:{_QUOTE}|(?!(?i:{STOP})\b)"
          rf"(?P<ref>[A-Za-z0-9][\w-]*(?:[ ][A-Za-z0-9][\w-]*){{0,3}}?){_END})", "name"),
    _rule(r"(?<![\w-])[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}(?![\w-])", "hash"),
    _rule(r"(?<![\w-])(?:[0-9a-f]{64}|[0-9a-f]{7,40}|[0-9A-F]{7,40})(?![\w-])", "hash",
          check=_check_hash),
    _rule(r"\bCVE-\d{4}-\d{4,7}\b", "ticket"),
    _rule(rf"(?<![\w-])(?!(?:{TICKET_STOP})-)[A-Z][A-Z0-9]{{1,9}}-\d{{1,6}}(?![\w-]|\.\d)",
          "ticket"),
    # one capital, a hyphen and three digits or more ("E-77302", "N-30818", "B-1207"): one
    # identifier, as its longer prefixes are (fewer digits are a grade or a road: "I-95")
    _rule(r"(?<![\w-])[A-Z]-\d{3,6}(?![\w-]|\.\d)", "ticket"),
    _rule(r"(?<![\w&#/])#\d{1,7}(?!\w)", "ticket"),
    _rule(r"(?<!\w)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?!\w)", "env", check=_check_min(5)),
    _rule(r"(?<![\w$])\$\{?[A-Z][A-Z0-9]{1,}\}?(?![\w])", "env"),
    # a number in digit groups ("555-0199", "0471-22-31-80"): one identifier, as the user
    # writes it (not a range of two numbers)
    _rule(r"(?<![\w./+-])\+?\d{2,5}(?:-\d{2,5}){1,4}(?![\w/-]|\.\d)", "name",
          check=_check_digit_groups),
    # an identifier of digit groups joined by ":" and "-" with a letter group ("2:24-cv-01178",
    # a case number): one name, not the time "2:24"; a time range ("09:30-17:00") has no letters
    _rule(r"(?<![\w./:+-])\d{1,4}:\d{1,4}(?:-[A-Za-z0-9]{1,10}){2,4}(?![\w/:-]|\.\d)", "name",
          check=_check_lettered),
    # an identifier of a letter prefix and a long digit group ("MSKU 804211-3", "PO 4500123"):
    # one name, not the letters alone (a model's number has fewer digits: "RTX 4090" stays)
    _rule(rf"(?<![\w-])(?!(?:{TICKET_STOP})\s)[A-Z]{{2,5}}\s\d{{5,}}(?:-\d{{1,3}})?(?![\w.-])",
          "name"),
    # a name joined by "+" ("Kuehne+Nagel"): capitalised words, one name
    _rule(r"(?<![\w+])[A-Z][A-Za-z]+(?:\+[A-Z][A-Za-z]+)+(?![\w+])", "name"),
    # a phone number in space-separated digit groups after a phone-like lead ("0151 224 7799",
    # "+44 20 7946 0958"): one number as the user writes it
    _rule(r"(?<![\w.,+-])(?:\+\d{1,3}|0\d{1,4})(?: \d{2,4}){2,4}(?![\w]|[.,:]\d)", "name",
          check=_check_phone),
    # (or a trunk code and one long group: "07700 900123", "+44 7700 900123", "0151 2247799")
    _rule(r"(?<![\w.,+-])(?:\+\d{1,3} \d{2,4}|0\d{2,4}) \d{6,8}(?![\w]|[.,:]\d)", "name",
          check=_check_phone),
    # a duration in several units, largest first ("1 hour 40 minutes", "2 h 15 min", "3 days
    # and 4 hours"): one number, not two values of one key
    _rule(rf"{_NB}\d+(?:[.,]\d+)?\s?(?:{_SPAN_UNIT})(?:,?\s?(?:and\s)?\d+\s?(?:{_SPAN_UNIT})){{1,2}}"
          rf"(?![\w.,]\w|\w)", "number", check=_check_span),
    # scientific notation (3e-4, 1.5E+6): one number, not "3" and a word "e-4"
    _rule(r"(?<![\w.])[-−]?\d+(?:\.\d+)?[eE][-+−]?\d+(?!\w|\.\d)", "number"),
    # a duration in words ("two weeks", "ninety days"): a number as the user wrote it
    _rule(rf"\b(?i:{NUMBER_WORDS_RE})(?:[ -](?i:{NUMBER_WORDS_RE}))?\s+(?i:{TIME_UNIT})\b",
          "number"),
    # (a price range with its symbol on both sides or the first only: "£12,000-£13,000", "$10-15")
    _rule(rf"(?P<ref>(?:(?<![^\s(\[])[-−+~≈])?(?:(?<!\w){_SYMBOL}\s?{_CASH}{_MULT}?"
          rf"(?:\s?[-–]\s?{_SYMBOL}?{_CASH}{_MULT}?(?![\d,.]\d))?"
          rf"(?:\s?(?:{UNIT}){_UNIT_END})?(?:{_CASH_RATE})?"
          rf"|(?<!\w)(?:{alternation(CURRENCY_CODES)})\s{_NUM}{_MULT}?(?:{_RATE})?"
          rf"|{_NB}{_NUM}(?:(?:\s?[-–]\s?|\s+to\s+){_NUM})?"
          rf"(?:{_MULT}?[ \u00a0\u202f]?(?:{UNIT}){_UNIT_END}|{_MULT}|[x×](?!\w))(?:{_RATE})?"
          rf"|{_NB}(?P<bare>{_NUM})))(?!\w)", "number", check=_check_number),
    _rule(r"(?<![A-Za-z])(?i:ports?)\s*(?:(?i:number|no\.?|num)\s*)?[:=#]?\s*"
          r"(?P<ref>\d{2,5})(?![\d,.]\d|\w)", "port", check=_check_port),
    _rule(r"(?<![\w.-])(?P<host>\[[0-9A-Fa-f:]+\]|(?:\d{1,3}\.){3}\d{1,3}"
          r"|[A-Za-z0-9.-]+):(?P<ref>\d{2,5})(?![\d:]|\.\d|\w)", "port",
          check=_check_port),
    _rule(r"(?<![\w:\].-]):(?P<ref>\d{2,5})(?![\d:]|\.\d|\w)", "port", check=_check_port),
    _rule(r"(?<![\w.@/-])(?P<ref>[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*)"
          r"(?=:\d{2,5}(?![\d:]|\.\d|\w))", "url", check=_check_host),
    _rule(r"(?<![\w.@/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:com|org|net|io|dev|ai"
          r"|co|app|cloud|internal|local|lan|corp|example|test|de|uk|fr|eu|us|info|tech|shop"
          r"|store|site|online|xyz|gov|edu|tv|ca|nl|ch|se|jp|au)"
          r"(?![\w-]|\.\w)", "url"),
    _rule(r"(?<![\w.$])[A-Z][A-Za-z0-9]{3,}(?!\w)", "class", check=_check_class),
    # a constant named through its module or class ("logging.INFO", "settings.DEBUG",
    # "Level.WARNING"): one code name, not the module's name alone
    _rule(r"(?<![\w.$/@-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.[A-Z][A-Z0-9_]+(?!\w|\.\w)", "code"),
    _rule(r"(?<![\w.$])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?!\w)", "code", check=_check_min(5)),
    _rule(r"(?<![\w.$])_{0,2}[a-z][a-z0-9]*(?:_[a-z0-9]+)+_{0,2}(?!\w)", "code",
          check=_check_min(5)),
    _rule(MODEL_NAME, "name", check=check_model),  # last: a ticket's reading wins a tie
)
