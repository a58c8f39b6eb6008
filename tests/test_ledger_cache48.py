"""Where the ledger sits in the system message (cache48): after the turns kept word for word.

Between compactions the kept quotes change only where one holds a value just corrected; the
ledger changes at every correction. With the ledger first, each correction made the server
re-read every quote after it too (about 30 % of what a correction re-read at 2K in the loopback
matrix). A correction is still read at once: the replaced value never reads as current on the
ledger, and a quote that holds it is marked in the same send.
"""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig, facts
from tests.engine_fakes import GoodSummarizer, compact, words

PINNED = "Pinned note: the release checklist lives in docs/release_checklist.md for everyone."


def _engine(*, preserve: bool) -> ContextEngine:
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=2,
                                        preserve_user_messages=preserve), GoodSummarizer())
    engine.add("user", "The staging host is at port 6123. The build takes 41 s.")
    engine.add("assistant", words(150))
    engine.add("user", PINNED, pinned=True)
    engine.add("assistant", words(150, 1))
    for turn in range(8):
        engine.add("user", f"question {turn} " + words(20, turn))
        engine.add("assistant", words(150, turn))
    assert compact(engine, force=True).status == "compacted"
    return engine


def _system(engine: ContextEngine) -> str:
    return engine.api_messages()[0]["content"]


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _ledger(system: str) -> str:
    return system[system.index(facts.HEADER):].split("\n\n", 1)[0]


def test_the_kept_quotes_come_before_the_ledger() -> None:
    system = _system(_engine(preserve=False))
    assert PINNED in system and "6123" in _ledger(system)
    assert system.index(PINNED) < system.index(facts.HEADER)


def test_a_correction_between_compactions_keeps_the_quotes_in_the_prefix() -> None:
    engine = _engine(preserve=False)
    before = _system(engine)
    engine.add("user", "Correction: the staging host is now at port 7001, not 6123.")
    after = _system(engine)
    ledger = _ledger(after)
    # read at once: the new value is current, the old one stands beside it, never as current
    assert "7001 (replaced 6123)" in ledger
    assert not any(line.rstrip().endswith(": 6123") or line.strip() == "- 6123"
                   for line in ledger.splitlines())
    # the server re-reads from the ledger on, never the pinned quote before it
    quote_end = before.index(PINNED) + len(PINNED)
    assert _common(before, after) >= quote_end
    assert _common(before, after) >= before.index(facts.HEADER)


def test_a_quote_that_holds_the_replaced_value_is_marked_in_the_same_send() -> None:
    engine = _engine(preserve=True)
    before = _system(engine)
    assert "port 6123. The build" in before  # the user's request, quoted word for word
    engine.add("user", "Correction: the staging host is now at port 7001, not 6123.")
    after = _system(engine)
    assert "port 6123 (replaced by 7001)" in after
    assert "7001 (replaced 6123)" in _ledger(after)
