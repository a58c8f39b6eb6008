"""A firm's name joined by "&" after a copula and ending its clause ("is now Kessler &
Moens") is one name, kept as written; elsewhere "&" may join two people or a pronoun, and
an unspaced "&" is an abbreviation: no name is joined there."""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("history, text, right, wrong", [
    ("Customs broker on the Antwerp file is Van Dijck Logistics.",
     "Broker is now Kessler & Moens, we changed because of the delays.", "Kessler & Moens",
     "Van Dijck Logistics"),
    ("Our uniform supplier is Hartley Textiles.", "Actually the uniform supplier is Marks & "
     "Spencer, not Hartley Textiles.", "Marks & Spencer", "Hartley Textiles"),
    ("The auditor is Grant Thornton.", "The auditor is now Ernst & Young.", "Ernst & Young",
     "Grant Thornton"),
])
def test_a_firm_name_with_an_ampersand_is_one_value(history: str, text: str, right: str,
                                                   wrong: str) -> None:
    check_current(values_after(history, text), right, wrong)


@pytest.mark.parametrize("text, joined", [
    ("The leads are Priya & I.", "Priya & I"),
    ("Ana & Ben lead the Tuesday shift.", "Ana & Ben"),
    ("The budget is for R&D.", "R&D"),
])
def test_no_name_is_joined_across_a_pronoun_a_subject_pair_or_an_unspaced_ampersand(
        text: str, joined: str) -> None:
    assert joined not in values_after(text)


@pytest.mark.parametrize("history, text, firm, parts", [
    ("The lawyer is Smith & Jones.", "The lawyer is Baker & McKenzie.", "Baker & McKenzie",
     ("Baker", "McKenzie")),
    ("The supplier is Hartley Textiles.", "The supplier is now O'Neil & MacDonald.",
     "O'Neil & MacDonald", ("O'Neil", "MacDonald")),
])
def test_an_inner_capital_in_the_second_name_does_not_split_the_firm(
        history: str, text: str, firm: str, parts: tuple[str, str]) -> None:
    """One rule for "Smith & Jones" and "Baker & McKenzie": an inner capital (Mc, Mac)
    reads the second name as a code, yet it is a name continuing the firm's."""
    values = values_after(history, text)
    assert firm in values
    assert not set(parts) & set(values)
