"""What a reply claims reaches the request only once the reply is compacted (issue 28, cost):
the reply is sent word for word until then, and a note that repeats it made the server re-read
the request from the ledger on at every rival value a reply named. A reply's sentence never
marks the user's quoted words as "later corrected"."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig
from tests.engine_fakes import GoodSummarizer, compact, words

GATEWAY = "The gateway listens on port 7443."
MOVED = "Correction: the gateway moved to port 9443."


def _engine(**config: object) -> ContextEngine:
    return ContextEngine(EngineConfig(context_size=4096, min_messages=2, **config),  # type: ignore[arg-type]
                         GoodSummarizer())


def _filler(engine: ContextEngine, turns: int, seed: int = 0) -> None:
    for turn in range(turns):
        engine.add("user", f"question {seed + turn} " + words(20, seed + turn))
        engine.add("assistant", words(150, seed + turn))


def _system(engine: ContextEngine) -> str:
    return engine.api_messages()[0]["content"]


def test_a_replys_claim_waits_for_the_compaction_that_folds_the_reply() -> None:
    engine = _engine(preserve_user_messages=False)
    engine.add("user", GATEWAY)
    engine.add("assistant", words(150))
    _filler(engine, 8)
    assert compact(engine, force=True).status == "compacted"
    before = _system(engine)
    assert "gateway port: 7443" in before and "a reply said" not in before
    engine.add("user", "question about the gateway " + words(20, 99))
    claim = engine.add("assistant", MOVED + " " + words(60, 98))
    assert any(f.value == "9443" for f in engine.facts)  # read at once, kept
    assert _system(engine) == before  # the request is the previous one plus the new turns
    assert MOVED in engine.api_messages()[-1]["content"]  # the reply says it itself
    _filler(engine, 8, seed=50)
    assert compact(engine, force=True).status == "compacted"
    assert claim.id in engine._region_now().compacted
    noted = _system(engine)
    assert "7443 (a reply said replaced by 9443; unconfirmed)" in noted
    # a later reply names another value: the note as it was until that reply is compacted
    engine.add("user", "and the health check? " + words(20, 97))
    engine.add("assistant", "Correction: the gateway moved to port 9553. " + words(60, 96))
    assert _system(engine) == noted
    _filler(engine, 8, seed=70)
    assert compact(engine, force=True).status == "compacted"
    assert "7443 (a reply said replaced by 9443, now 9553; unconfirmed)" in _system(engine)


def test_a_users_correction_still_changes_the_request_at_once() -> None:
    engine = _engine(preserve_user_messages=False)
    engine.add("user", GATEWAY)
    engine.add("assistant", words(150))
    _filler(engine, 8)
    assert compact(engine, force=True).status == "compacted"
    engine.add("user", MOVED)
    assert "gateway port: 9443 (replaced 7443)" in _system(engine)


def test_a_replys_sentence_never_marks_the_users_quoted_request_as_corrected() -> None:
    engine = _engine()  # the user's earlier requests are quoted word for word
    engine.add("user", "What is the weakest point of the data cleaning step right now?")
    engine.add("assistant", words(150))
    engine.add("user", "question " + words(20, 7))
    engine.add("assistant", "Keep the data cleaning step short and move the secondary "
                            "analyses to the appendix. " + words(150))  # read as a correction
    _filler(engine, 8)
    assert compact(engine, force=True).status == "compacted"
    system = _system(engine)
    assert "weakest point of the data cleaning step" in system
    assert "later corrected" not in system
