"""A self-repair given bare and then said again in full: "timeout is thirty seconds. no,
sixty. sixty seconds." The repair ("no, sixty") names no unit, so it meets no value of its
key; the next sentence is nothing but the same number with its unit. That sentence is the
repair as meant: it takes the bare value's place as the correction. Read by structure only:
the full value follows the bare one at once, across one sentence end, and begins with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.provenance import Found


def _keyless(item: Found) -> bool:
    parts = item.key.split("|")
    return len(parts) == 3 and not parts[0] and not parts[1]


def _restated(content: str, bare: str, full: str) -> bool:
    """``content`` says the bare value, ends its sentence, and says the full one at once,
    which ends its own sentence ("sixty. sixty seconds.")."""
    return re.search(rf"(?<![\w.]){re.escape(bare)}\s*[.!]+\s+{re.escape(full)}\s*(?:[.!]|$)",
                     content, re.IGNORECASE) is not None


def repairs_restated(found: Sequence[Found], content: str) -> list[Found]:
    """``found`` with a bare keyless correction that the next sentence says again with its
    unit replaced by that fuller value, read as the correction."""
    out: list[Found] = []
    skip = -1
    for index, item in enumerate(found):
        if index == skip:
            continue
        after = found[index + 1] if index + 1 < len(found) else None
        if after is not None and item.correction and not item.old and not after.old and \
                not after.correction and item.kind != "question" and \
                after.kind != "question" and after.sentence == item.sentence + 1 and \
                _keyless(item) and _keyless(after) and \
                after.value.lower().startswith(item.value.lower() + " ") and \
                _restated(content, item.value, after.value):
            out.append(replace(after, correction=True))
            skip = index + 1
            continue
        out.append(item)
    return out
