"""Negatives that must not supersede, and decisions that must still apply (issue 28, stop 43).

A verbless aside between dashes is as asserted as the clause it interrupts ("the bill would
rise — from $150 to $165 — ..."); another's request with a mandative subjunctive ("Finance
requested the budget be cut to $4,000"); a label of a proposal before a colon ("RFC: ...");
a plan with a later time ("We're going to switch to gpt-4.1 tomorrow"); a title whose text
asks the listener's opinion ("What do you think?"). Each negative failed on 775638f; the
corrections beside them (same words, decided) must still apply.
"""

from __future__ import annotations

from ollm_desktop.engine import fact_message_lines as lines
from ollm_desktop.engine.fact_mood_asides import aside_marks
from ollm_desktop.engine.fact_mood_planned import planned
from ollm_desktop.engine.fact_words import tokens_of
from tests.fact_ledger import by_form, check_after, current_after

# (form, the earlier fact, the message that must replace nothing, the value that stays, the
# message's value that must not become current)
NEGATIVES = [
    ("a dash aside under a modal", "The bill is $150.",
     "The bill would rise — from $150 to $165 — if we add the sports channel.", "$150",
     "$165"),
    ("a dash aside under 'might'", "The fee is $40.",
     "The fee might go up — to $45 — next year.", "$40", "$45"),
    ("a mandative subjunctive, no 'that'", "The budget is $5,000.",
     "Finance requested the budget be cut to $4,000.", "$5,000", "$4,000"),
    ("a mandative subjunctive with 'that'", "The rent is $1,200.",
     "The landlord requested that the rent be raised to $1,300.", "$1,200", "$1,300"),
    ("a demand of another", "The deadline is March 3.",
     "The client demanded that the deadline be moved to March 1.", "March 3", "March 1"),
    ("a label of a proposal", "The default port is 8080.",
     "RFC: move the default port to 8443", "8080", "8443"),
    ("a label of a pitch", "The timeout is 30 s.", "Pitch: bump the timeout to 45 s",
     "30 s", "45 s"),
    ("a plan with its later time", "We use gpt-4.",
     "We're going to switch to gpt-4.1 tomorrow.", "gpt-4", "gpt-4.1"),
    ("a plan, the time first", "The standup is at 9:30.",
     "Next week we're going to move the standup to 10:00.", "9:30", "10:00"),
    ("a title, the listener's opinion asked", "The timeout is 30 s.",
     "Bump the timeout to 45 s\nWhat do you think?", "30 s", "45 s"),
]


@by_form(("form", "fact", "message", "kept", "never"), NEGATIVES)
def test_negative_sets_nothing(form: str, fact: str, message: str, kept: str,
                               never: str) -> None:
    check_after(fact, message, kept, never, form)


# (form, the earlier fact, the correction, the new value, the old value)
CORRECTIONS = [
    ("a dash aside of a past change", "The bill is $150.",
     "The bill went up — from $150 to $165 — this month.", "$165", "$150"),
    ("a granted request, subjunctive", "The budget is $5,000.",
     "Finance approved the request that the budget be cut to $4,000.", "$4,000", "$5,000"),
    ("another's change made", "The budget is $5,000.", "Finance cut the budget to $4,000.",
     "$4,000", "$5,000"),
    ("a label that proposes nothing", "The port is 8443.", "Update: the port is now 9443",
     "9443", "8443"),
    ("a change said with we're, no later time", "We use gpt-4.",
     "We're switching to gpt-4.1.", "gpt-4.1", "gpt-4"),
    ("'going to' without a change verb", "The meeting is at 3pm.",
     "We're going to meet at 4pm instead.", "4pm", "3pm"),
    ("a past change with its time", "We use gpt-4.", "We switched to gpt-4.1 yesterday.",
     "gpt-4.1", "gpt-4"),
    ("a plan with no later time", "We use gpt-4.", "We're going to switch to gpt-4.1.",
     "gpt-4.1", "gpt-4"),
    ("a title, a request to act", "The timeout is 30 s.",
     "Raise the timeout to 60 s\nCan you update the config?", "60 s", "30 s"),
    ("the speaker's want of a change", "The budget is $5,000.",
     "I want to raise the budget to $6,000.", "$6,000", "$5,000"),
    # another's instruction the user relays is the user's to follow, as "Security asked us
    # to cut it" is (fact_mood_proposed): it applies, and stays so
    ("a relayed instruction, said to", "The cake needs 12 eggs.", "Grandma said to make it 14.",
     "14", "12"),
    ("a relayed instruction, says", "The cake needs 12 eggs.", "My partner says make it 15.",
     "15", "12"),
]


@by_form(("form", "fact", "message", "new", "old"), CORRECTIONS)
def test_correction_still_applies(form: str, fact: str, message: str, new: str,
                                  old: str) -> None:
    check_after(fact, message, new, old, form)


def test_an_aside_takes_only_an_unasserting_host_mood() -> None:
    sentence = "the fee might go up — to $45 — next year"
    at = sentence.index("$45")
    tokens = tokens_of(sentence, [(at, at + 3, "$45", "money")])
    moods = ["tentative"] * 5 + ["statement"] * (len(tokens) - 5)
    assert [(a, b, m) for a, b, m in aside_marks(tokens, 0, moods)] == [(6, 8, "tentative")]
    assert aside_marks(tokens, 0, ["statement"] * len(tokens)) == []
    sentence = "it would be 8443 — actually 9443"
    said = tokens_of(sentence, [(28, 32, "9443", "number")])
    assert aside_marks(said, 0, ["tentative"] * len(said)) == []  # a correction's shape


def test_plans_are_read_from_their_words() -> None:
    plan = tokens_of("we're going to move it to Friday next week", [])
    assert planned(plan, 0, len(plan)) == 1
    unplanned = tokens_of("we're going to move it to Friday", [])
    assert planned(unplanned, 0, len(unplanned)) == -1


def test_a_title_asking_the_listener_is_a_proposal() -> None:
    assert lines.proposal_title("Bump it to 45 s\nThoughts?") == "Bump it to 45 s"
    assert lines.proposal_title("Make MariaDB the default\nAny reason to keep mysql?") != ""
    assert lines.proposal_title("Bump it to 45 s\nCan you update the config?") == ""


def test_a_request_granted_later_in_its_segment_is_made() -> None:
    granted = "They requested the deadline be moved to March 10, and the board agreed."
    assert "March 10" in current_after("The deadline is March 3.", granted)
    asked = "They asked the board to move the deadline to March 10, and the board agreed."
    assert "March 10" in current_after("The deadline is March 3.", asked)
    refused = "They asked the board to move the deadline to March 10, but it hasn't agreed."
    assert "March 3" in current_after("The deadline is March 3.", refused)


# an objection to a proposal: the change objected to is not made; no objection grants it
OBJECTIONS = [
    ("pushback on a change", "The standup is at 9:30.",
     "There has been pushback on moving the standup to 8:00.", "9:30", "8:00"),
    ("objections to a change", "The fee is $40.",
     "There were objections to raising the fee to $50.", "$40", "$50"),
    ("an adjective before it, 'rather than'", "The release cadence is 12 weeks.",
     "There was a light push back on having releases every 8 weeks rather than 12 weeks.",
     "12 weeks", "8 weeks"),
    ("no objections: granted", "The fee is $40.",
     "There were no objections, so the fee is now $50.", "$50", "$40"),
]


@by_form(("form", "fact", "message", "kept", "never"), OBJECTIONS)
def test_an_objected_change_is_not_made(form: str, fact: str, message: str, kept: str,
                                        never: str) -> None:
    check_after(fact, message, kept, never, form)
