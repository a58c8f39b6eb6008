"""Two phrasings of one key (issue 28, stop 51, the keys round): a label of novelty without
its colon ("new date 2025-09-13", ``fact_new_labels``); a fronted time adverbial with a
gerund before "it's" ("after talking to my partner it's CHF 34,000", ``fact_fronted``): the
pronoun refers back; the general lexicon of one thing's names (``fact_key_synonyms``:
temperature / temp, mum / mother, vet / veterinarian...) and one word for a key's whole
phrase ("SSID" for "wifi network", ``whole_named``); a short sentence that only says a thing
was moved in time or redone is a lead for the next ("it got moved. 17 March."), and so
is such a clause before a comma ("we rebuilt it, hostname is X", ``fact_change_leads``);
"we're doing X" names no key (``fact_pro_verbs``). Questions,
another's word and two candidates replace nothing silently."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import replaced_by_map, stated_status


def _chat(said: str, later: str) -> dict[str, str]:
    return replaced_by_map(absorbed(("user", said), ("assistant", "Noted."), ("user", later)))


def _status(said: str, later: str, value: str) -> str | None:
    return stated_status(absorbed(("user", said), ("assistant", "Noted."), ("user", later)),
                         value)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # a label of novelty with no colon: the noun is the key, "new" makes it a change
    ("Got tix for the show on 2025-06-07!!", "band postponed. new date 2025-09-13",
     "2025-06-07", "2025-09-13"),
    ("The plumber comes at 9am tomorrow.", "he texted: new time 11am", "9am", "11am"),
    ("Dinner with the Hendersons is at 19:00.", "they asked to push it, new time 19:30",
     "19:00", "19:30"),
    ("the parents' evening is on 4 March", "school emailed, new date 11 March",
     "4 March", "11 March"),
    ("Yoga class costs €12 a session.", "studio sent a note - new price €14",
     "€12 a session", "€14"),
    # a fronted time adverbial (a gerund and its object) before "it's": "it" refers back
    ("the budget for the kitchen reno is CHF 28,000",
     "ignore that figure, after talking to my partner it's CHF 34,000 total",
     "CHF 28,000", "CHF 34,000"),
    ("The quote for the roof came to £9,000.",
     "scratch that, after checking with the roofer it's £9,800", "£9,000", "£9,800"),
    # one thing's two names
    ("home wifi network: Casa-Net, password on the fridge",
     "new router, the SSID is now Casa-5G", "Casa-Net", "Casa-5G"),
    ("guest wifi is Casa-Guest", "we reset it, ssid is now Guest-2", "Casa-Guest", "Guest-2"),
    ("greenhouse temperature is 22 C", "greenhouse temp is 25 C now", "22 C", "25 C"),
    ("The cat's vet is Dr. Alvarez.", "we switched veterinarian: Dr. Chen now",
     "Dr. Alvarez", "Dr. Chen"),
    ("my mom's flight lands at 6:40", "my mother's flight now lands at 7:25", "6:40", "7:25"),
    # a sentence that only says it was moved in time leads the next one's value
    ("Mum's hip surgery is on 3 March at St Thomas'", "it got moved. 17 March.",
     "3 March", "17 March"),
    ("Got tix for the show on 2025-06-07!!", "Postponed! 2025-09-13, tickets still valid",
     "2025-06-07", "2025-09-13"),
    ("the vet appointment is at 10:30", "it got pushed back. 11:15 now", "10:30", "11:15"),
    ("parents' evening is on 4 March", "they rescheduled. 11 March", "4 March", "11 March"),
    # a clause of a thing redone or moved, before a comma or a dash, leads its sentence
    ("build server hostname: atlas-01.corp.local",
     "we rebuilt it, hostname is hermes-01.corp.local", "atlas-01.corp.local",
     "hermes-01.corp.local"),
    ("our office is at 5 Elm Road", "we moved, the office is at 22 Oak Street", "5 Elm Road",
     "22 Oak Street"),
    ("the meeting is Tuesday at 10", "meeting postponed, Thursday at 10", "Tuesday",
     "Thursday"),
    # "we're doing X": the pro-verb names no key, the value refers back
    ("book club: first Wednesday of every month at Lena's",
     "we're doing second Thursday from now on, Lena has choir on Wednesdays",
     "first Wednesday of every month", "second Thursday"),
    ("I go to the gym 4 days a week", "knee is bad, we are doing 2 days a week now",
     "4 days a week", "2 days a week"),
])
def test_one_key_phrased_two_ways_is_replaced(said: str, later: str, old: str,
                                              new: str) -> None:
    assert _chat(said, later).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    # a question, a hypothetical, a reply, someone else's proposal
    ("Got tix for the show on 2025-06-07!!", "should we pick a new date, 2025-09-13?",
     "2025-06-07"),
    ("Got tix for the show on 2025-06-07!!", "if they postpone again, new date 2025-10-01 "
     "maybe?", "2025-06-07"),
    ("home wifi network: Casa-Net", "is the ssid Casa-5G now?", "Casa-Net"),
    # two candidates: neither silently
    ("The show is on 2025-06-07 and the dentist is on 2025-06-20.",
     "band postponed. new date 2025-09-13", "2025-06-07"),
    ("The show is on 2025-06-07 and the dentist is on 2025-06-20.",
     "band postponed. new date 2025-09-13", "2025-06-20"),
    # a phrase that is another thing's
    ("wifi password is hunter22", "the SSID is now Casa-5G", "hunter22"),
    ("the kitchen budget is CHF 28,000", "in Zurich it's CHF 34,000 for most people",
     "CHF 28,000"),
    # a moved thing's lead: asked, wished, or beside a value of another key
    ("Mum's hip surgery is on 3 March", "was it postponed? 17 March maybe", "3 March"),
    ("Mum's hip surgery is on 3 March", "they might have moved it. 17 March?", "3 March"),
    ("Mum's hip surgery is on 3 March", "my sister wants it moved. 17 March works for her",
     "3 March"),
    ("Mum's hip surgery is on 3 March", "the show got postponed. My birthday is 2 June.",
     "3 March"),
    # a sentence whose noun names the thing moved leads nothing (the value may be its)
    ("the meeting is Tuesday at 10", "my dentist appointment got moved. Thursday at 9.",
     "Tuesday"),
    # the redone thing's value kept, hedged or asked
    ("build server hostname: atlas-01.corp.local",
     "we rebuilt it, but the hostname is still atlas-01.corp.local", "atlas-01.corp.local"),
    ("the NAS admin password is Tiger#11", "they reset it, maybe the password is Admin#22",
     "Tiger#11"),
    ("build server hostname: atlas-01.corp.local",
     "we rebuilt it, is the hostname hermes-01.corp.local?", "atlas-01.corp.local"),
    ("build server hostname: atlas-01.corp.local", "my friend rebuilt his, hostname is zeus-01",
     "atlas-01.corp.local"),
    # "doing X" asked, planned, or beside two values of its kind
    ("swim practice is on Mondays", "maybe we're doing Wednesdays next term", "Mondays"),
    ("swim practice is on Mondays and piano is on Fridays", "we're doing Wednesdays now",
     "Mondays"),
])
def test_not_a_statement_of_the_key_replaces_nothing(said: str, later: str, kept: str) -> None:
    assert kept not in _chat(said, later)
    assert _status(said, later, kept) == "current"


@pytest.mark.parametrize(("text", "key"), [
    ("band postponed. new date 2025-09-13", "|date|date"),
    ("new start date 3 March", "start|date|date"),
    ("after talking to my partner it's CHF 34,000 total", "||money"),
    ("after the call it's CHF 34,000", "||money"),
    ("according to the vet it's 12 kg", "|vet|kg"),  # (another's word: no time adverbial)
    ("we're doing second Thursday from now on", "||date"),
    ("doing 2 coats of varnish on the oak table", "|varnish|coat"),
    ("my sister is doing 3 days a week", "|sister|duration"),
])
def test_the_key_read(text: str, key: str) -> None:
    assert [f.key for f in message_facts(text) if not f.old][-1:] == [key]


@pytest.mark.parametrize("text", [
    "new hire Sarah starts Monday",
    "I bought a new car, a Tesla Model 3",
])
def test_a_clause_or_a_thing_is_no_label(text: str) -> None:
    assert not any(f.correction for f in message_facts(text))
