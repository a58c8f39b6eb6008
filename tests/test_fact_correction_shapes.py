"""Issue 28: correction shapes read from structure. "isn't going to Y but to X" (a verb
between "not" and Y); "not only Y but also X" states both."""

from __future__ import annotations

from tests.engine_fakes import absorbed, fact_of, value_of


def test_not_verb_y_but_x_replaces_y() -> None:
    ledger = absorbed(("user", "The shipment goes to Rotterdam for customs."),
                      ("user", "The shipment isn't going to Rotterdam but to Antwerp now that "
                               "the port is congested."))
    old = fact_of(ledger, "Rotterdam")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "Antwerp"


def test_not_only_y_but_also_x_replaces_nothing() -> None:
    ledger = absorbed(("user", "The shipment goes to Rotterdam for customs."),
                      ("user", "The shipment is not only going to Rotterdam but also to "
                               "Antwerp."))
    assert fact_of(ledger, "Rotterdam").status == "current"


def test_a_long_lead_alone_is_no_fact_of_its_own() -> None:
    """"The port number I gave you this morning was wrong." says the user's word was wrong
    (a lead alone, past 40 characters): it leads the next sentence, it is not a fact."""
    ledger = absorbed(("user", "The port is 7000."),
                      ("user", "The port number I gave you this morning was wrong. The port "
                               "is 7100."))
    assert all("wrong" not in f.value for f in ledger)
    assert fact_of(ledger, "7000").status == "replaced"


def test_retraction_leads_are_shapes() -> None:
    """An imperative retraction verb with "that"/"it" ("scrap that"), its negated "never
    mind" ("never mind that"), a pause ("hold on", "hang on") and "let me correct/fix that"
    lead the clause after them; a verb that corrects nothing does not ("let me check that")."""
    from ollm_desktop.engine.fact_grammar import lead_only

    for lead in ("Scrap that.", "Never mind that.", "Never mind.", "Hold on.", "Hang on.",
                 "Let me correct that.", "Let me fix that.", "Let me rephrase that."):
        assert lead_only(lead), lead
    for other in ("Let me check that.", "Hold the line.", "Never.", "Mind the gap."):
        assert not lead_only(other), other


def test_a_retraction_lead_inside_a_sentence_corrects() -> None:
    ledger = absorbed(("user", "The offsite is in Lisbon."),
                      ("user", "Hmm, scrap that, the offsite is in Porto."))
    old = fact_of(ledger, "Lisbon")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "Porto"


def test_an_acronym_is_no_pronoun() -> None:
    """"the US bucket", "the IT budget": an upper-case acronym names its owner, though its
    letters spell "us" and "it" (a pronoun is lower case inside a sentence)."""
    ledger = absorbed(("user", "The US bucket is s3://acme-us-logs."),
                      ("user", "The IT budget is $40,000 this year."),
                      ("user", "The IT budget is now $45,000."))
    assert fact_of(ledger, "s3://acme-us-logs").key == "us|bucket|url"
    assert fact_of(ledger, "$45,000").key == "it|budget|money"
    assert fact_of(ledger, "$40,000").status == "replaced"


def test_it_as_a_pronoun_owns_nothing() -> None:
    ledger = absorbed(("user", "It budget is tight, but the marketing budget is $25,000."))
    assert fact_of(ledger, "$25,000").key == "marketing|budget|money"


def test_a_place_after_a_copulas_name_is_the_subjects() -> None:
    """"The vet is Dr. Okafor at Riverside Clinic": the clinic is the vet's place, not Dr.
    Okafor's key (a replaced name would still be shown in the current line's key)."""
    ledger = absorbed(("user", "Our vet is Dr. Okafor at Riverside Clinic."),
                      ("user", "Our vet is now Dr. Brennan, Dr. Okafor moved away."))
    place = fact_of(ledger, "Riverside Clinic")
    assert "okafor" not in place.key and place.key.startswith("vet")
    assert fact_of(ledger, "Dr. Okafor").status == "replaced"


def test_a_name_from_a_firm_stays_the_names() -> None:
    ledger = absorbed(("user", "I spoke with Dominika from Talentbridge today."))
    assert fact_of(ledger, "Talentbridge").key.startswith("dominika|")


def test_a_possessive_object_is_the_subjects() -> None:
    """"Grandpa takes his pill at 8 am": his pill is Grandpa's, so Grandma's pill is
    another key and neither replaces the other."""
    ledger = absorbed(("user", "Grandpa takes his pill at 8 am."),
                      ("user", "Grandma takes her pill at 9 am."),
                      ("user", "Grandpa takes his pill at 7 am now."))
    assert fact_of(ledger, "8 am").key == "grandpa|pill|time"
    assert fact_of(ledger, "9 am").status == "current"
    assert fact_of(ledger, "8 am").status == "replaced"


