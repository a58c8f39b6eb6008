"""Values read whole (stop 53, area A): a value the user writes is in the ledger as written.

An hour said with "o'clock" is one time ("8 o'clock"), a number with arc seconds or knots
keeps its unit ("2.4 arcsec", "6 knots"), a title with its dot opens a name ("Rev. Daniel
Kim", "Capt. Lena Ortiz"), a terse list of labelled values without commas is read item by
item ("coach B2 seat 33", "12 chunks fov 90"), one value written two ways is no change ("the
12th" and "12th"), "I beg your pardon" takes back the value before it as "sorry" does, and two
one-word values joined by "and" after a copula are the key's value together ("colours are
sage and cream").
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_value_forms import value_form
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _chat(said: str, later: str, reply: str = "Noted.") -> list:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


def _one(said: str) -> set[str]:
    return current_set(absorbed(("user", said)))


@pytest.mark.parametrize(("said", "value"), [
    ("The baptism will be at St. Brigid's, after the 11 o'clock Mass.", "11 o'clock"),
    ("I take amlodipine at 5 mg, each morning at 8 o'clock.", "8 o'clock"),
    ("dinner is at seven oclock tonight", "seven oclock"),
    ("Meeting moved to 3 o’clock.", "3 o’clock"),
])
def test_an_hour_with_oclock_is_one_time(said: str, value: str) -> None:
    assert value in _one(said)


@pytest.mark.parametrize(("said", "value"), [
    ("seeing was 2.4 arcsec tonight", "2.4 arcsec"),
    ("the double star is split at 40 arcmin", "40 arcmin"),
    ("we cruise at 6 knots", "6 knots"),
])
def test_a_number_keeps_its_angle_or_speed_unit(said: str, value: str) -> None:
    assert value in _one(said)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Our officiant is Rev. Margaret Olsen.", "Officiant's now Rev. Daniel Kim.",
     "Rev. Margaret Olsen", "Rev. Daniel Kim"),
    ("my commanding officer is Capt. Lena Ortiz", "my commanding officer is now Capt. Ian Roy",
     "Capt. Lena Ortiz", "Capt. Ian Roy"),
])
def test_a_dotted_title_opens_the_name(said: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(_chat(said, later)).get(old) == new


def test_a_dotted_title_in_a_plain_statement_is_kept() -> None:
    assert "Fr. Tomasz Nowak" in _one("our parish priest is Fr. Tomasz Nowak")


@pytest.mark.parametrize(("said", "values"), [
    ("My train departs 16:55, coach B2 seat 33.", {"coach B2", "seat 33"}),
    ("coach B2 seat 33", {"coach B2", "seat 33"}),
    ("exam tomorrow room C04 desk 17", {"desk 17"}),
    ("minecraft render distance 12 chunks fov 90 and its lagging so bad", {"12 chunks", "fov 90"}),
])
def test_a_terse_list_of_labelled_values_is_read_item_by_item(said: str,
                                                              values: set[str]) -> None:
    assert values <= _one(said)


def test_a_product_name_and_its_model_are_no_label_and_code() -> None:
    ledger = _chat("my laptop is a ThinkPad T14 gen 2", "gen 3 actually",
                   reply="ThinkPad T14 Gen 2, noted.")
    assert "gen 2" not in current_set(ledger)


@pytest.mark.parametrize(("said", "value"), [
    ("bought 6 red apples yesterday", "6 red apples"),
    ("tank has 12 neon tetras and 3 corys", "12 neon tetras"),
])
def test_a_count_and_its_words_stay_one_value(said: str, value: str) -> None:
    current = _one(said)
    assert value in current or not any(v.startswith(value.split()[0] + " ") for v in current)


@pytest.mark.parametrize(("said", "later"), [
    ("dentist appointment on the 3rd", "moved the cleaning, dentist still the 3rd"),
    ("Levothyroxine 75 mcg every morning, next blood test on the 12th.",
     "doctor changed it from 75 mcg to 88 mcg yesterday, blood test still the 12th"),
])
def test_one_day_written_two_ways_replaces_nothing(said: str, later: str) -> None:
    replaced = replaced_by_map(_chat(said, later))
    assert not any(old.endswith(("3rd", "12th")) for old in replaced)


@pytest.mark.parametrize(("one", "other", "same"), [
    ("the 12th", "12th", True),
    ("3rd", "the 3rd", True),
    ("11 o'clock", "11:00", True),
    ("8 o'clock pm", "8 pm", True),
    ("the 12th", "the 13th", False),
    ("3,200 subscribers", "3,450 subscribers", False),
    ("11 o'clock", "10 o'clock", False),
])
def test_one_form_of_a_day_or_an_hour(one: str, other: str, same: bool) -> None:
    assert (value_form(one) == value_form(other)) is same


@pytest.mark.parametrize(("said", "old", "new"), [
    ("The service will be held at 11 o'clock — I beg your pardon, half past eleven — at "
     "St. Andrew's.", "11 o'clock", "half past eleven"),
    ("Dinner is at 7 pm, pardon, 8 pm.", "7 pm", "8 pm"),
    ("the fee is £40, I beg your pardon, I meant £45", "£40", "£45"),
])
def test_i_beg_your_pardon_takes_back_the_value_before(said: str, old: str, new: str) -> None:
    ledger = absorbed(("user", said))
    assert new in current_set(ledger)
    assert old not in current_set(ledger)


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("mass is at 11 o'clock", "should we do 10 o'clock instead?", "11 o'clock"),
    ("mass is at 11 o'clock", "if it rains they might move it to 10 o'clock", "11 o'clock"),
    ("our vicar is Rev. Anne Hill", "would Rev. John Ames be better?", "Rev. Anne Hill"),
    ("seeing was 2.1 arcsec", "would 1.5 arcsec be possible with a better site?", "2.1 arcsec"),
    ("coach B2 seat 33", "could I ask for seat 34 instead?", "seat 33"),
])
def test_questions_and_wishes_still_replace_nothing(said: str, later: str, kept: str) -> None:
    assert kept in current_set(_chat(said, later))


def test_a_reply_s_values_are_no_user_values() -> None:
    ledger = _chat("dinner at 7 o'clock", "ok thanks",
                   reply="Try 8 o'clock instead, it's less busy.")
    assert "7 o'clock" in current_set(ledger)
    assert not any(f.value == "8 o'clock" and f.status == "current" and f.users for f in ledger)


@pytest.mark.parametrize(("said", "value"), [
    ("Wedding colours are sage and cream.", "sage and cream"),
    ("my favourite foods are sushi and ramen", "sushi and ramen"),
    ("the theme colours are navy and gold", "navy and gold"),
])
def test_two_one_word_values_joined_by_and_are_one_value(said: str, value: str) -> None:
    assert value in _one(said)


def test_a_restated_pair_replaces_the_pair() -> None:
    ledger = _chat("Wedding colours are sage and cream.", "colours are now sage and blush")
    assert replaced_by_map(ledger).get("sage and cream") == "sage and blush"


@pytest.mark.parametrize("said", [
    "he is Tom and she is Ann",
    "it's sushi and i love it",
    "I'm tired and hungry",
    "my kids are Mia and Leo",
    "we use Postgres and Redis",
])
def test_and_before_a_clause_or_a_pronoun_joins_nothing(said: str) -> None:
    assert not any(" and " in v for v in _one(said))


def test_a_reply_s_pair_is_no_user_value() -> None:
    ledger = _chat("colours are sage and cream", "hmm, not sure",
                   reply="Maybe add gold and blush?")
    assert "gold and blush" not in current_set(ledger)
