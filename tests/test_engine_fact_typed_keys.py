"""Issue 28, point 2: a value supersedes only a value of its own key, and "possibly replaced"
joins only two keys that may be one, never two kinds of value. Each case is a false
supersession the noisy benchmark found on d625f2c (the generated chats' own sentences)."""

from __future__ import annotations

from ollm_desktop.engine import facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import Message
from tests.engine_fakes import absorbed, fact_of, value_of


def test_a_replacement_without_a_number_leaves_a_value_of_no_key_alone() -> None:
    """"Pulumi in place of Terraform" replaced the offsite's hotel too: a value with no noun
    phrase of its own ("... at the Hotel Flandria") is no key a correction can meet."""
    ledger = absorbed(("user", "Our offsite is in Ghent this year, at the Hotel Flandria."),
                      ("user", "Terraform 1.5 manages the infra."),
                      ("user", "We're going with Pulumi in place of Terraform."))
    hotel = fact_of(ledger, "Hotel Flandria")
    assert hotel.status == "current" and hotel.possibly_replaced_by is None
    assert fact_of(ledger, "Terraform 1.5").status == "replaced"
    assert value_of(ledger, fact_of(ledger, "Terraform 1.5").replaced_by) == "Pulumi"


def test_a_bare_number_of_another_attribute_is_its_own_entry() -> None:
    """"Lower dropout to 0.1" marked the learning rate "possibly replaced by 0.1": two
    attributes named, no word alike, and a bare number says nothing of its kind."""
    ledger = absorbed(("user", "The learning rate is 1e-3."),
                      ("user", "Lower dropout to 0.1 for the next runs."))
    assert fact_of(ledger, "1e-3").possibly_replaced_by is None
    assert fact_of(ledger, "1e-3").status == "current" == fact_of(ledger, "0.1").status


def test_a_count_of_the_same_noun_phrase_is_the_same_key_named_otherwise() -> None:
    """(the rule above narrows, never drops, the match of one noun phrase: "poll" is both
    statements' key word, ``fact_topics``, so the correction replaces the count)"""
    ledger = absorbed(("user", "We poll the upstream feed every 30 seconds."),
                      ("user", "The polling interval is now 90 seconds."))
    old = fact_of(ledger, "30 seconds")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "90 seconds"


def test_a_function_never_possibly_replaces_a_word_or_an_environment_variable() -> None:
    ledger = absorbed(
        ("assistant", "For the session cache: the setting is read from the environment "
                      "variable KESTREL_RELAY_TOKEN."),
        ("user", "For the session cache: the helper that does this is "
                 "hydrate_retry_queues_792(), so call it from there."))
    assert all(f.possibly_replaced_by is None and f.status == "current" for f in ledger)


def test_a_reply_s_hedge_replaces_no_value_and_a_user_s_drop_replaces_its_object() -> None:
    """A reply's hedge ("... a confound we did not control, and reviewers will look there
    first.") is no replacement of a value: no "control (a reply said replaced by The weakest
    part of ...)" line."""
    ledger = absorbed(
        ("user", "I reread the literature review and I am sure about a confound we did not "
                 "control."),
        ("assistant", "The weakest part of the error analysis is a confound we did not "
                      "control, and reviewers will look there first."),
        ("user", "Drop Jenkins, we use GitHub Actions instead."))
    # (the last message names Jenkins as its old value: kept as replaced, as "instead of Y")
    assert not any(f.disputed_by or f.replaced_by or f.possibly_replaced_by
                   for f in ledger if f.value != "Jenkins")
    assert facts.value_notes(ledger) == {"Jenkins": "replaced by GitHub Actions"}


def test_a_word_never_replaces_a_helper_function() -> None:
    """"Switch auth over to JWT bearer tokens" replaced the importer's helper with "to JWT":
    a value of no key may replace the one value of its unit only if it is of its kind."""
    ledger = absorbed(("user", "For the importer: the helper that does this is "
                               "throttle_retry_queues_291(), so call it from there."),
                      ("user", "Switch auth over to JWT bearer tokens."))
    helper = fact_of(ledger, "throttle_retry_queues_291()")
    assert helper.status == "current" and helper.possibly_replaced_by is None


def test_a_panel_row_never_hides_a_current_count_under_a_name() -> None:
    """One sentence gave a count and a name one noun phrase: the panel listed the name and
    hid the count in its history, a current value shown as replaced."""
    from ollm_desktop.engine.facts_rows import fact_rows

    ledger = absorbed(("user", "The archive has 12,000 files after cleanup."),
                      ("user", "I miscounted: 11,200 files after cleanup, not 12,000."))
    rows = fact_rows(ledger)
    assert any(r.value == "11,200 files" and r.shown_by_default for r in rows), \
        [(r.value, [h.value for h in r.history]) for r in rows]


