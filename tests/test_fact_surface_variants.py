"""Issue 28: the surface forms people vary a correction in (``fact_surface``, and the closed
classes of ``fact_words``) read as the forms the grammar knows. Found by
``python -m bench.memory --kind corrections --perturb``; the sentences here are new words."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


def _replaced(old: str, new: str, *messages: str) -> None:
    ledger = absorbed(*(("user", text) for text in messages))
    fact = fact_of(ledger, old)
    assert fact.status == "replaced", [(f.value, f.status) for f in ledger]
    assert value_of(ledger, fact.replaced_by) == new


@pytest.mark.parametrize("arrow", ["->", "→", "=>"])
def test_an_arrow_between_two_values_is_from_y_to_x(arrow: str) -> None:
    _replaced("40 agents", "64", "The build farm runs 40 agents.",
              f"we raised the build farm agents 40 {arrow} 64 over the weekend")
    _replaced("Jenkins", "Buildkite", "Our CI runs on Jenkins.",
              f"Move the CI Jenkins {arrow} Buildkite.")


@pytest.mark.parametrize("form", ["{x} (not {y})", "{x} not {y}"])
def test_not_y_in_parentheses_or_without_a_comma_is_x_not_y(form: str) -> None:
    _replaced("Halvorsen", "Okonkwo", "The referee is Halvorsen.",
              "It's " + form.format(x="Okonkwo", y="Halvorsen") + ".")
    _replaced("3.1", "3.2", "The parser library is at 3.1.",
              "the parser library runs " + form.format(x="3.2", y="3.1"))


def test_a_negated_verb_is_no_aside() -> None:
    """"we do not use Y" negates the verb: no ", not Y" is read into it."""
    ledger = absorbed(("user", "The cache is Redis."),
                      ("user", "We do not use Memcached anywhere."))
    assert fact_of(ledger, "Redis").status == "current"


@pytest.mark.parametrize("opener", ["hey,", "hi all,", "quick update:", "heads up:"])
def test_a_header_or_greeting_before_the_lead_keeps_the_lead(opener: str) -> None:
    _replaced("June 3", "June 10", "The audit is due June 3.",
              f"{opener} scratch that, the audit is due June 10.")


def test_a_greeting_before_a_hypothetical_keeps_its_mood() -> None:
    ledger = absorbed(("user", "The pool has 6 workers."),
                      ("user", "hey, what if we grow the pool to 9 workers"))
    assert fact_of(ledger, "6 workers").status == "current"


def test_a_spelled_out_pronoun_and_be_reads_as_its_contraction() -> None:
    _replaced("4 sprints", "3 sprints", "The roadmap has 4 sprints before launch.",
              "We cut scope, it is 3 sprints now before launch.")


@pytest.mark.parametrize("closing", [" thx", ", thanks!", " cheers", " 🙂", " 👍🏽", " :)"])
def test_a_closing_courtesy_or_emoji_is_no_part_of_the_last_value(closing: str) -> None:
    """"… to 14 thx": the courtesy word is no counted noun, "… Quarry 🙂" no name's part."""
    _replaced("9 nodes", "14", "The search cluster has 9 nodes.",
              f"Let's grow the search cluster to 14{closing}")
    _replaced("Ridgeway", "Quarry Lane", "The away match is at Ridgeway.",
              f"The away match is at Quarry Lane, not Ridgeway{closing}")


def test_a_lower_case_title_does_not_end_the_sentence() -> None:
    from ollm_desktop.engine.fact_patterns import sentences

    assert sentences("scratch that, the surgeon is dr. Abernethy.") == [
        "scratch that, the surgeon is dr. Abernethy."]
    assert sentences("ok. we moved to mrs. Pell's room.") == [
        "ok.", "we moved to mrs. Pell's room."]


def test_a_header_before_a_clause_of_its_own_is_no_key() -> None:
    """"quick update: make it 12 seats" (an imperative after a header) corrects; "heads up:
    the ticket number is X" keys X by its own clause; "Default port: 8443" keeps its label."""
    _replaced("8 seats", "12 seats", "The van has 8 seats.", "quick update: make it 12 seats.")
    from ollm_desktop.engine.facts_extract import current_values

    keys = current_values([("user", "heads up: the ticket number is QA-3141, quote it.")])
    assert keys == {"ticket|number|ticket": ["QA-3141"]}
    assert "default|port|port" in current_values([("user", "Default port: 8443")])


