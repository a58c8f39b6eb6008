"""Filler prose between planted facts: varied, realistic, and free of digits.

Filler carries no facts, so it must never contain a planted answer: it uses no digits and none
of the generator's value vocabularies (the generator checks every answer's uniqueness anyway).
Each kind has its own sentence banks; slots are filled from small word lists, so the same seed
gives the same text on every machine (only ``random.Random`` is used).
"""

from __future__ import annotations

import random

SLOTS: dict[str, dict[str, list[str]]] = {
    "coding": {
        "thing": ["the importer", "the billing worker", "the login flow", "the search index",
                  "the report exporter", "the retry logic", "the session cache", "the CLI",
                  "the webhook handler", "the schema migration", "the nightly job",
                  "the admin dashboard", "the rate limiter", "the upload endpoint"],
        "problem": ["a race between two workers", "a missing index", "an off-by-one in paging",
                    "stale cache entries", "a timezone mix-up", "an unhandled empty list",
                    "a leaking file handle", "a slow regular expression",
                    "an N+1 query pattern", "a silent exception swallow"],
        "action": ["add a regression test", "log the request id", "split the function",
                   "move the check earlier", "wrap it in a transaction", "add a timeout",
                   "make the retry idempotent", "cache the lookup", "validate the input",
                   "document the edge case"],
        "feeling": ["a bit worried", "fairly confident", "not sure", "optimistic",
                    "somewhat skeptical"],
    },
    "trip": {
        "thing": ["the hotel booking", "the train tickets", "the museum visit",
                  "the dinner reservation", "the airport transfer", "the day hike",
                  "the boat tour", "the rental car", "the conference venue",
                  "the welcome drinks", "the group photo", "the city walking tour"],
        "problem": ["a clash with the opening hours", "a long transfer", "too little buffer",
                    "a rainy forecast", "a sold-out slot", "a late check-in",
                    "an early departure", "a closed road", "a strike announcement",
                    "a missing confirmation email"],
        "action": ["book a refundable option", "ask the host", "move it to the morning",
                   "keep a backup plan", "call the venue", "print the confirmations",
                   "share the itinerary", "check the luggage rules", "reserve seats together",
                   "split the group"],
        "feeling": ["a little anxious", "quite relaxed", "unsure", "excited", "cautious"],
    },
    "research": {
        "thing": ["the literature review", "the baseline model", "the ablation table",
                  "the data cleaning step", "the annotation guide", "the evaluation script",
                  "the related work section", "the appendix", "the survey questions",
                  "the sampling plan", "the error analysis", "the figure captions"],
        "problem": ["a confound we did not control", "label noise", "a leaky split",
                    "an underpowered comparison", "a reviewer objection", "a missing citation",
                    "an unclear definition", "inconsistent preprocessing",
                    "a cherry-picked example", "a metric that rewards length"],
        "action": ["rerun with a fixed split", "add a sanity check", "report the variance",
                   "ask a second annotator", "cite the original paper", "state the limitation",
                   "plot the distribution", "drop the outliers openly", "pre-register it",
                   "compare against a simpler baseline"],
        "feeling": ["uneasy", "reasonably sure", "undecided", "encouraged", "doubtful"],
    },
}

USER_BANK: dict[str, list[str]] = {
    "coding": [
        "I looked at {thing} again this morning and I think {problem} is behind the failures.",
        "Can you walk me through how {thing} handles errors today?",
        "I am {feeling} about touching {thing} before the release.",
        "What would you do first: {action} or rewrite {thing} from scratch?",
        "The reviewer asked why we did not {action} in {thing}.",
        "Quick question about {thing}: is {problem} something we have seen before?",
        "Let's keep going with {thing}; I have about an hour before my next meeting.",
        "I pushed a small change to {thing}, could you double-check my reasoning?",
        "Honestly I would rather {action} than debate it any longer.",
        "Our on-call engineer says {thing} paged them twice last week.",
        "Is it worth it to {action}, or is that overkill here?",
        "Please keep the explanation short, I mostly need the next step.",
    ],
    "trip": [
        "I checked {thing} again and I am {feeling} about {problem}.",
        "Can you suggest what to do about {thing} if the weather turns?",
        "My partner prefers that we {action} for {thing}.",
        "What is a sensible order for the second day, starting with {thing}?",
        "The group chat keeps asking about {thing}; what should I tell them?",
        "Should we {action}, or is that too cautious?",
        "I would like a calmer afternoon, maybe skip {thing}?",
        "Someone mentioned {problem} near the station, is that a real concern?",
        "Let's make sure the elderly relatives are comfortable with {thing}.",
        "Please summarise the open questions about {thing} in a few lines.",
        "I am {feeling}; is there anything we forgot for {thing}?",
        "Could you draft a short message to the others about {thing}?",
    ],
    "research": [
        "I reread {thing} and I am {feeling} about {problem}.",
        "How would you phrase the limitation about {thing} for the reviewers?",
        "Should we {action} before we send the draft around?",
        "My supervisor thinks {thing} is fine, but I am {feeling}.",
        "Can you help me structure {thing} so the argument flows better?",
        "What is the weakest point of {thing} right now?",
        "I would like to {action}; does that change our conclusions?",
        "A co-author flagged {problem} in {thing}.",
        "Let's keep the tone neutral in {thing}, no overclaiming.",
        "Please list what is still missing from {thing}.",
        "Is {problem} serious enough to mention in the abstract?",
        "I have a meeting soon, just give me the next concrete step for {thing}.",
    ],
}

