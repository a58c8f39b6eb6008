"""An emoji between two words punctuates (stop 52, it52): chat writers put one where a comma
goes ("scratch that 😅 i changed it to X", "lunch is at 12:30 ⚽ bus leaves 11:15"), so it is a
clause's boundary, never a word of a key ("🙈: 5522"). Arrows ("Y → X"), "°" and an emoji
that opens the message are no boundary of this kind."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_words import tokens_of
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map, user_ledger


def _chat(said: str, later: str) -> dict[str, str]:
    return replaced_by_map(absorbed(("user", said), ("assistant", "Noted."), ("user", later)))


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("the shed code is 4411", "scratch that 🙈 it's 5522 now", "4411", "5522"),
    ("the support email is help@acme.io", "nope ❌ it changed to care@acme.io",
     "help@acme.io", "care@acme.io"),
    ("my discord tag is ferroWolf", "scratch that 😅 i changed it to ferro_wolf_77",
     "ferroWolf", "ferro_wolf_77"),
    ("the webhook timeout is set to 30s", "scratch that 🙃 it's already 90s", "30s", "90s"),
])
def test_an_emoji_after_a_lead_keeps_the_correction(said: str, later: str, old: str,
                                                    new: str) -> None:
    assert _chat(said, later).get(old) == new


def test_an_emoji_between_clauses_ends_the_first_key() -> None:
    ledger = user_ledger("match day lunch is at 12:30 ⚽ bus leaves 11:15")
    assert {"12:30", "11:15"} <= current_set(ledger)
    assert not any(f.key.startswith("match day lunch") and f.value == "11:15" for f in ledger)


@pytest.mark.parametrize(("sentence", "kept"), [
    ("A → B is fine", "→"),
    ("it is 15° warmer", "°"),
    ("👍 the rota is fine", "👍"),
])
def test_arrows_degrees_and_an_opening_emoji_stay_words(sentence: str, kept: str) -> None:
    assert kept in [t.word for t in tokens_of(sentence, [])]


def test_someone_elses_wish_before_an_emoji_stays_theirs() -> None:
    ledger = absorbed(("user", "Thanksgiving at our place, dinner at 4pm"),
                      ("assistant", "Noted."),
                      ("user", "my mother-in-law wants it at 2pm 🙄 we're doing 4"))
    assert all(f.kind == "question" for f in ledger if f.value == "2pm")
    assert "4pm" in current_set(ledger)
