"""The names round narrowed (issue 28, stop 50 review): a failed name is the old value of a
new name only as its clause's subject, not after a preposition nor another's possessive, and
never of a pastime's object nor of an acronym post ("Marco is PM now"); someone else's ending
("my parents killed Netflix") and "still X" replace nothing; a post beside another post of
one owner, or a part of a post ("on the night shift only"), takes nothing over; "it's on X
now" is the keyed thing's before it, and "they're X now" is no name of the user's. Each chat
reads as on main (or better); the names round's gains stay (tests/test_fact_names50.py)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_failed_olds import failed_olds
from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import replaced_by_map, stated_status


def _chat(said: str, later: str) -> dict[str, str]:
    return replaced_by_map(absorbed(("user", said), ("assistant", "Noted."), ("user", later)))


def _kept(said: str, later: str, value: str) -> str | None:
    return stated_status(absorbed(("user", said), ("assistant", "Noted."), ("user", later)),
                         value)


@pytest.mark.parametrize(("said", "later", "kept"), [
    # W1: a failed name paired with a new name of another key
    ("Our lawyer is Ms. Hale.", "Ms. Hale retired, I'm reading Dune now.", "Ms. Hale"),
    ("My doctor is Dr. Patel.", "Dr. Patel's nurse retired, the new nurse is Jane now.",
     "Dr. Patel"),
    ("The hotel is Granvia.", "The restaurant at Granvia closed, we eat at Nobu now.",
     "Granvia"),
    ("Our PM is Dana.", "Dana left, Spain was calling. Marco is PM now.", "Dana"),
    ("Our accountant is Mr. Lund.", "Mr. Lund retired, I'm watching Severance now.",
     "Mr. Lund"),
    ("The gym is Iron Temple.", "The cafe at Iron Temple closed, we grab coffee at Bluebird "
     "now.", "Iron Temple"),
    ("Our CTO is Helen.", "Helen left for good. Omar is CTO now.", "Helen"),
    ("Our coach is Ben Ortiz.", "Ben quit, Ana is QA now.", "Ben Ortiz"),
    # W2: someone else's ending, "still X"
    ("Our streaming service is Netflix.", "My parents killed Netflix, they watch Hulu now.",
     "Netflix"),
    ("Our manager is Tom Reyes.",
     "Tom was replaced by Priya Shah in the play, our manager is still Tom.", "Tom Reyes"),
    ("The meeting room is Orion.", "Bye Orion, hello Vega! (just kidding, still Orion)",
     "Orion"),
    ("Our music app is Spotify.", "My sister dumped Spotify, she listens on Tidal now.",
     "Spotify"),
    ("The venue is Riverside Hall.",
     "Bye Riverside Hall, hello Oak Barn! just kidding, still Riverside Hall", "Riverside Hall"),
    ("Our coach is Ben Ortiz.",
     "Ben was replaced by Luis Vega in the movie, our coach is still Ben.", "Ben Ortiz"),
    # W3: a part of a post
    ("Our team lead is Sam.", "Priya took over from Sam on the night shift only.", "Sam"),
    ("Our shift supervisor is Mo.", "Kim took over from Mo on weekends only.", "Mo"),
    ("Our shift supervisor is Mo.", "Kim took over from Mo for the night shift.", "Mo"),
    ("Our shift supervisor is Mo.", "Kim took over from Mo in March only.", "Mo"),
    # W4: "it's on X now" beside a keyed thing, "they're X now"
    ("We use Trello.", "Rebuilt the blog in Hugo and it's on Netlify now.", "Trello"),
    ("Our quiz team is Brainiacs.", "They're the Quizzly Bears now, the other team.",
     "Brainiacs"),
    ("We use Jira.", "Moved the docs to MkDocs and it's on Vercel now.", "Jira"),
    ("Our band is The Echoes.", "They're the Night Owls now, the band next door.",
     "The Echoes"),
])
def test_a_name_of_another_key_or_another_s_replaces_nothing(said: str, later: str,
                                                              kept: str) -> None:
    assert kept not in _chat(said, later)
    assert _kept(said, later, kept) == "current"


@pytest.mark.parametrize(("said", "later", "old"), [
    # W1: the failed name after another's possessive is no old value of the new name; at
    # most possibly replaced, as on main
    ("Our dentist is Dr. Ames.",
     "My mom's dentist Dr. Ames moved away, since Monday she sees Dr. Cho.", "Dr. Ames"),
    # W3: another post of one owner is at most possibly the same key
    ("The billing revamp PM is Ravi.", "Ana took over as QA lead on the billing revamp.",
     "Ravi"),
    ("The checkout redesign PM is Lena.", "Omar took over as UX lead on the checkout redesign.",
     "Lena"),
])
def test_another_s_name_or_another_post_is_not_replaced(said: str, later: str,
                                                        old: str) -> None:
    assert old not in _chat(said, later)


@pytest.mark.parametrize("text", [
    "My mom's dentist Dr. Ames moved away, since Monday she sees Dr. Cho.",
    "My dad's dentist Dr. Shaw retired, so he's with Dr. Lim now.",
    "My aunt's vet Dr. Kerr quit, she switched to Dr. Ngo.",
    "The restaurant at Granvia closed, we eat at Nobu now.",
    "The cafe at Iron Temple closed, we grab coffee at Bluebird now.",
    "Dr. Patel's nurse retired, the new nurse is Jane now.",
    "Olive Tree's van broke down, we hired Saffron Kitchen instead.",
    "My parents killed Netflix, they watch Hulu now.",
    "her boss axed Slack, they're on Teams now",
])
def test_a_name_not_the_failing_one_is_no_old_value(text: str) -> None:
    assert not [f for f in failed_olds(message_facts(text), text, "user") if f.old]


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # the round's gains, with the words the narrowing reads
    ("Our plumber is Hughes.", "our plumber Hughes retired, we hired Brightwater now.",
     "Hughes", "Brightwater"),
    ("The restaurant is Nobu.", "Nobu closed, we eat at Zuma now.", "Nobu", "Zuma"),
    ("Our shift supervisor is Mo.", "Kim took over from Mo on Monday.", "Mo", "Kim"),
    ("Luna's vet is Dr. Alvarez.", "Dr. Alvarez retired! she's seeing Dr. Okafor now",
     "Dr. Alvarez", "Dr. Okafor"),
    ("Our team chat is Slack.", "our team killed Slack, we're on Teams now", "Slack", "Teams"),
])
def test_the_round_s_changes_still_replace(said: str, later: str, old: str, new: str) -> None:
    assert _chat(said, later).get(old) == new


def test_it_s_on_x_now_takes_the_keyed_thing_s_key() -> None:
    ledger = absorbed(("user", "We use Trello."), ("assistant", "Noted."),
                      ("user", "Rebuilt the blog in Hugo and it's on Netlify now."))
    assert stated_status(ledger, "Netlify") == "current"
    assert stated_status(ledger, "Trello") == "current"
