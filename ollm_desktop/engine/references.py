"""Critical identifiers that a summary must keep: checked by code, not left to the model."""

from __future__ import annotations

import re
from collections import Counter

from ollm_desktop.engine.tokens import count_tokens

_URL = re.compile(r"\bhttps?://[^\s<>()\"'`\]]+[^\s<>()\"'`\].,;:!?]")
_BACKTICK = re.compile(r"`([^`\n]{2,80})`")
_PATH = re.compile(
    r"(?<![\w/.:-])(?:~?/|\./|\.\./)?(?:[\w.-]+/)+[\w.-]*[\w-]"  # a/b/c.ext, not its full stop
    r"|(?<![\w/.-])[\w-]+\.(?:py|ts|tsx|js|jsx|rs|go|java|kt|c|h|cpp|hpp|cs|rb|php|md|json|ya?ml"
    r"|toml|ini|cfg|txt|csv|sql|sh|html|css|scss|xml|lock|env|dockerfile|proto)\b",
    re.IGNORECASE,
)
_NUMBER_UNIT = re.compile(
    r"\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds|minutes|min|h|hours|days|KB|MB|GB|TB|KiB|MiB|GiB|"
    r"kB|Mb|Gb|px|pt|em|rem|%|°C|°F|tokens|req/s|rps|fps|Hz|kHz|MHz|GHz|V|W|kW|A|mAh|"
    r"km|m|cm|mm|kg|g|mg|lb|USD|EUR|\$)(?![\w])",
)
_DEFINED_NAME = re.compile(
    r"\b(?:call(?:ed)? it|name(?:d)? it|named|name is|called)\s+[\"'`]?([A-Z][\w-]{1,40})",
)

MAX_REFERENCES = 40


def extract_references(texts: list[str]) -> list[str]:
    """Identifiers worth keeping verbatim, most frequent first, bounded in number."""
    found: Counter[str] = Counter()
    order: dict[str, int] = {}
    for text in texts:
        for pattern, group in ((_URL, 0), (_BACKTICK, 1), (_PATH, 0), (_NUMBER_UNIT, 0),
                               (_DEFINED_NAME, 1)):
            for match in pattern.finditer(text):
                ref = match.group(group).strip()
                if len(ref) < 2 or ref.isdigit():
                    continue
                found[ref] += 1
                order.setdefault(ref, len(order))
    ranked = sorted(found, key=lambda r: (-found[r], order[r]))
    # Drop references contained in a longer kept one (a path inside a URL, etc.).
    kept: list[str] = []
    for ref in ranked:
        if not any(ref in other for other in kept):
            kept.append(ref)
        if len(kept) >= MAX_REFERENCES:
            break
    return kept


def looks_like_path(ref: str) -> bool:
    """A file path or file name (not a URL, not a number with a unit)."""
    if " " in ref or ref.startswith(("http://", "https://")):
        return False
    return bool(_PATH.fullmatch(ref))


def missing_references(summary: str, references: list[str]) -> list[str]:
    return [ref for ref in references if ref not in summary]


def recall(summary: str, references: list[str]) -> float:
    if not references:
        return 1.0
    return 1.0 - len(missing_references(summary, references)) / len(references)


def key_references_line(missing: list[str], token_cap: int) -> tuple[str, list[str]]:
    """A compact line listing what the model dropped, within ``token_cap`` tokens."""
    if not missing or token_cap <= 8:
        return "", []
    added: list[str] = []
    line = "Key references: "
    for ref in missing:
        candidate = line + ("; " if added else "") + ref
        if count_tokens(candidate) > token_cap:
            break
        line, added = candidate, [*added, ref]
    return (line if added else ""), added
