"""Values read whole and repairs inside one message (issue 28, stop 51): minutes and seconds
no clock reads ("48:30"), a street whose kind opens it ("14 Rue Oberkampf, 75011 Paris"), a
lower-case value after a label's colon ("north bed: basil."), a phone number of a trunk code
and one long group ("07700 900123"), a condition of relevance ("if the courier needs it"), a
bare hour after "at" ("opens at 7", "Wednesday — at 10"), an age ("she's turning 7"), and a
self-repair with a hesitation and "actually" ("Denver — er, Colorado Springs actually"); a
code named by "it's … now", a cleft's focus ("it's Mrs. Costa I should talk to"), a label's
word before its colon ("client ID for prod: web-prod-07" has no value "ID"), a titled name
in apposition to a place ("…, Dr. Hale"); values a word's class tells (a model year and its
name, a mode of transport after "by", a diet, a colour); and "no" before a plain noun is its
determiner, no repair ("i'm vegetarian. no meat please"); what a thing is on ("the hens are
on layer pellets"), a place's name and number before a preposition ("at Studio 4 on Hollis
St"), and a change's new place before when it holds from ("moved to the Northgate leisure
centre from next term"). Each negative reads as on main."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import replaced_by_map, stated_status


def _values(text: str) -> set[str]:
    return {f.value for f in message_facts(text) if f.kind != "question"}


def _chat(said: str, later: str) -> dict[str, str]:
    return replaced_by_map(absorbed(("user", said), ("assistant", "Noted."), ("user", later)))


@pytest.mark.parametrize(("text", "value"), [
    ("My 10k personal best is 48:30 from the spring race", "48:30"),
    ("the pomodoro timer is 25:00", "25:00"),
    ("ran the parkrun in 26:14.5 today", "26:14.5"),
    ("address is now 14 Rue Oberkampf, 75011 Paris", "14 Rue Oberkampf, 75011 Paris"),
    ("the office is at 12 Calle de Alcalá", "12 Calle de Alcalá"),
    ("send it to Lindenweg 4, 80331 München", "Lindenweg 4, 80331 München"),
    ("north bed: basil", "basil"),
    ("favourite colour: teal", "teal"),
    ("the log level: debug", "debug"),
    ("my mobile is 07700 900123", "07700 900123"),
    ("call me on +44 7700 900123", "+44 7700 900123"),
    ("my mobile is 07700 900123 if the courier needs it", "07700 900123"),
    ("the door code is 4471 in case the cleaner needs it", "4471"),
    ("the bakery opens at 7", "7"),
    ("we meet on Fridays at 4 in room B", "4"),
    ("team sync is on Wednesday — at 10 in the big room", "10"),
    ("practice starts at 5, so bring water", "5"),
    ("she's turning 8", "8"),
    ("my dad turned 70 in May", "70"),
])
def test_a_value_is_read_whole(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "absent"), [
    ("edit: typo", "typo"),            # a part of the message, no thing's label
    ("Status: shipped", "shipped"),    # a participle: what happened to it
    ("I have 3 kids at 10 schools", "10"),
    ("on Monday at 3 of the sites we saw errors", "3"),
    ("the app crashes at 8", "8"),     # no verb of a timetable: a count may be meant
    ("we switch to Postgres if the team needs it", "Postgres"),  # a real condition
    ("we stay in if it pours", "in"),
])
def test_no_value_where_none_is_stated(text: str, absent: str) -> None:
    assert absent not in _values(text)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("My 10k personal best is 48:30", "oh, not 48:30 but 47:52 now", "48:30", "47:52"),
    ("My mailing address: 8 Rue des Martyrs, 75009 Paris",
     "I moved!! address is now 14 Rue Oberkampf, 75011 Paris",
     "8 Rue des Martyrs, 75009 Paris", "14 Rue Oberkampf, 75011 Paris"),
    ("the bakery opens at 7, the café next door opens at 9", "café opens at 8 now", "9", "8"),
])
def test_a_value_read_whole_is_replaced_whole(said: str, later: str, old: str,
                                              new: str) -> None:
    assert _chat(said, later).get(old) == new


@pytest.mark.parametrize(("text", "old", "new"), [
    ("I'm flying into Denver — er, Colorado Springs actually, on the 22nd", "Denver",
     "Colorado Springs"),
    ("we land in Porto — um, Lisbon actually", "Porto", "Lisbon"),
    ("I'm staying at the Hilton, sorry, the Grand Central Hotel", "Hilton",
     "Grand Central Hotel"),
    ("she's turning 7, I mean 8, she had one last spring", "7", "8"),
    ("my dad turned 70, sorry, 71 in May", "70", "71"),
])
def test_a_self_repair_replaces_the_value_taken_back(text: str, old: str, new: str) -> None:
    ledger = absorbed(("user", text))
    assert replaced_by_map(ledger).get(old) == new
    assert stated_status(ledger, new) == "current"


@pytest.mark.parametrize(("text", "kept"), [
    ("we visited Denver, er, Boulder and Aspen", "Denver"),      # no "actually": a list
    ("the venue is Leeds, Manchester actually", "Leeds"),        # no hesitation
    ("she lives in Denver — uh, Colorado Springs is nice too", "Denver"),  # a clause of its own
])
def test_no_repair_without_its_marks(text: str, kept: str) -> None:
    assert stated_status(absorbed(("user", text)), kept) in ("current", None)
    assert kept not in replaced_by_map(absorbed(("user", text)))


@pytest.mark.parametrize(("text", "value"), [
    ("prod client got rotated, it's web-prod-08 now", "web-prod-08"),
    ("it's eu-west-2 now", "eu-west-2"),
    ("he retired apparently. it's Mrs. Costa I should talk to", "Mrs. Costa"),
    ("it's Kim who handles payroll now", "Kim"),
    ("our GP is at Elm Surgery, Dr. Hale", "Dr. Hale"),
    ("We drive a 2015 Prius, 140k miles on it", "2015 Prius"),
    ("I just bought a 2019 Trek.", "2019 Trek"),
    ("I commute by bike, 12 km each way", "bike"),
    ("she gets to school by bus", "bus"),
    ("i'm vegetarian, so no meat in the meal plan", "vegetarian"),
    ("we're vegan now", "vegan"),
    ("we're painting the shed sage green", "sage green"),
    ("the door is navy blue", "navy blue"),
])
def test_a_value_of_its_place_or_class_is_read(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "absent"), [
    ("it's covid-19 season", "covid-19"),       # a code inside a noun phrase
    ("OAuth client ID for dev: web-dev-01", "ID"),  # the label's word
    ("we cited a 2019 Nature paper", "2019 Nature"),
    ("my 2021 MacBook Pro is slow", "2021 MacBook Pro"),  # the subject, no object
    ("by the way, the build passed", "way"),
    ("a vegan recipe please", "vegan"),
    ("I'm blue", "blue"),
    ("i'm vegetarian, so no meat", "meat"),
    ("i'm vegetarian. no meat please", "meat"),
    ("the log level is debug, no info", "info"),  # "no info" may be "no information"
])
def test_no_value_of_a_word_s_class_elsewhere(text: str, absent: str) -> None:
    assert absent not in _values(text)


@pytest.mark.parametrize(("text", "kept"), [
    ("i'm vegetarian. no meat please", "vegetarian"),
    ("i'm vegetarian, so no meat", "vegetarian"),
])
def test_no_before_a_noun_takes_nothing_back(text: str, kept: str) -> None:
    assert stated_status(absorbed(("user", text)), kept) == "current"


@pytest.mark.parametrize(("text", "old", "new"), [
    ("the port is 8080. no wait, 8088", "8080", "8088"),
    ("the code is 1234. no 4321", "1234", "4321"),
    ("Her flight lands 6:40... no hang on, 7:40, I misread it.", "6:40", "7:40"),
    ("the log level is debug, no, info", "debug", "info"),
])
def test_no_that_takes_a_word_back_still_does(text: str, old: str, new: str) -> None:
    assert replaced_by_map(absorbed(("user", text))).get(old) == new


@pytest.mark.parametrize(("text", "value"), [
    ("the hens are on layer pellets", "layer pellets"),
    ("my dissertation is on urban heat islands in Phoenix", "urban heat islands"),
    ("the puppy is on wet food now", "wet food"),
    ("we rehearse at Studio 4 on Hollis St", "Studio 4"),
    ("class is in Hall 3 at 9", "Hall 3"),
    ("their swimming lessons moved to the Northgate leisure centre from next term",
     "Northgate leisure centre"),
    ("standup moved to the small room from tomorrow", "small room"),
])
def test_a_phrase_of_its_place_is_read_whole(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "absent"), [
    ("the keys are on the table", "table"),       # a place: its determiner
    ("the project is on hold", "hold"),           # an idiom
    ("the price is on request", "request"),
    ("I'm on antibiotics", "antibiotics"),        # a pronoun's, not read
    ("for Year 10 students", "Year 10"),
])
def test_no_value_of_an_idiom_or_a_place_s_phrase(text: str, absent: str) -> None:
    assert absent not in _values(text)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("I drive a 2015 Honda Civic", "sold the Civic actually, I drive a Mazda3 now",
     "2015 Honda Civic", "Mazda3"),
    ("I drive a 2012 Ford Focus", "sold it! I'm driving a Toyota Corolla Hybrid now",
     "2012 Ford Focus", "Toyota Corolla Hybrid"),
])
def test_a_name_owned_replaces_the_one_sold(said: str, later: str, old: str,
                                            new: str) -> None:
    assert _chat(said, later).get(old) == new


@pytest.mark.parametrize(("text", "value", "read"), [
    ("I drive a Corolla", "Corolla", True),
    ("currently leasing a Golf, lease ends next autumn", "Golf", True),
    ("traded it in, got a Pixel", "Pixel", False),   # getting may add one more
    ("we use a Synology for backups", "Synology", True),
    ("my brother sold his Tesla, he drives a Rivian now", "Rivian", False),  # another's
    ("I saw a Tesla today", "Tesla", False),          # no verb of owning or using
    ("we got a Marvel movie", "Marvel", False),       # a name inside a noun phrase
])
def test_a_name_owned_or_used_is_read(text: str, value: str, read: bool) -> None:
    assert (value in _values(text)) is read


@pytest.mark.parametrize(("text", "value", "read"), [
    ("we're at the library annex now", "library annex", True),
    ("panel stays in the basement", "basement", True),
    ("the bike stays in the shed", "shed", True),
    ("I'm at the office now", "office", False),        # the speaker's own whereabouts
    ("we're at the end now", "end", False),            # a position in a course, no place
    ("the meeting is in the morning now", "morning", False),
    ("my emergency contact at work is my roommate Jess", "roommate Jess", True),
    ("from now on it's my neighbor Ruth, 555-0199", "neighbor Ruth", True),
    ("I had lunch with my brother Marco", "brother Marco", False),  # no copula: a mention
])
def test_where_a_thing_is_now_and_a_person_by_relation(text: str, value: str,
                                                        read: bool) -> None:
    assert (value in _values(text)) is read


def test_a_person_by_relation_replaces_the_one_scratched() -> None:
    assert _chat("From now on my emergency contact is my brother Marco, 555-0142",
                 "scratch marco, he's abroad for a year. from now on it's my neighbor Ruth, "
                 "555-0199").get("brother Marco") == "neighbor Ruth"


@pytest.mark.parametrize(("text", "value", "read"), [
    ("the staging db runs on db.t3.medium", "db.t3.medium", True),
    ("use m5.xlarge for workers", "m5.xlarge", True),
    ("edit app2.py please", "app2.py", True),           # still a file
    ("Hotel Sol in Seville, 3 nights from the 8th.", "Hotel Sol", True),
    ("Osteria Ventidue. the booking is June 21st", "Osteria Ventidue", True),
    ("Tomorrow Alice comes", "Tomorrow Alice", False),  # no kind of place opens it
    ("Monday gym class is spin at 6am", "spin", True),
    ("the team lunch is pizza on Friday", "pizza", True),
    ("the meeting is late at 5pm", "late", False),      # a state, and a key of one word
    ("the prod deploy is running at 3am", "running", False),
    ("Saturday order for Café Lume: 60 croissants.", "Café Lume", True),
])
def test_a_code_a_place_s_fragment_and_a_value_before_its_time(text: str, value: str,
                                                                read: bool) -> None:
    assert (value in _values(text)) is read


def test_a_dotted_code_is_replaced_whole() -> None:
    assert _chat("the staging db runs on db.t3.medium",
                 "we resized from db.t3.medium to db.t3.large last night"
                 ).get("db.t3.medium") == "db.t3.large"


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("My bank is Chase.", "my brother sold his Tesla, he drives a Rivian now", "Chase"),
    ("Our cat is Luna.", "We got a Siamese now.", "Luna"),
])
def test_another_s_vehicle_or_one_more_replaces_nothing(said: str, later: str,
                                                        kept: str) -> None:
    assert stated_status(absorbed(("user", said), ("assistant", "Noted."), ("user", later)),
                         kept) == "current"
