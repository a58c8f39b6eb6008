"""Changes requested of others, proposed, wished or titled as a proposal (issue 28, stop 42).

A request to someone else ("the parties asked the judge to delay it"), a proposal's noun
before its infinitive ("a proposal to raise it"), a plan of a change or another's wish ("we
are planning to migrate to Postgres", "my wife wants to move it"), a wrapped line ("I
suggest we\\nstart at 20:00") and an issue's title over a text that says it proposes
("Switch to pnpm\\nI would recommend ...") set no value. Each negative plays a user's fact
and the message through the ledger's own rules (``current_values``); the sentences are new
words, not the corpus's, and each negative failed on 66ee2e9. The corrections beside them
(same words, decided) must still apply.
"""

from __future__ import annotations

from ollm_desktop.engine import fact_message_lines as lines
from ollm_desktop.engine import fact_mood_proposed as proposed
from ollm_desktop.engine.fact_words import tokens_of
from tests.fact_ledger import by_form, check_after

# (form, the earlier fact, the message that must replace nothing, the value that stays, the
# message's value that must not become current)
NEGATIVES = [
    ("a request of another, with its object", "The hearing is on June 4.",
     "The defence has asked the court to postpone the hearing to June 18.", "June 4", "June 18"),
    ("a request of another, no object", "The deadline is February 20.",
     "The client has asked to push the deadline to March 3.", "February 20", "March 3"),
    ("a request for, with a parenthesis", "The library closes at 6 p.m.",
     "The staff have asked for a later closing on Fridays (until 8 p.m.) this term.",
     "6 p.m.", "8 p.m."),
    ("a proposal's noun and its appositive", "The pool entry fee is $4.",
     "The board will vote on a proposal to raise the pool entry fee to $5, an increase of $1.",
     "$4", "$5"),
    ("a petition's noun", "The rent is $1,200.",
     "There's a petition to cut the rent to $1,000.", "$1,200", "$1,000"),
    ("a first-person plan of a change", "The deadline is February 20.",
     "We're planning to move the deadline to March 3.", "February 20", "March 3"),
    ("another's wish of a change", "The party is on Saturday.",
     "My wife wants to move the party to Sunday.", "Saturday", "Sunday"),
    ("another's wish, a participle", "The deadline is February 20.",
     "my boss wants the deadline moved to March 3", "February 20", "March 3"),
    ("a wrapped line's proposal", "The meeting is at 19:05.",
     "Since we can stay late, I suggest we\nstart the meeting at 20:00.", "19:05", "20:00"),
    ("a proposal's title, a first person recommends", "The timeout is 30 s.",
     "Raise the timeout to 60 s\nI would recommend this since the batch jobs run long.",
     "30 s", "60 s"),
    ("a proposal's title, a proposal's noun", "The quota is 10GB.",
     "Increase the quota to 20GB\n\nMy proposal is to double it for paying users.",
     "10GB", "20GB"),
    ("a proposal's title, a condition", "The minimum Node version is 18.",
     "Bump the minimum Node version to 20\nContingent on the team agreeing to drop Node 18.",
     "18", "20"),
    ("a proposal's title, a change argued for", "Our database is SQLite.",
     "Switch from SQLite to Postgres\nSwitching to Postgres would fix the lock timeouts.",
     "SQLite", "Postgres"),
    ("a change argued for by its effect", "The build uses Maven.",
     "Moving the build to Gradle should cut the build time in half.", "Maven", "Gradle"),
    ("items listed under a title of suggestions", "The timeout is 30 s.",
     "Some suggestions for the cluster\n\n1. Bump the timeout to 45 s\n2. Add a replica",
     "30 s", "45 s"),
    ("a motion moved", "The residents' association meets on Wednesdays.",
     "At the AGM, Priya moved that the association move its meetings from Wednesdays to "
     "Thursdays.", "Wednesdays", "Thursdays"),
    ("a change made possible", "The admin panel listens on port 8000.",
     "The new release allows admins to change the admin panel port to 8443.", "8000", "8443"),
    ("a first-person opinion of what should be done", "The pool closes at 6 PM.",
     "I believe the pool should stay open until 9 PM.", "6 PM", "9 PM"),
    ("a first-person opinion, we should", "The retro is on Thursday.",
     "I think we should move the retro to Friday", "Thursday", "Friday"),
]


@by_form(("form", "fact", "message", "kept", "never"), NEGATIVES)
def test_negative_sets_nothing(form: str, fact: str, message: str, kept: str,
                               never: str) -> None:
    check_after(fact, message, kept, never, form)


