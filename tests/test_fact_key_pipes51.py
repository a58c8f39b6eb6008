"""A key is three parts, ``entity|attribute|unit``, whatever the text held (stop 51): a pasted
table row ("| business | $40 |") put its bars into a key's words, a key of four or five parts
that ``fact_key_match`` could not split, and the whole compaction failed with a ValueError."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed

_ROWS = [
    "our pricing:\n| plan | price |\n| business | $40 |",
    "| business | Acme GmbH |",
    "the | business name is Acme",
    "| parcel | weight |\n| box 3 | 12 kg |",
    "Shipping table: | carrier | DHL | | weight | 12 kg |",
]


@pytest.mark.parametrize("text", _ROWS)
def test_a_table_row_gives_keys_of_three_parts(text: str) -> None:
    keys = [f.key for f in message_facts(text, "user") if f.key]
    assert keys
    assert all(key.count("|") == 2 for key in keys), keys


@pytest.mark.parametrize("text", _ROWS)
def test_a_chat_with_a_table_row_and_a_correction_is_read(text: str) -> None:
    facts = absorbed(("user", text), ("assistant", "Noted the table."),
                     ("user", "| business | $55 |"), ("assistant", "Updated."),
                     ("user", "the business price is $60 now, not $55"))
    assert any(f.value == "$60" for f in facts)
    assert all(f.key.count("|") == 2 for f in facts if f.key)


def test_join_key_keeps_plain_parts_as_they_are() -> None:
    from ollm_desktop.engine.fact_types import join_key

    assert join_key("api", "port", "port") == "api|port|port"
    assert join_key(" two  spaces", "", "name") == " two  spaces||name"
    assert join_key("| business", "|", "money") == "business||money"