def test_a_decision_keeps_the_phrase_the_user_decided() -> None:
    """"we go with no deploys on Fridays" was kept as "constraint: Fridays" (the meaning
    turned round, and the user's decision missing from the last request)."""
    ledger = absorbed(
        ("user", "Decision: for the constraint for deploys we go with no deploys on Fridays."),
        ("user", "We agreed that the statistical test is the Wilcoxon signed-rank test."),
        ("user", "Final call on the queue backend: RabbitMQ quorum queues."),
        ("user", "Let's go with PostgreSQL 16 for the main database."))
    values = {f.value for f in ledger if f.status == "current"}
    assert {"no deploys on Fridays", "the Wilcoxon signed-rank test",
            "RabbitMQ quorum queues", "PostgreSQL 16"} <= values, values


def test_the_users_later_value_marks_the_older_though_a_reply_disputes_it() -> None:
    """The user's "the meeting is in room lapwing-vault", then "... room curlew-compass",
    then a reply's correction of the latter: the older read as current on a line of its own
    (the "possibly replaced" note was dropped while a reply disputed the newer)."""
    from ollm_desktop.engine.facts_render import render

    ledger = absorbed(
        ("user", "The meeting is in room dunlin-beacon."),
        ("user", "Change of plan: the meeting is in room lapwing-vault, not in room "
                 "dunlin-beacon any more."),
        ("user", "The meeting is in room curlew-compass."),
        ("assistant", "Change of plan: the meeting is in room heron-lantern, not in room "
                      "curlew-compass any more."))
    text = render(ledger, compacted={f.message_id for f in ledger}, quoted=set(),
                  budget=500, count=lambda s: len(s) // 4).text
    lines = [line for line in text.splitlines() if "lapwing-vault" in line]
    assert len(lines) == 1 and "curlew-compass" in lines[0] and "possibly" in lines[0], text
    # the older values are read with the value, before a reply's note ("...; unconfirmed")
    assert lines[0].index("lapwing-vault") < lines[0].index("unconfirmed"), lines[0]


def test_the_panel_lists_a_name_of_no_key_behind_the_filter() -> None:
    """"I looked at the CLI again this morning": the CLI is what the chat is about, not
    a value the user would write down; an identifier and a replacing name are listed."""
    from ollm_desktop.engine.facts_rows import fact_rows

    ledger = absorbed(("user", "I looked at the CLI again this morning and I think a timezone "
                               "mix-up is behind the failures."),
                      ("user", "We page through PagerDuty."),
                      ("user", "Actually let's use Opsgenie instead of PagerDuty."),
                      ("user", "The API port is 8443."))
    shown = {r.value for r in fact_rows(ledger) if r.shown_by_default}
    assert "CLI" not in shown and "8443" in shown and "Opsgenie" in shown, shown
    assert any(r.value == "CLI" for r in fact_rows(ledger))  # one click away


def test_the_users_value_a_reply_named_first_marks_the_users_older_value() -> None:
    """The reply's correction ("not in room curlew-compass any more") is read at once, the
    user's plain statement of curlew-compass only when its message is compacted: the value
    became the user's, but the user's older room read as current beside it."""
    from ollm_desktop.engine.facts_render import render

    ledger: list[Fact] = []
    for turn, role, text in [
            (2, "user", "The meeting is in room dunlin-beacon."),
            (39, "user", "Change of plan: the meeting is in room lapwing-vault, not in room "
                         "dunlin-beacon any more."),
            (67, "assistant", "Change of plan: the meeting is in room heron-lantern, not in "
                              "room curlew-compass any more."),
            (60, "user", "The meeting is in room curlew-compass.")]:
        facts.absorb(ledger, Message(role=role, content=text), turn)  # type: ignore[arg-type]
    text = render(ledger, compacted={f.message_id for f in ledger}, quoted=set(),
                  budget=500, count=lambda s: len(s) // 4).text
    lines = [line for line in text.splitlines() if "lapwing-vault" in line]
    assert len(lines) == 1 and "curlew-compass" in lines[0] and "possibly" in lines[0], text


def test_the_users_sentence_still_replaces_the_value_it_names_as_old() -> None:
    """(a reply's sentence never does, above; the user's "Not Paul but Greta reviews this
    one." replaces Paul though the finder reads no value in it)"""
    ledger = absorbed(("user", "Our reviewer is Paul."),
                      ("user", "Not Paul but Greta reviews this one."))
    assert fact_of(ledger, "Paul").status == "replaced"


def test_a_time_of_no_noun_phrase_is_still_the_one_a_correction_replaces() -> None:
    """(a name of no noun phrase meets no key; a time or a date still may)"""
    ledger = absorbed(("user", "Dinner for 6 at Luigi's at 20:00."),
                      ("user", "Scratch that, dinner is at 20:30."))
    assert fact_of(ledger, "20:00").status == "replaced"
