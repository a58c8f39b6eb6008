"""Mood decides (issue 28, point 3): a clause that does not assert a current value replaces
nothing, and the clause that does assert in a mixed message still counts.

Each case plays a user's fact, a reply and a user's message through the ledger's own rules
(``current_values``, the scorer's view) and checks what is current afterwards. The sentences
are new words, not the corpus's; every test of a mood form failed on d625f2c.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_mood import clauses, read_moods
from ollm_desktop.engine.fact_words import tokens_of
from tests.fact_ledger import by_form, check_after

# (form, the earlier fact, the message that must replace nothing, the value that stays, the
# message's value that must not become current)
NEGATIVES = [
    ("conditional, leading", "The launch is on June 3.",
     "Unless QA signs off in time, in which case we ship on June 10.", "June 3", "June 10"),
    ("conditional, trailing", "The retro is on Wednesday.",
     "We'll move the retro to Thursday if the sprint slips.", "Wednesday", "Thursday"),
    ("reported, belief verb of someone else", "The contractor day rate is €650.",
     "A colleague claims the going day rate is €720 for contractors.", "€650", "€720"),
    ("reported, hearsay", "The offsite venue is Hall B.",
     "I heard the offsite venue is Hall D now.", "Hall B", "Hall D"),
    ("past habitual with its before-time", "We deploy on Fly.io.",
     "We used to deploy on Heroku back in 2021.", "Fly.io", "Heroku"),
    ("past state of a former owner", "Our broker is Meridian.",
     "The previous tenants were with Harbor Mutual, so some mail still comes for them.",
     "Meridian", "Harbor Mutual"),
    ("undecided, a bare doubt beside it", "The cluster has 6 nodes.",
     "We're considering 9 nodes for the cluster, no decision yet.", "6 nodes", "9 nodes"),
    ("undecided, an embedded whether", "The offsite is in Lisbon.",
     "Still deciding whether to hold the offsite in Porto; will know Friday.", "Lisbon",
     "Porto"),
    ("tentative, not sure yet", "The standup is at 9:45.",
     "The standup moves to 10:30, not sure yet.", "9:45", "10:30"),
    ("suggestion, a tentative verb", "The cache runs Redis.",
     "I'm tempted to move the cache to Valkey at some point.", "Redis", "Valkey"),
    ("hypothetical, let's say", "The budget is €60k.",
     "Let's say the budget goes to €80k next year.", "€60k", "€80k"),
    ("question, an embedded whether", "The DB port is 5432.",
     "Wondering whether the DB should move to port 5434.", "5432", "5434"),
    ("question, a tag without its question mark", "The ceremony starts at 14:00.",
     "The ceremony starts at 14:30 now, doesn't it", "14:00", "14:30"),
    ("modal after its subject's value", "The pool size is 20.",
     "A pool of 40 connections would cope better, though it may cause retries.", "20",
     "40 connections"),
]


@by_form(("form", "fact", "message", "current", "never"), NEGATIVES)
def test_a_clause_that_asserts_nothing_replaces_nothing(form: str, fact: str, message: str,
                                                        current: str, never: str) -> None:
    check_after(fact, message, current, never)


def test_the_asserting_clause_of_a_mixed_message_still_corrects() -> None:
    check_after("The deadline is Thursday.",
                "If the vendor agrees, fine; either way the deadline is now Friday.",
                "Friday", "Thursday")


def test_a_correction_beside_a_hedge_in_one_sentence_applies() -> None:
    check_after("The API port is 8443.",
                "We might add a cache later; the API port is now 9443, not 8443.", "9443", "8443")


def test_a_condition_about_the_listener_leaves_its_main_clause_stating() -> None:
    check_after("The API port is 8443.", "If anyone asks, the API port is 9443 now, not 8443.",
                "9443", "8443")


def test_a_concessive_if_and_a_plain_report_still_state() -> None:
    """Guards (these held on d625f2c too): "even if" does not make its main clause
    conditional, and the user relaying a plain report states the value."""
    check_after("The picnic is on Saturday.",
                "Even if it rains, the picnic is on Sunday instead of Saturday.", "Sunday",
                "Saturday")
    check_after("Departure is 06:40.", "The airline says departure is 07:25 now, not 06:40.",
                "07:25", "06:40")


def test_clauses_keep_a_corrections_shape_whole_and_cut_at_a_new_subject() -> None:
    sentence = "The port is 9443, not 8443, though Dana thinks it might move"
    values = [(12, 16, "9443", "port"), (22, 26, "8443", "port")]
    tokens = tokens_of(sentence, values)
    cut = [" ".join(t.word or "#" for t in tokens[a:b]) for a, b, _ in clauses(tokens, 0)]
    assert cut == ["the port is # , not # ,", "though dana thinks it might move"]
    moods = read_moods(sentence, tokens, 0, "user")
    assert moods.mood == "statement"
    assert moods.mood_at(12) == "statement"
    assert moods.mood_at(sentence.index("it might")) == "reported"
