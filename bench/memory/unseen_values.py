"""The corpus's expected values that the value finder never reads, counted by shape.

For each case of the correction corpus (``bench/memory/corpus``), each expected current value
(``expect.keys[].current``; ``--old``: the replaced ones) written in one of the case's messages
is looked for among the values ``facts_extract.extract`` returns for those messages. A value
none of them holds is *unseen*: "part" when some returned value holds a piece of it (a digit
group, a word), "none" otherwise. The shape classes are the value's own form (money, times,
dates, ranges, versions, identifiers, numbers in words, names, ...), read from the value alone.

Dev halves may be listed case by case (``--list``: the id, the value and its message); the
held-out halves print their totals per shape only, so no held-out sentence is shown.

    PYTHONPATH=. python -m bench.memory.unseen_values [--list] [--old]
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bench.memory.corrections import HALVES, load
from bench.memory.ledger_text import mentioned
from ollm_desktop.engine.facts_extract import extract

# Every half the scorer plays (``corrections.HALVES``), the held-out ones by their name: a
# corpus added later is counted without this list having to know it.
DEV = tuple(h for h in HALVES if not h.startswith("heldout"))
HELD_OUT = tuple(h for h in HALVES if h.startswith("heldout"))

_NUMBER_WORDS = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty"
                 r"|thirty|forty|fifty|sixty|hundred|half|dozen)")
# The first class whose pattern the value matches is its shape.
SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("url", re.compile(r"://|www\.|\.(?:com|org|net|io|dev)\b|@")),
    ("money", re.compile(r"[$€£¥₹¢]|\d\s?c\b|\b(?:USD|EUR|GBP|cents?|dollars?|euros?|pounds?"
                         r"|bucks|quid|k)\b", re.I)),
    ("time", re.compile(r"\b(?:noon|midnight|midday)\b|\d\s?(?:a\.?m\.?|p\.?m\.?)(?!\w)"
                        r"|\b\d{1,2}:\d{2}\b", re.I)),
    ("date", re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
                        r"|\d{4}-\d{2}-\d{2}|\b\d{1,2}(?:st|nd|rd|th)\b"
                        r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d{1,2}/\d{1,2}", re.I)),
    ("range", re.compile(r"\d\s?[-–—]\s?\$?\d|\d\s+(?:to|and)\s+\$?\d")),
    ("version", re.compile(r"\bv\d|\d+\.\d+\.\d+|\b\d+\.x\b|\b[A-Za-z]+\s?\d+\.\d+\b")),
    ("identifier", re.compile(r"\b(?=\w*[A-Za-z])(?=\w*\d)[\w-]+\b|xx|\*|#\d")),
    ("percent", re.compile(r"%|percent")),
    ("decimal", re.compile(r"(?<!\d)\.\d|\d\.\d")),
    ("duration", re.compile(r"\d\s?(?:s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?"
                            r"|weeks?|months?|years?)\b", re.I)),
    ("count+noun", re.compile(r"^\s*[\d,]+\s+[A-Za-z]")),
    ("number-words", re.compile(rf"\b{_NUMBER_WORDS}\b", re.I)),
    ("number", re.compile(r"^\s*[\d,]+\s*$")),
    ("with-digit", re.compile(r"\d")),
    ("name", re.compile(r"^[A-Z]")),
    ("words", re.compile(r".")),
)


def shape(value: str) -> str:
    return next((name for name, pattern in SHAPES if pattern.search(value)), "?")


def unseen(half: str, old: bool = False,
           ) -> Iterator[tuple[dict[str, Any], str, list[dict[str, str]], str]]:
    """(case, value, the messages that write it, "part" or "none") of each unseen value."""
    for case in load(half):
        messages = [*case["history"], case["message"]]
        for key in case["expect"]["keys"]:
            for value in (key["replaced"] if old else [key["current"]]):
                holders = [m for m in messages if value and mentioned(m["text"], value)]
                if not holders:
                    continue  # not written as such in any message
                found = [f.value for m in holders for f in extract(m["role"], m["text"])]
                if any(mentioned(v, value) for v in found):
                    continue
                pieces = re.findall(r"\d+", value) or [w for w in value.split() if len(w) > 2]
                part = any(p.lower() in v.lower() for p in pieces for v in found)
                yield case, value, holders, "part" if part else "none"


def main(argv: list[str]) -> int:
    listing, old = "--list" in argv, "--old" in argv
    for group, halves in (("dev", DEV), ("held-out", HELD_OUT)):
        total: Counter[str] = Counter()
        for half in halves:
            per: Counter[str] = Counter()
            for case, value, holders, part in unseen(half, old):
                per[shape(value)] += 1
                per[f"({part})"] += 1
                if listing and group == "dev":
                    print(f"{half}\t{case['id']}\t{case['polarity']}\t{shape(value)}\t{part}\t"
                          f"{value!r}\t{holders[-1]['text']!r}")
            total += per
            print(f"# {half}: " + " ".join(f"{k}={v}" for k, v in sorted(per.items())))
        print(f"## {group}: " + " ".join(f"{k}={v}" for k, v in sorted(total.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
