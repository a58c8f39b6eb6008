"""Stop 45: values the user passes on from others, or declines (``fact_mood_others``).

Another's wish or push ("Security wants 30 days"), another's "should" ("the new hire keeps
saying we should be on React 19"), an unnamed source ("someone said Monday"), a change called
off ("v3.3 got cancelled", "we decided against moving it to August 29") and the values beside
what the user keeps ("…, but we're keeping Saturday") replace nothing: the review's probes.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.fact_ledger import status_of, user_ledger


def _not_current(ledger: list[Fact], value: str) -> bool:
    """No entry states ``value`` as current (an open question may name it; a decision's
    whole sentence that holds it states it)."""
    return all(f.status != "current" or f.kind == "question" for f in ledger if value in f.value)


@pytest.mark.parametrize(("held", "old", "said", "theirs"), [
    ("Retention is 90 days.", "90 days", "Security wants 30 days. Thoughts?", "30 days"),
    ("Max upload is 25 MB.", "25 MB", "Support wants 100 MB because customers complain.",
     "100 MB"),
    ("The release is on March 3.", "March 3",
     "Marketing is pushing for March 10. I'm not convinced.", "March 10"),
    ("Bedtime is 8 pm.", "8 pm", "The kids beg for 9 pm every night, not happening.", "9 pm"),
    ("The party is on Saturday.", "Saturday", "Dana wants it on Sunday.", "Sunday"),
    ("The launch is on Thursday.", "Thursday", "The client lobbied for Friday.", "Friday"),
])
def test_another_wish_or_push_replaces_nothing(held: str, old: str, said: str,
                                               theirs: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "current"
    assert _not_current(ledger, theirs)


@pytest.mark.parametrize(("held", "old", "said", "theirs"), [
    ("We use React 17.", "React 17", "The new hire keeps saying we should be on React 19.",
     "React 19"),
    ("The exam is on Friday.", "Friday",
     "Someone in the group chat said Monday, but I have not checked.", "Monday"),
    ("The standup is at 9:15.", "9:15", "Bob says we should move the standup to 10:00.",
     "10:00"),
])
def test_another_should_or_an_unnamed_source_replaces_nothing(held: str, old: str, said: str,
                                                              theirs: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "current"
    assert _not_current(ledger, theirs)


@pytest.mark.parametrize(("held", "old", "said", "off"), [
    ("The wedding is August 22.", "August 22", "We decided against moving it to August 29.",
     "August 29"),
    ("The release is v3.2.", "v3.2", "v3.3 got cancelled.", "v3.3"),
    ("The fee is $40.", "$40", "The board voted against raising it to $50.", "$50"),
])
def test_a_change_called_off_replaces_nothing(held: str, old: str, said: str,
                                              off: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "current"
    assert _not_current(ledger, off)


@pytest.mark.parametrize(("held", "old", "said", "theirs"), [
    ("The party is on Saturday.", "Saturday",
     "My mum wants it on Sunday, but we're keeping Saturday.", "Sunday"),
    ("The release is v3.2.", "v3.2", "v3.3 got cancelled, we stay on v3.2.", "v3.3"),
    ("We use Python 3.11.", "Python 3.11",
     "The tutorial was bumped to Python 3.13, but we're staying on 3.11.", "Python 3.13"),
])
def test_the_values_beside_what_the_user_keeps_are_not_theirs(held: str, old: str, said: str,
                                                              theirs: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "current"
    assert _not_current(ledger, theirs)


@pytest.mark.parametrize(("held", "old", "said", "new"), [
    # the speaker's own wish, a requirement of a thing, a correction's shape: as before
    ("Retention is 90 days.", "90 days", "We want 30 days for retention now.", "30 days"),
    ("The release is March 2.", "March 2",
     "Marketing wants a Tuesday launch, so the release is now March 9.", "March 9"),
    # a kept value with no "but" after another's change: as before
    ("The headliner plays at 21:00.", "21:00",
     "The headliner's set moved to 22:00, we keep 20:00.", "22:00"),
    # the user's own change before what they keep of another key
    ("The API port is 8443.", "8443", "We moved the API port to 9443, but we keep 8080 for admin.",
     "9443"),
    # a plain report; a passive's "should" is the user's own correction
    ("The deadline is March 3.", "March 3", "The deadline is listed as March 3 (should be "
     "March 5).", "March 5"),
    ("Departure is 07:10.", "07:10", "The airline says departure is now 07:25.", "07:25"),
])
def test_the_speaker_s_own_change_still_applies(held: str, old: str, said: str,
                                                new: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


@pytest.mark.parametrize(("held", "old", "said", "theirs"), [
    ("The school trip is £45.", "£45",
     "The bus company pushed its price to £60 for other schools, ours stays £45.", "£60"),
    ("The fee is $40.", "$40", "The club raised it to $55 for everyone else.", "$55"),
    ("The release is v3.2.", "v3.2", "Changelog for v3.1 mentions the fix too.", "v3.1"),
])
def test_a_change_for_others_or_a_report_s_source_is_not_the_user_s(
        held: str, old: str, said: str, theirs: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "current"
    assert _not_current(ledger, theirs)


def test_a_report_that_gives_a_value_still_states_it() -> None:
    ledger = user_ledger("The docs for v3.1 say port 8080.")
    assert status_of(ledger, "8080") == "current"


@pytest.mark.parametrize(("held", "said", "theirs", "ours"), [
    ("The docs say the port is 8444.", "Typo in the docs: they say 8444 but our port is 8443.",
     "8444", "8443"),
    ("The lunch is $9.", "The menu says $12 but our price is $10.", "$12", "$10"),
])
def test_a_report_the_user_sets_against_is_not_current(held: str, said: str, theirs: str,
                                                       ours: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, ours) == "current"
    assert _not_current(ledger, theirs)
