"""A verb that ends what the user had, with "for" naming what replaces it ("we dropped
Crashlytics for Sentry"): the object goes, the name after "for" is the key's value now. Only
named objects: "dropped the price for members" is a change and whom it is for."""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("history, text, new, old", [
    ("Crash reporting is Crashlytics 10.27.", "We dropped Crashlytics for Sentry last sprint.",
     "Sentry", "Crashlytics 10.27"),
    ("Our newsletter tool is Mailchimp.", "We ditched Mailchimp for Buttondown.",
     "Buttondown", "Mailchimp"),
    ("The team chat runs on Slack.", "I scrapped Slack for Zulip in March.", "Zulip", "Slack"),
])
def test_an_ending_verb_with_for_hands_the_key_to_the_new_name(
        history: str, text: str, new: str, old: str) -> None:
    check_current(values_after(history, text), new, old)


@pytest.mark.parametrize("history, text, kept", [
    ("Our newsletter tool is Mailchimp.", "Should we drop Mailchimp for Buttondown?",
     "Mailchimp"),
    ("CI runs on Jenkins.", "Maybe we could ditch Jenkins for Drone someday.", "Jenkins"),
    ("The team chat runs on Slack.", "Dana suggested we drop Slack for Zulip.", "Slack"),
    ("The ticket price is €20.", "We dropped the price for members.", "€20"),
])
def test_a_question_hedge_proposal_or_plain_change_replaces_no_name(
        history: str, text: str, kept: str) -> None:
    assert kept in values_after(history, text)


@pytest.mark.parametrize("history, text, kept", [
    # a wish
    ("CI runs on Jenkins.", "I wish we dropped Jenkins for GitHub Actions.", "Jenkins"),
    # another person's change
    ("Our frontend uses React.", "Dana dropped React for Vue in her side project.", "React"),
])
def test_a_wished_or_someone_elses_change_keeps_the_users_name(
        history: str, text: str, kept: str) -> None:
    assert kept in values_after(history, text)

