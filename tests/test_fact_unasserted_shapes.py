"""Shapes of real text that state no current value (issue 28, stop 39 round 2): a negated
change, a question asked by a wh-word before an inverted auxiliary with no "?", a leading
"say" that supposes, and an existential deliberation or choice in the plural.

New words across domains, not the corpus's; each negative failed on b3cb681. The
corrections beside them (the same shapes, asserted) must still apply.
"""

from __future__ import annotations

from tests.fact_ledger import by_form, check_after

# (form, the earlier fact, the message that must replace nothing, the value that stays, the
# message's value that must not become current)
NEGATIVES = [
    ("no plans to change", "The yoga class is at 18:00.",
     "We have no plans to move the yoga class to 19:30.", "18:00", "19:30"),
    ("not -ing a change", "The dentist appointment is on 4 May.",
     "I am not moving the dentist appointment to 11 May.", "4 May", "11 May"),
    ("won't change", "The Wi-Fi channel is 6.", "We won't switch the Wi-Fi channel to 11.",
     "6", "11"),
    ("never changed", "The invoice due date is 30 June.",
     "Accounting never pushed the invoice due date to 15 July.", "30 June", "15 July"),
    ("no intention to change", "The membership fee is £40.",
     "There is no intention to raise the membership fee to £55.", "£40", "£55"),
    ("don't change", "The timeout is 30 seconds.",
     "Please don't lower the timeout to 10 seconds.", "30 seconds", "10 seconds"),
    ("a leading don't", "The Wi-Fi channel is 6.", "Don't switch the Wi-Fi channel to 11.",
     "6", "11"),
    ("a wh-question with no question mark", "The disk quota is 20GB.",
     "How can I raise the disk quota from 20GB to 50GB", "20GB", "50GB"),
    ("a title-cased wh-question", "The batch size is 64.",
     "How Do I Change The batch size from 64 to 128", "64", "128"),
    ("a leading say before a noun phrase", "Book club meets on Wednesday.",
     "Say the 12th and the 26th of each month.", "Wednesday", "12th"),
    ("existential discussions", "The reunion venue is the Grand Hotel.",
     "There are discussions about moving the reunion to the Old Mill Inn.", "Grand Hotel",
     "Old Mill Inn"),
    ("existential options", "The team offsite is in Porto.",
     "There are several options, like holding the offsite in Valencia.", "Porto", "Valencia"),
]


@by_form(("form", "fact", "message", "current", "never"), NEGATIVES)
def test_an_unasserted_shape_replaces_nothing(form: str, fact: str, message: str,
                                             current: str, never: str) -> None:
    check_after(fact, message, current, never, form)


# (form, the earlier fact, the correction, the new value, the old value)
CORRECTIONS = [
    ("a negated old beside a made change", "The yoga class is at 18:00.",
     "We didn't keep 18:00, we moved the yoga class to 19:30.", "19:30", "18:00"),
    ("not this but that, after a negated change", "The team offsite is in Porto.",
     "We didn't move the offsite to Lisbon but to Valencia.", "Valencia", "Porto"),
    ("don't forget to change: an implicative verb", "The Wi-Fi channel is 6.",
     "Don't forget to switch the Wi-Fi channel to 11.", "11", "6"),
    ("X, not Y", "The Wi-Fi channel is 6.", "The Wi-Fi channel is 11, not 6.", "11", "6"),
    ("a negated change, then the made one", "The team offsite is in Porto.",
     "We won't move the offsite to Lisbon, we'll move it to Valencia instead.", "Valencia",
     "Porto"),
    ("a wh-clause that is no question", "The disk quota is 20GB.",
     "When we upgraded the plan, the disk quota went from 20GB to 50GB.", "50GB", "20GB"),
    ("they say reports", "The batch size is 64.",
     "They say the batch size is 128 now.", "128", "64"),
]


@by_form(("form", "fact", "message", "new", "old"), CORRECTIONS)
def test_an_asserted_change_still_applies(form: str, fact: str, message: str, new: str,
                                          old: str) -> None:
    check_after(fact, message, new, old, form)
