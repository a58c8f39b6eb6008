"""Issue 28: a correction that names its old value ("not Y but X", "from Y to X") replaces
only that value. The correction is read as soon as it is said, the statements before it
only when they are compacted: a value of the same unit read then is not what it replaced
(the tasting date stays when the pick-up date moves), unless it is the named value in other
words ("MySQL 8.0" of "instead of MySQL", "Kubernetes 1.27" of "Version 1.27")."""

from __future__ import annotations

from ollm_desktop.engine import facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import Message
from tests.engine_fakes import fact_of, value_of


def _correction_read_first(earlier: list[str], correction: str) -> list[Fact]:
    """The ledger when ``correction`` (the last turn) is read before the ``earlier`` user
    messages, as the chat does: a correction at once, the rest at compaction (where the
    correction is read again)."""
    ledger: list[Fact] = []
    last = len(earlier) + 1
    message = Message(role="user", content=correction)
    facts.absorb(ledger, message, last)
    for turn, text in enumerate(earlier, start=1):
        facts.absorb(ledger, Message(role="user", content=text), turn)
    facts.absorb(ledger, message, last)
    return ledger


def test_a_named_old_date_leaves_another_date_read_later_current() -> None:
    ledger = _correction_read_first(
        ["The venue deposit is due 2027-04-02.", "The final payment is due 2027-05-10."],
        "Not 2027-04-02 but 2027-04-09, the venue wrote.")
    assert fact_of(ledger, "2027-05-10").status == "current"
    old = fact_of(ledger, "2027-04-02")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "2027-04-09"


def test_a_named_old_percentage_leaves_the_other_percentages_current() -> None:
    ledger = _correction_read_first(
        ["Tips are split 60% kitchen and 40% floor.", "Card fees take 2% off the top."],
        "We moved it from 60% to 55%, kitchen asked.")
    assert fact_of(ledger, "40%").status == "current"
    assert fact_of(ledger, "2%").status == "current"
    assert value_of(ledger, fact_of(ledger, "60%").replaced_by) == "55%"


def test_a_bare_named_name_still_replaces_the_versioned_value_read_later() -> None:
    ledger = _correction_read_first(["The orders service runs on MySQL 8.0."],
                                    "Let's use Postgres instead of MySQL for orders.")
    assert fact_of(ledger, "MySQL 8.0").status == "replaced"


def test_a_named_version_still_replaces_the_same_number_under_its_product() -> None:
    ledger = _correction_read_first(["The cluster runs Kubernetes 1.27."],
                                    "Version 1.27 is wrong, the cluster's actual version "
                                    "is 1.29.")
    kubernetes = fact_of(ledger, "Kubernetes 1.27")
    assert kubernetes.status == "replaced" or kubernetes.possibly_replaced_by is not None


def test_a_labelled_number_read_later_is_the_named_old_number() -> None:
    ledger = _correction_read_first(["Run config: gradient accumulation 16, warmup 500 steps."],
                                    "grad accum is 32 not 16")
    assert value_of(ledger, fact_of(ledger, "accumulation 16").replaced_by) == "32"
    assert fact_of(ledger, "500 steps").status == "current"


def test_another_date_of_the_same_day_number_is_not_the_named_old() -> None:
    ledger = _correction_read_first(
        ["Milestones: thesis draft by 30 June, submission 30 September."],
        "Draft is due 14 July, not 30 June.")
    submission = fact_of(ledger, "30 September")
    assert submission.status == "current" and submission.replaced_by is None


def test_a_named_old_date_written_another_way_is_still_replaced() -> None:
    ledger = _correction_read_first(["Pick-up is on 19 December 2026."],
                                    "Pick-up not 2026-12-19 but 2026-12-18.")
    assert value_of(ledger, fact_of(ledger, "19 December 2026").replaced_by) == "2026-12-18"


def test_a_named_old_time_on_another_clock_is_still_replaced() -> None:
    ledger = _correction_read_first(["The meeting is at 15:00."],
                                    "The meeting is not at 3pm but at 4pm.")
    assert fact_of(ledger, "15:00").status == "replaced"


def test_a_named_old_percentage_in_words_is_still_replaced() -> None:
    ledger = _correction_read_first(["The discount is 10 percent."],
                                    "The discount goes from 10% to 20%.")
    assert fact_of(ledger, "10 percent").status == "replaced"


def test_a_named_correction_still_replaces_another_value_of_its_own_key() -> None:
    ledger = _correction_read_first(["The discount is 15%."],
                                    "The discount goes from 10% to 20%.")
    assert value_of(ledger, fact_of(ledger, "15%").replaced_by) == "20%"
