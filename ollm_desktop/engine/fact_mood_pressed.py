"""Another's push that names whom it presses (issue 28: someone else's wish never replaces
the user's value; ``fact_mood_others`` reads "pushing for X" with no object, and asks this
module when a person stands between the verb and its "for").

- **A verb of pressing, its person, "for" and a value**: "half the class is petitioning Dr.
  Amari for Monday", "the kids keep begging me for 9 pm", "my sister's been nagging us for a
  dog", "the residents lobbied the council for a 20 mph limit": the value is what the
  subject asks of that person, not what holds. The person is an object pronoun, a name the
  readers found, or (for any verb but "push", whose object is a thing moved: "pushed the
  launch to Friday") a short noun phrase after a determiner ("petitioning the dean for
  Monday"). With no "for" after the person, nothing is read here.
- **A verb of pressing before "to" and a change verb**: "my flatmate keeps lobbying to
  change it to cats123", "the kids are begging to move bedtime to 9": the change is wished,
  not made.

The words are closed classes: the verbs of pressing and the object pronouns.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import DETERMINERS, Tok, closed, open_class

# Verbs of pressing someone for something, beside fact_mood_others.PRESSING's push / beg /
# lobby / campaign / plead.
PETITIONING = closed("petition petitions petitioning petitioned nag nags nagging nagged "
                     "pester pesters pestering pestered hound hounds hounding hounded "
                     "badger badgers badgering badgered")
# Kin and peers, whose wish is theirs whatever the possessive before them ("my son wants
# 9:30"; a role that decides, "my landlord wants £1,400", is read as before:
# ``fact_mood_others._wish``).
KIN = closed("son sons daughter daughters kid kids child children wife husband partner "
             "boyfriend girlfriend roommate roommates flatmate flatmates housemate housemates "
             "sister sisters brother brothers mum mom dad mother father grandma grandpa "
             "friend friends coworker coworkers colleague colleagues teammate teammates")
_OBJECTS = closed("me us him her them you everyone everybody")
_PUSH = closed("push pushes pushing pushed")
_EDGE = closed(", ; : — – but so because and . ! ?")


def pressed_for(tokens: Sequence[Tok], i: int, b: int) -> bool:
    """The verb of pressing at ``i`` names its person before "for" and a value after it, or
    takes "to" and a change verb ("keeps lobbying to change it to cats123")."""
    j = i + 1
    if j + 1 < b and tokens[j].word == "to" and changes(tokens[j + 1].word):
        return True
    if j < b and (tokens[j].word in _OBJECTS or tokens[j].value is not None):
        j += 1
    elif tokens[i].word not in _PUSH:  # "the dean", "Dr. Amari", "the city council"
        j += j < b and tokens[j].word in DETERMINERS
        while j < b and j <= i + 5 and (_person_word(tokens[j].word) or (
                tokens[j].word == "." and j + 1 < b and tokens[j - 1].word.isalpha() and
                len(tokens[j - 1].word) <= 4 and tokens[j + 1].word.isalpha())):
            j += 1  # (a title's dot: "Dr. Amari", "Mrs. Costa")
    if j == i + 1 or j >= b - 1 or tokens[j].word != "for":
        return False
    nxt = tokens[j + 1]
    return nxt.value is not None or nxt.word[:1].isdigit() or nxt.word in DETERMINERS


def _person_word(word: str) -> bool:
    """A word of a short noun phrase naming a person or a body ("amari", "council")."""
    if " " in word:  # a name joined into one token ("dr. amari")
        return all(part.rstrip(".").isalpha() for part in word.split())
    return open_class(word) and word != "for" and word not in _EDGE