def test_a_possessive_of_someone_else_stays_unowned() -> None:
    """"the nurse brings his pill at 8 am": "his" is not the nurse's (a definite subject is
    no one's name), so the key names no owner."""
    ledger = absorbed(("user", "The nurse brings his pill at 8 am."))
    assert "nurse" not in fact_of(ledger, "8 am").key.split("|")[0]


def test_has_a_new_k_is_a_correction_of_the_subjects_k() -> None:
    """"The clinic has a new phone number: X" corrects the clinic's phone number; "has a new
    K" of another owner changes nothing of the first's."""
    ledger = absorbed(("user", "The clinic's phone number is 555-0142."),
                      ("user", "The pharmacy's phone number is 555-0177."),
                      ("user", "The clinic has a new phone number: 555-0199."))
    old = fact_of(ledger, "555-0142")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "555-0199"
    assert fact_of(ledger, "555-0177").status == "current"
    assert fact_of(ledger, "555-0199").key.startswith("clinic phone|number")


def test_a_new_k_asked_about_corrects_nothing() -> None:
    ledger = absorbed(("user", "The clinic's phone number is 555-0142."),
                      ("user", "Does the clinic have a new phone number, 555-0199?"))
    assert fact_of(ledger, "555-0142").status == "current"


def test_not_having_a_new_k_corrects_nothing() -> None:
    ledger = absorbed(("user", "The clinic's phone number is 555-0142."),
                      ("user", "The clinic doesn't have a new phone number, 555-0142 still "
                               "works."))
    assert fact_of(ledger, "555-0142").status == "current"


def test_a_split_particle_is_no_key_word() -> None:
    """"turned the heater down to 18 °C", "pushed the launch back to June": the verb's
    particle after its object names no attribute; the object is the key."""
    ledger = absorbed(("user", "The office heater is set to 21 °C."),
                      ("user", "turned the office heater down to 18 °C, it was stuffy"))
    old = fact_of(ledger, "21 °C")
    assert fact_of(ledger, "18 °C").key == old.key
    assert old.status == "replaced"


def test_a_trailing_clause_that_says_the_user_was_wrong_corrects() -> None:
    """"The port is 7100, I got that wrong before.": the clause after the value says the
    earlier word was wrong, as a leading "I got that wrong:" does."""
    ledger = absorbed(("user", "The port is 7000."),
                      ("user", "The port is 7100, I got that wrong before."))
    old = fact_of(ledger, "7000")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "7100"


def test_a_trailing_doubt_is_no_correction() -> None:
    for doubt in ("unless I'm mistaken", "if I'm not wrong", "correct me if I'm wrong"):
        ledger = absorbed(("user", "The port is 7000."),
                          ("user", f"The port is 7100, {doubt}."))
        assert fact_of(ledger, "7000").status != "replaced", doubt


def test_a_sentence_in_capitals_has_no_acronyms() -> None:
    from ollm_desktop.engine.fact_words import tokens_of

    assert [t.word for t in tokens_of("NO, IT IS 9443 NOW.", [])][:4] == ["no", ",", "it", "is"]
    assert [t.word for t in tokens_of("The IT budget", [])][1] == "IT"


def test_not_going_to_be_y_but_x_replaces_y() -> None:
    ledger = absorbed(("user", "The standup is at 9:30."),
                      ("user", "The standup isn't going to be at 9:30 but at 10:15."))
    old = fact_of(ledger, "9:30")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "10:15"


def test_a_directed_particle_with_its_object_changes_the_key() -> None:
    """"The landlord put the rent up to X": a verb with its object and "up/down/back to X"
    says the object's value changed (the particle says the direction), as "raise" does."""
    ledger = absorbed(("user", "The rent is 1,200 EUR a month."),
                      ("user", "The landlord put the rent up to 1,350 EUR a month."))
    old = fact_of(ledger, "1,200 EUR a month")  # (a rate read whole since stop 50)
    assert old.status == "replaced" and \
        value_of(ledger, old.replaced_by) == "1,350 EUR a month"


def test_up_to_as_at_most_changes_nothing() -> None:
    ledger = absorbed(("user", "The hall seats 150 people."),
                      ("user", "The hall holds up to 200 people standing."))
    assert fact_of(ledger, "150 people").status != "replaced"
