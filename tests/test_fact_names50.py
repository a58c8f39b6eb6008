"""Names and noun phrases as the new value of a change (issue 28, stop 50): a person who left
beside the one who took the post over, a name seen off ("bye WordPress"), a post held "now"
("Bea leads the altos now"), a title's name over its small words ("it's Ticket to Ride now",
"it's called Harbor & Vine now"), and "renamed it to X". Each replaces the user's earlier
value; a question, a condition, a suggestion or another's news replaces nothing."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import replaced_by_map, stated_status


def _chat(said: str, later: str, reply: str = "Noted.") -> dict[str, str]:
    return replaced_by_map(absorbed(("user", said), ("assistant", reply), ("user", later)))


def _kept(said: str, later: str, value: str, reply: str = "Noted.") -> str | None:
    return stated_status(absorbed(("user", said), ("assistant", reply), ("user", later)), value)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # a leaver (left, retired, stepped down, got sick, cancelled on us) beside the new holder
    ("Our PM on the billing revamp is Dana Whitfield.",
     "Dana left for another team, Marcus Lee took over as PM on billing revamp",
     "Dana Whitfield", "Marcus Lee"),
    ("The lead on the checkout redesign is Ana Costa.",
     "Ana left the company, Li Wei took over as lead on the checkout redesign",
     "Ana Costa", "Li Wei"),
    ("Our treasurer is Bob Smith.", "Bob resigned last week. Carla Diaz took over as treasurer.",
     "Bob Smith", "Carla Diaz"),
    ("The CTO is Helen Park.", "Helen retired in May. Omar Haddad took over as CTO",
     "Helen Park", "Omar Haddad"),
    ("We're staying at Hotel Miramar in Split, 5 nights.",
     "Miramar cancelled on us, so we booked Casa Lavanda instead.",
     "Hotel Miramar", "Casa Lavanda"),
    ("The caterer is Olive Tree.", "Olive Tree went out of business, we hired Saffron "
     "Kitchen instead", "Olive Tree", "Saffron Kitchen"),
    # a name typed in lower case at its sentence's start
    ("plumber for the bathroom reno is Hughes Plumbing",
     "hughes ghosted us. hired Brightwater Plumbing, starting the 9th", "Hughes Plumbing",
     "Brightwater Plumbing"),
    ("My dog walker is Sam.", "sam flaked again, so Rosa is our dog walker now", "Sam", "Rosa"),
    # a name stepping in for the failed one, "X is V-ing instead"
    ("babysitter for friday: Hannah", "hannah cancelled, her sister Jess is coming instead",
     "Hannah", "Jess"),
    ("The driver for the trip is Omar.", "Omar is sick, so Lena is driving instead", "Omar",
     "Lena"),
    # "his / her name is X": the name of the one thing named before (it refers back)
    ("My new manager is Jessica Tran, starting Monday",
     "her name is actually Jennifer Tran, I had the wrong email open. tips yes",
     "Jessica Tran", "Jennifer Tran"),
    ("Our new puppy is Biscuit.", "sorry, his name is actually Waffles", "Biscuit", "Waffles"),
    # "X took over from Y": no post named, Y's
    ("Our accountant is Tom Reyes.", "Priya Shah took over from Tom last month", "Tom Reyes",
     "Priya Shah"),
    ("My GP is Dr. Brennan.", "Dr. Oyelaran took over from Dr. Brennan.", "Dr. Brennan",
     "Dr. Oyelaran"),
    # a post held "now" by a verb of holding it
    ("choir: soprano section leader is Greta, alto section leader is Yvonne",
     "Yvonne stepped down, Bea leads the altos now", "Yvonne", "Bea"),
    ("The book club host is Maria.", "Maria's away, so Jules hosts the book club now",
     "Maria", "Jules"),
    ("choir: soprano section leader is Greta, alto section leader is Yvonne",
     "Bea is leading the altos now", "Yvonne", "Bea"),
    ("The book club host is Maria.", "Jules is now hosting the book club", "Maria", "Jules"),
    # a name seen off or ended, beside the new one
    ("team chat is on Slack",
     "leadership killed Slack to save money, we're all on Microsoft Teams since Monday",
     "Slack", "Microsoft Teams"),
    ("My bank is Chase.", "we moved everything to Ally. Bye Chase!", "Chase", "Ally"),
    ("Our gym is Iron Temple.", "cancelled Iron Temple, I'm at Forge Fitness now",
     "Iron Temple", "Forge Fitness"),
    # the passive of replacing
    ("Our accountant is Tom Reyes.", "Tom was replaced by Priya Shah", "Tom Reyes",
     "Priya Shah"),
    # two products in the finders' class shape ("SQLite", "MySQL")
    ("We use SQLite", "Switched to MySQL (cheaper!)", "SQLite", "MySQL"),
    ("Our docs live in WordPress.", "we moved them, it's GitBook now", "WordPress", "GitBook"),
    # a title's name over its small words, "it's (called / now) X now"
    ("game night this friday: we're playing Catan",
     "people voted, it's Ticket to Ride now. Catan's getting a rest", "Catan",
     "Ticket to Ride"),
    ("Our gym is Iron Temple.", "it's called Forge & Iron now", "Iron Temple", "Forge & Iron"),
    ("Our book this month is Dune.", "it's Lord of the Rings now", "Dune", "Lord of the Rings"),
    # a place's street is not the name a rebrand changes, nor a street the place's name
    ("the reunion is at The Copper Kettle on Main St",
     "yes but they rebranded, it's called Harbor & Vine now. same spot", "The Copper Kettle",
     "Harbor & Vine"),
    ("We meet at Blue Door Cafe on Elm Street.", "they moved, it's on Oak Avenue now",
     "Elm Street", "Oak Avenue"),
    # "we're / they're (the) X now", as "it's X now"
    ("our rec league team name is the Mighty Ducks",
     "name's taken so we're the Quackstreet Boys now", "Mighty Ducks", "Quackstreet Boys"),
    # "renamed it to X": the pronoun's thing, whoever renamed it
    ("the auth service is called gatekeeper in our repos",
     "yep. platform team renamed it to identity-api last sprint, all repos updated",
     "gatekeeper", "identity-api"),
    ("Our podcast is called Night Shift.", "we renamed it to Graveyard Hours", "Night Shift",
     "Graveyard Hours"),
])
def test_a_name_changed_replaces_the_old_one(said: str, later: str, old: str, new: str) -> None:
    assert _chat(said, later).get(old) == new


def test_a_reply_s_word_is_not_what_it_s_now_takes_back() -> None:
    # the reply's "Elementary" (a misread) does not make the user's one school two
    assert _chat("Ava goes to Westbrook Elementary",
                 "it merged with another school over the summer, it's now Westbrook-Pine "
                 "Academy", reply="Westbrook Elementary, got it.").get(
        "Westbrook Elementary") == "Westbrook-Pine Academy"


@pytest.mark.parametrize(("said", "later", "kept"), [
    # a question, a condition, a modal, a suggestion
    ("The CTO is Helen Park.", "Could Omar Haddad take over as CTO?", "Helen Park"),
    ("The CTO is Helen Park.", "if Helen retires, Omar Haddad takes over as CTO", "Helen Park"),
    ("The book club host is Maria.", "does Jules host the book club now?", "Maria"),
    ("The book club host is Maria.", "maybe Jules hosts the book club now", "Maria"),
    ("Our gym is Iron Temple.", "is it called Forge & Iron now?", "Iron Temple"),
    ("Our podcast is called Night Shift.", "should we rename it to Graveyard Hours?",
     "Night Shift"),
    ("Our podcast is called Night Shift.", "maybe they'll rename it to Graveyard Hours",
     "Night Shift"),
    ("My bank is Chase.", "should I say bye to Chase and go to Ally now?", "Chase"),
    # a leaver with no word of a change, another's news
    ("Our treasurer is Bob Smith.", "Bob left early today, Carla Diaz ran the meeting.",
     "Bob Smith"),
    ("Our treasurer is Bob Smith.",
     "Bob is sick, Carla Diaz will take over as treasurer if he doesn't recover", "Bob Smith"),
    ("My bank is Chase.", "my brother sold his Tesla, he drives a Rivian now", "Chase"),
    ("Our accountant is Tom Reyes.", "if Tom was replaced by Priya Shah, would fees change?",
     "Tom Reyes"),
    ("Our accountant is Tom Reyes.", "Dana's accountant was replaced by Priya Shah",
     "Tom Reyes"),
    ("We use SQLite", "should we switch to MySQL?", "SQLite"),
    ("We meet at Blue Door Cafe on Elm Street.", "is it on Oak Avenue now?", "Elm Street"),
    ("We meet at Blue Door Cafe on Elm Street.", "it's called Lumen Coffee now", "Elm Street"),
    ("Our accountant is Tom Reyes.", "Priya Shah takes over from Tom on Monday", "Tom Reyes"),
    ("Our accountant is Tom Reyes.", "maybe Priya Shah takes over from Tom?", "Tom Reyes"),
    ("The caterer is Olive Tree.",
     "Olive Tree went out of business last year, but we still love them", "Olive Tree"),
    ("My dog walker is Sam.", "ugh sam flaked again. anyway the weather is nice", "Sam"),
    ("babysitter for friday: Hannah", "hannah cancelled, maybe Jess is coming instead?",
     "Hannah"),
    ("babysitter for friday: Hannah", "Jess is coming instead", "Hannah"),
    # "his name is X" beside two names: which one is unsaid
    ("Our new puppy is Biscuit. The vet is Dr. Lowe.", "sorry, his name is actually Waffles",
     "Biscuit"),
    ("Our new puppy is Biscuit.", "my name is Dana by the way", "Biscuit"),
    ("Our new puppy is Biscuit.", "what should his name be? maybe Waffles", "Biscuit"),
    ("The book club host is Maria.", "is Jules hosting the book club now?", "Maria"),
    ("The book club host is Maria.", "Jules is hosting the book club this week", "Maria"),
    ("Our team is the Hornets.", "they're the Lakers fans, we're the Hornets", "Hornets"),
    # a post held on a day is no change of its holder
    ("The U12 coach is Mr. Harris.", "Dee Okoro coaches the U12s on Saturdays", "Mr. Harris"),
])
def test_a_name_not_changed_stays_current(said: str, later: str, kept: str) -> None:
    assert _kept(said, later, kept) == "current"


@pytest.mark.parametrize(("text", "value"), [
    ("it's called Harbor & Vine now", "Harbor & Vine"),
    ("the shop is called Bits & Bobs now", "Bits & Bobs"),
    ("it's called The Rusty Anchor now", "The Rusty Anchor"),
    ("it's The Name of the Wind now", "The Name of the Wind"),
    ("it's now Westbrook-Pine Academy", "Westbrook-Pine Academy"),
])
def test_a_title_s_name_is_one_value(text: str, value: str) -> None:
    assert value in {f.value for f in message_facts(text)}


def test_two_people_joined_by_and_stay_two() -> None:
    assert "Ana and Ben" not in {f.value for f in message_facts("our cafe is Ana and Ben now")}


def test_a_role_on_a_day_is_no_owner() -> None:
    # "on Monday" dates the taking over; "on the checkout redesign" names whose lead
    keys = {f.value: f.key for f in message_facts("Marcus Lee took over as PM on Monday")}
    assert keys.get("Marcus Lee", "").startswith("|pm|")


def test_a_name_its_own_clause_says_now_is_no_mention() -> None:
    ledger = absorbed(("user", "The blog is on WordPress hosted at Bluehost"),
                      ("assistant", "Noted."),
                      ("user", "Rebuilt the blog in Hugo and it's on Netlify now. "
                               "Bye WordPress, bye Bluehost."))
    assert stated_status(ledger, "Netlify") == "current"
    assert stated_status(ledger, "Hugo") == "current"
    assert stated_status(ledger, "WordPress") == "replaced"


@pytest.mark.parametrize(("said", "later", "kept"), [
    # a place named in passing beside the keyed new value stays a mention
    ("Our venue is the Old Mill.", "Flooding at the Old Mill, so the venue is now Riverside Hall",
     "Riverside Hall"),
    ("The site is built with Jekyll.", "we moved the site to Astro, maybe it's on Vercel now?",
     "Jekyll"),
])
def test_a_mention_or_a_doubt_states_no_second_value(said: str, later: str, kept: str) -> None:
    assert _kept(said, later, kept) == "current"