def test_x_not_y_after_a_label_and_colon() -> None:
    _replaced("Halvorsen", "Okonkwo", "The referee for the derby is Halvorsen.",
              "referee for the derby: Okonkwo not Halvorsen. he's injured")


@pytest.mark.parametrize("dash", [" - ", " — ", ", "])
def test_a_spaced_hyphen_after_a_lead_is_a_dash(dash: str) -> None:
    _replaced("7 guests", "9 guests", "The table is for 7 guests.",
              f"No wait{dash}make that 9 guests.")


def test_a_title_in_lower_case_opens_the_name() -> None:
    from ollm_desktop.engine.facts_extract import current_values

    assert current_values([("user", "my dentist is dr. Maren Holt and the hygienist is "
                                    "mrs. Ada Quist.")]) == {
        "|dentist|name": ["Maren Holt"], "|hygienist|name": ["Ada Quist"]}


def test_a_terse_past_subject_without_its_determiner_is_past() -> None:
    """"Previous tenants were with Ovo" (no "the") says nothing of now, as "The previous
    tenants were with Ovo" does (``fact_tense``)."""
    from ollm_desktop.engine.facts_extract import current_values

    assert current_values([("user", "Our broadband provider is Zen."),
                           ("user", "Previous tenants were with Ovo Broadband, so post still "
                                    "comes for them.")]) == {"broadband|provider|name": ["Zen"]}


@pytest.mark.parametrize(("said", "correction", "old", "new"), [
    ("The standup is at 9:15.", "That time was wrong. The right one is 9:45.", "9:15", "9:45"),
    ("The venue is the Corn Exchange.", "Wrong venue, sorry. The new one is the Old Library.",
     "Corn Exchange", "Old Library")])
def test_the_pro_form_one_names_no_key_it_refers_back(said: str, correction: str, old: str,
                                                      new: str) -> None:
    """"The right one is X": "one" stands for the noun of the sentence before it, so the
    value is keyless (the one earlier value of its unit), not the key "right one"."""
    _replaced(old, new, said, correction)


@pytest.mark.parametrize("question", [
    "Is Thursday too early for the retro", "Does the retro move to Thursday this sprint",
    "did retro move to Thursday"])
def test_a_question_without_its_question_mark_replaces_nothing(question: str) -> None:
    """Chat drops the "?": "does"/"did" before their subject, or "is" before a value, still
    open a question (a dropped subject's "is now Thursday" states)."""
    ledger = absorbed(("user", "The retro is on Wednesday."), ("user", question))
    assert fact_of(ledger, "Wednesday").status == "current"
    assert all(f.kind == "question" for f in ledger if f.value == "Thursday")


def test_a_dropped_subject_s_is_now_still_states() -> None:
    _replaced("Wednesday", "Thursday", "The retro is on Wednesday.",
              "Retro moved. Is now on Thursday.")


@pytest.mark.parametrize("arrow", ["->", "→"])
def test_an_arrow_after_the_key_s_word_is_is_now(arrow: str) -> None:
    """"release freeze -> Thursday": the word before the arrow is the key's, not a value."""
    _replaced("Tuesday", "Thursday", "The release freeze is on Tuesday.",
              f"release freeze {arrow} Thursday")
    _replaced("30 s", "45 s", "The gateway timeout is 30 s.", f"gateway timeout {arrow} 45 s")


def test_a_weekday_in_lower_case_is_a_value() -> None:
    """(``provenance.WEEKDAY``)"""
    _replaced("Monday", "thursday", "The offsite is on Monday.",
              "offsite: monday -> thursday")


@pytest.mark.parametrize("correction", ["Studio changed. New studio: Attic Room.",
                                        "the actual studio is Attic Room",
                                        "Sorry, the correct studio is Attic Room."])
def test_an_adjective_of_correctness_is_no_key_word_and_corrects(correction: str) -> None:
    _replaced("Blue Room", "Attic Room", "The recording studio is Blue Room.", correction)


