"""Issue 28: a user's statement that names a value the user gave before, beside one new value
written the same way, possibly replaces it ("Port 8443 is out, we are on 9443" left 8443 the
current port and read no 9443 at all). Never silently: the earlier value is marked "possibly
replaced" and the new one takes its key. A question, a condition, a suggestion, a list or
range, a value of another key, or a sentence that states the earlier value again for its
owner changes nothing."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import facts_render
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The API listens on port 8443.", "Port 8443 is out, we are on 9443.", "8443", "9443"),
    ("The API listens on port 8443.", "Replace 8443 with 9443 in the config.", "8443", "9443"),
    ("The API listens on port 8443.", "8443 was wrong, use 9443.", "8443", "9443"),
])
def test_a_named_value_beside_a_new_one_of_its_shape_is_possibly_replaced(
        before: str, after: str, old: str, new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    earlier = fact_of(ledger, old)
    assert earlier.status == "current"  # never replaced silently
    assert value_of(ledger, earlier.possibly_replaced_by) == new
    later = fact_of(ledger, new)
    assert later.status == "current" and later.source == "user"
    assert later.key == earlier.key  # one key: one line, the older beside it as replaced
    text = facts_render.render(ledger, compacted={f.message_id or "" for f in ledger},
                               quoted=set(), budget=400, count=len).text
    line = next(line for line in text.splitlines() if new in line)
    assert old in line and "possibly replaced" in line  # "port: 9443 (possibly replaced 8443)"
    assert not any(old in other and new not in other for other in text.splitlines())


@pytest.mark.parametrize("after", [
    "If 8443 is taken, use 9443.",  # a condition
    "What if we moved 8443 to 9443.",  # a hypothetical without its question mark
    "Should we use 9443 and not 8443?",  # a question
    "Maybe use 9443 rather than 8443.",  # a suggestion
    "Ports 8443 and 9443 are both open.",  # a list
    "The scan covers 8443-9443.",  # a range
    "The API stays on 8443 and I opened 9443 for metrics.",  # stated again for its owner
    "8443 and 9443 or 9444 are the ones I tried.",  # two new values: which one?
])
def test_a_value_named_without_a_change_stays_current(after: str) -> None:
    ledger = absorbed(("user", "The API listens on port 8443."), ("user", after))
    earlier = fact_of(ledger, "8443")
    assert earlier.status == "current" and earlier.possibly_replaced_by is None


def test_a_new_value_of_another_key_takes_nothing_back() -> None:
    ledger = absorbed(("user", "The API listens on port 8443. The admin UI is on port 9443."),
                      ("user", "Next to 8443 the admin UI keeps 9443."))
    assert fact_of(ledger, "8443").possibly_replaced_by is None


def test_a_reply_never_takes_the_users_value_back() -> None:
    ledger = absorbed(("user", "The API listens on port 8443."),
                      ("assistant", "Port 8443 is out, we are on 9443."))
    assert fact_of(ledger, "8443").possibly_replaced_by is None


@pytest.mark.parametrize(("before", "after", "old"), [
    # a count or a measure of another noun beside the port
    ("The API listens on port 8443.", "Port 8443 handles 500 requests per second.", "8443"),
    ("The API listens on port 8443.", "The service on 8443 runs in 3 containers.", "8443"),
    # one clause that links the two values: a relation, no change
    ("The API listens on port 8443.", "8443 forwards to 9443 internally.", "8443"),
    ("The API listens on port 8443.", "8443 served 9443 requests yesterday.", "8443"),
    ("The API listens on port 8443.", "8443 is not being replaced by 9443.", "8443"),
    # a sentence that says when, not what holds
    ("The API listens on port 8443.", "When 8443 is busy, 9443 takes the traffic.", "8443"),
    # two clauses in parallel, each with its own value
    ("The first session is on March 3.", "March 3 is a Sunday, March 4 is a Monday.", "March 3"),
    ("The app is on React 17.", "React 17 works, React 18 broke our tests.", "React 17"),
    # another named owner, or the new value naming another key
    ("The API is on port 8443 and Grafana is on port 3000.",
     "Grafana on 3000 talks to the API on 9443.", "3000"),
    ("The API listens on port 8443.", "Keep 8443 for the API; 9443 is for Grafana.", "8443"),
])
def test_values_beside_each_other_without_a_change_stay_current(before: str, after: str,
                                                                old: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    earlier = fact_of(ledger, old)
    assert earlier.status == "current" and earlier.possibly_replaced_by is None


def test_a_decision_that_names_the_value_is_kept() -> None:
    ledger = absorbed(("user", "The API listens on port 8443."),
                      ("user", "Decision: 8443 stays for the API with 4 workers."))
    assert any(f.kind == "decision" for f in ledger)
    assert fact_of(ledger, "8443").possibly_replaced_by is None


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The budget is $500.", "$500 won't cut it, make it $650.", "$500", "$650"),
    ("The flight is LH 400.", "LH 400 got cancelled, rebooked on LH 402.", "LH 400", "LH 402"),
    ("The sync is at 3pm.", "3pm got bumped, it's 4pm.", "3pm", "4pm"),
])
def test_everyday_swaps_are_marked(before: str, after: str, old: str, new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert value_of(ledger, fact_of(ledger, old).possibly_replaced_by) == new
