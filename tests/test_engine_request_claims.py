"""A reply's sentence never marks the user's quoted words as "later corrected" (issue 28: the
ledger is the user's; a reply's advice read as a correction marked quoted requests at every such
reply, junk in the request and a re-read from there on); the user's correction still changes
the request at once."""

from __future__ import annotations

from tests.engine_fakes import compact, words
from tests.engine_fakes import fact_engine as _engine
from tests.engine_fakes import filler_turns as _filler
from tests.engine_fakes import system_text as _system

GATEWAY = "The gateway listens on port 7443."
MOVED = "Correction: the gateway moved to port 9443."


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