ASSISTANT_BANK: dict[str, list[str]] = {
    "coding": [
        "Looking at {thing}, the most likely cause is {problem}, which would explain why the "
        "failures only show up under load.",
        "I would start small: {action}, then watch the logs for a day before going further.",
        "There are two reasonable paths here, and both are cheaper than a rewrite of {thing}.",
        "One thing to keep in mind is that {thing} is shared by several callers, so a change "
        "in behaviour will ripple outwards.",
        "If we {action}, the next incident will at least leave a clear trail.",
        "The tests around {thing} are thin, so I would not trust a green build on its own.",
        "A rewrite is tempting, but it would hide {problem} rather than explain it.",
        "In my experience, {problem} tends to appear exactly in code like {thing}.",
        "Let me outline the steps so you can stop at any point without leaving things broken.",
        "The safest order is to reproduce it, write the failing test, and only then fix it.",
        "I would also {action}, because it costs little and saves a late-night debugging "
        "session.",
        "None of this needs a new dependency; the standard library covers it.",
        "Once that is done, {thing} should behave the same in staging and production.",
        "It is worth telling the reviewer that we chose the boring option on purpose.",
    ],
    "trip": [
        "For {thing}, the main risk is {problem}, so a little slack in the schedule helps.",
        "I would {action}; it keeps the plan flexible without costing much.",
        "The second day is the busiest, so it makes sense to keep the evening free.",
        "If the weather turns, {thing} can move indoors or to the following morning.",
        "It is usually easier to {action} early than to fix things on the spot.",
        "Travelling as a group means every transfer takes longer than the timetable says.",
        "Keep the confirmations on paper as well; phones die at the worst moment.",
        "A calmer afternoon would also give the relatives time to rest before dinner.",
        "From what you describe, {problem} is unlikely to affect the whole trip.",
        "I can draft the message to the group once we agree on the order of the day.",
        "The locals recommend arriving early, before the tour buses fill the square.",
        "We should double-check {thing}, since changes there are the hardest to undo.",
        "Overall the plan is sound; the open questions are small ones.",
        "If anyone has dietary needs, tell the restaurant when you confirm the booking.",
    ],
    "research": [
        "The weakest part of {thing} is {problem}, and reviewers will look there first.",
        "I would {action}; it costs a day and removes the obvious objection.",
        "Phrase the limitation plainly: say what we did not control and why it matters.",
        "A neutral tone helps here; the results are interesting without overclaiming.",
        "If we {action}, the conclusions stay the same but become easier to defend.",
        "It is better to show the messy cases than to let a reviewer find them.",
        "The argument flows better if the motivation comes before the method details.",
        "Keep {thing} short and move the secondary analyses to the appendix.",
        "From a reader's point of view, {problem} is the first question they will ask.",
        "We can state the caveat once, clearly, instead of hedging every sentence.",
        "The simpler baseline is a useful anchor even if it performs worse.",
        "Your supervisor is right that {thing} is acceptable, but it could be sharper.",
        "Let me list the remaining steps in the order I would tackle them.",
        "A second pair of eyes on {thing} would catch most of the remaining issues.",
    ],
}


def _fill(rng: random.Random, kind: str, template: str) -> str:
    slots = SLOTS[kind]
    return template.format(**{key: rng.choice(values) for key, values in slots.items()})


def prose(rng: random.Random, kind: str, role: str, words: int) -> str:
    """Sentences of ``kind`` for ``role`` until about ``words`` words, no template twice."""
    bank = USER_BANK[kind] if role == "user" else ASSISTANT_BANK[kind]
    order = list(range(len(bank)))
    rng.shuffle(order)
    sentences: list[str] = []
    count = 0
    while count < words:
        if not order:  # a very long message: start a new shuffled round
            order = list(range(len(bank)))
            rng.shuffle(order)
        sentence = _fill(rng, kind, bank[order.pop()])
        sentences.append(sentence)
        count += len(sentence.split())
    return " ".join(sentences)


def topic(rng: random.Random, kind: str) -> str:
    """What a fact is about ("the importer", "the hotel booking"), so probes are specific."""
    return rng.choice(SLOTS[kind]["thing"])