# (form, the earlier fact, the correction, the new value, the old value)
CORRECTIONS = [
    ("an instruction the speaker follows", "The refresh token lasts 14 days.",
     "Security asked us to cut the refresh token from 14 days to 7 days.", "7 days", "14 days"),
    ("the speaker's own request, subject dropped", "The rent is debited on the 1st.",
     "Asked the bank to change the rent debit to the 3rd of each month.", "3rd", "1st"),
    ("a granted proposal", "The class starts at 9:00.",
     "The plan to move the class to 9:30 was approved.", "9:30", "9:00"),
    ("a request granted, its grant first", "The budget is $5,000.",
     "The board approved the request to raise the budget to $6,000.", "$6,000", "$5,000"),
    ("a change announced with its effect", "The standup is at 9:30.",
     "Moving the standup from 9:30 to 10:00 will help the people in Lisbon.", "10:00", "9:30"),
    ("the speaker's directive, a participle", "The port is 8443.",
     "I want the port changed to 9443", "9443", "8443"),
    ("the speaker's want of a change", "The budget is $5,000.",
     "I want to increase the budget to $6,000.", "$6,000", "$5,000"),
    ("the team's want of a change", "The standup is at 9:30.",
     "We want to move the standup to 10:00.", "10:00", "9:30"),
    ("a bare imperative in a chat", "The timeout is 30 s.", "Bump the timeout to 45 s",
     "45 s", "30 s"),
    ("a meeting moved, 'that' a determiner", "The review is on Monday.",
     "We moved that review to Tuesday.", "Tuesday", "Monday"),
    ("a list under a title that proposes nothing", "The timeout is 30 s.",
     "Changes for the cluster\n\n1. Bump the timeout to 45 s\n2. Add a replica", "45 s",
     "30 s"),
    ("a title over a body that proposes nothing", "The timeout is 30 s.",
     "Bump the timeout to 45 s\nthe batch jobs keep failing.", "45 s", "30 s"),
    ("let's, instead of", "The database is MySQL.", "Let's use Postgres instead of MySQL",
     "Postgres", "MySQL"),
    ("a change said with we're", "The standup is at 9:30.",
     "We're moving the standup from 9:30 to 10:00", "10:00", "9:30"),
    ("an opinion of what the value is", "The port is 8443.",
     "I think the port should be 9443, not 8443", "9443", "8443"),
    ("a wish of an amount moved, no target", "I move $300 into the index fund every month.",
     "I want to move $500 into the index fund every month.", "$500", "$300"),
]


@by_form(("form", "fact", "message", "new", "old"), CORRECTIONS)
def test_correction_still_applies(form: str, fact: str, message: str, new: str,
                                  old: str) -> None:
    check_after(fact, message, new, old, form)


def _marks(sentence: str) -> list[str]:
    tokens = tokens_of(sentence, [])
    return [" ".join(t.word for t in tokens[a:b])
            for a, b, _ in proposed.proposed_marks(tokens, 0, len(tokens))]


def test_marks_run_from_the_request_to_the_clause_end() -> None:
    assert _marks("the parties asked the judge to delay it, and the clerk filed it") == [
        "asked the judge to delay it"]
    assert _marks("I asked them to delay it") == []  # the speaker's own request
    assert _marks("they asked us to delay it") == []  # an instruction the speaker follows
    assert _marks("the airline asked passengers to arrive early") == []  # no change verb


def test_unwrapped_joins_only_a_line_that_cannot_end() -> None:
    assert lines.unwrapped("I suggest we\nstart at 8") == "I suggest we start at 8"
    assert lines.unwrapped("port: 9443\nhost: db1") == "port: 9443\nhost: db1"
    # a capital or a figure goes on only after a word that takes an object (stop 43)
    assert lines.unwrapped("Move it to\nTuesday") == "Move it to Tuesday"
    assert lines.unwrapped("I suggest we\nStart at 8") == "I suggest we\nStart at 8"
    assert lines.unwrapped("Move it to\n- Tuesday") == "Move it to\n- Tuesday"


def test_proposal_title_needs_the_text_to_say_it_proposes() -> None:
    assert lines.proposal_title("Switch to pnpm\nI'd suggest it for speed.") == "Switch to pnpm"
    assert lines.proposal_title("[Feature request] port 8080\nWould be nice.") != ""
    assert lines.proposal_title("Switch to pnpm\nIt is faster.") == ""
    assert lines.proposal_title("Switch to pnpm, I suggest") == ""  # one line: no title
    assert lines.proposal_title("Switch to pnpm.\nI suggest it.") == ""  # a closed sentence