def test_a_new_value_asked_about_replaces_nothing() -> None:
    ledger = absorbed(("user", "The recording studio is Blue Room."),
                      ("user", "Should the new studio be Attic Room?"))
    assert fact_of(ledger, "Blue Room").status == "current"


@pytest.mark.parametrize("change", ["deposit went up to £650", "deposit came down to £400"])
def test_a_particle_of_direction_before_to_x_is_a_change(change: str) -> None:
    """(a key without an owner: a plain restatement would only mark the older value)"""
    _replaced("£500", change.split("to ")[1], "The deposit is £500.", change)


@pytest.mark.parametrize("restated", ["ruby's 3.3 now", "ruby is now 3.3 everywhere",
                                      "Ruby's 3.3 now"])
def test_a_product_s_version_in_any_case_and_contracted(restated: str) -> None:
    """At a sentence's start a capital says nothing: "ruby is now 3.3" is Ruby's version as
    "Ruby is now 3.3" is; "'s" before a value and "now" is "is"."""
    _replaced("Ruby 3.2", "3.3", "All our apps run on Ruby 3.2.", restated)


@pytest.mark.parametrize("correction", ["Deposit was wrong, it's £650.",
                                        "wrong deposit figure: it's £650"])
def test_a_short_clause_about_an_error_leads_without_a_speaker(correction: str) -> None:
    """(``fact_leads._error_clause``: "I got that wrong:" needed its speaker; a short clause
    that names the key, "Deposit was wrong,", is as plain an admission)"""
    _replaced("£500", "£650", "The deposit is £500.", correction)


def test_a_doubt_about_an_error_admits_nothing() -> None:
    ledger = absorbed(("user", "The deposit is £500."), ("user", "if wrong, it's £650"))
    assert fact_of(ledger, "£500").status == "current"


def test_a_past_rise_is_an_event_not_a_change() -> None:
    """"last year the deposit went up to £650": a dated event, no correction of today's."""
    ledger = absorbed(("user", "The deposit is £500."),
                      ("user", "last year deposit went up to £650"))
    assert fact_of(ledger, "£500").status == "current"


def test_is_before_a_bare_noun_and_a_value_asks() -> None:
    ledger = absorbed(("user", "The deposit is £500."), ("user", "Is deposit £650 now"))
    assert fact_of(ledger, "£500").status == "current"


def test_a_product_s_version_after_leading_discourse_words() -> None:
    """"ok so ruby is now 3.3": after the discourse words the clause starts; case says nothing."""
    _replaced("Ruby 3.2", "3.3", "All our apps run on Ruby 3.2.", "ok so ruby is now 3.3")


def test_it_is_now_keeps_its_reading_and_a_change_verb_s_object_before_an_arrow() -> None:
    """"it's now X" is read as "it is now X" (as before ``fact_surface``); "renamed Y -> X"
    is "renamed from Y to X", the verb's object is the old value, not the key."""
    from ollm_desktop.engine.facts_extract import current_values

    said = ("user", "The hotel is the Grand.")
    assert current_values([said, ("user", "it's now the Ritz")]) == current_values(
        [said, ("user", "it is now the Ritz")])
    assert "ritz" in str(current_values([said, ("user", "it's now the Ritz")])).lower()
    _replaced("Bravo Team", "Delta Team", "The on-call squad is Bravo Team.",
              "we renamed the on-call squad Bravo Team -> Delta Team")


def test_a_unit_in_lower_case_ends_its_sentence() -> None:
    """"ms." is a unit, not the title "Ms.": the next sentence keeps its own key."""
    from ollm_desktop.engine.fact_patterns import sentences

    assert sentences("The poll interval is 250 ms. The retry limit is 4.") == [
        "The poll interval is 250 ms.", "The retry limit is 4."]
    assert len(sentences("ask dr. Amadi first. then the rest.")) == 2


def test_a_closing_code_span_is_no_emoji() -> None:
    """A backtick is a modifier letter in Unicode, not a symbol: only emoji close a sentence."""
    from ollm_desktop.engine.fact_patterns import sentences

    assert sentences("point it at `staging-2` 🚀") == ["point it at `staging-2`"]


def test_a_quoted_word_before_an_arrow_is_the_old_value() -> None:
    _replaced("trunk", "release", "Our default branch is trunk.",
              "default branch: `trunk` => `release`")
