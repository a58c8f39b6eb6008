"""Issue 28: a number read as a name with a word before it ("rank 16", "temperature 0.7",
"default 9090") is the number of its key: a correction that names the key by a bare number
replaces it; another owner's key, a question and a real name stay apart."""

from __future__ import annotations

from ollm_desktop.engine.fact_labelled_numbers import counted_unit
from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed, fact_of, value_of

# fact_settings_lists reads "rank 16, alpha 32" as the number 16 keyed by its label (rank),
# and several labels that share a number ("batch 16, gradient accumulation 16") each keep
# their own entry.


def entry(ledger: list[Fact], value: str, attribute: str) -> Fact:
    """The ledger's entry of the number ``value`` whose key's attribute is ``attribute``
    ("16" of rank): a labelled number is read as the number keyed by its label."""
    return next(f for f in ledger if f.value == value and f.key.split("|")[1] == attribute)


def test_a_label_and_number_is_the_number_of_its_attribute() -> None:
    assert counted_unit("rank 16", "lora run|rank|name") == "number"
    assert counted_unit("temperature 0.7", "|temperature|name") == "number"
    assert counted_unit("default 9090", "|port|name") == "port"


def test_a_name_with_a_number_stays_a_name() -> None:
    assert counted_unit("Studio 54", "|venue|name") == ""  # not the venue's number
    assert counted_unit("Hotel 55 Ltd", "|hotel|name") == ""  # three words
    assert counted_unit("rank 16", "lora run|rank|number") == ""  # not read as a name


def test_a_bare_number_replaces_the_labelled_one_of_its_key() -> None:
    ledger = absorbed(("user", "Sampler settings: temperature 0.7, top_k 40, seed 1234."),
                      ("user", "raise the temperature to 0.9"))
    old = fact_of(ledger, "temperature 0.7")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "0.9"
    assert fact_of(ledger, "seed 1234").status == "current"


def test_the_hyperparameter_beside_it_stays_current() -> None:
    ledger = absorbed(("user", "For the LoRA run: rank 16, alpha 32, dropout 0.05."),
                      ("user", "bump the rank to 64 and keep the rest"))
    assert value_of(ledger, entry(ledger, "16", "rank").replaced_by) == "64"
    assert entry(ledger, "32", "alpha").status == "current"
    assert entry(ledger, "0.05", "dropout").status == "current"


def test_a_port_with_a_word_before_it_replaces_its_own_owners_port_only() -> None:
    ledger = absorbed(("user", "The API listens on port 8443 and the admin console on port "
                               "9000."),
                      ("user", "change the admin console port to default 9001"))
    assert fact_of(ledger, "8443").status == "current"
    assert fact_of(ledger, "8443").possibly_replaced_by is None
    assert value_of(ledger, fact_of(ledger, "9000").replaced_by) == "default 9001"


def test_a_port_named_by_its_head_noun_alone_is_the_one_port() -> None:
    ledger = absorbed(("user", "The search server listens on port 8080."),
                      ("user", "change port to default 9090"))
    assert value_of(ledger, fact_of(ledger, "8080").replaced_by) == "default 9090"


def test_a_question_about_the_key_replaces_nothing() -> None:
    ledger = absorbed(("user", "For the LoRA run: rank 16, alpha 32."),
                      ("user", "Should we bump the rank to 64?"))
    rank = entry(ledger, "16", "rank")
    assert rank.status == "current" and rank.possibly_replaced_by is None


def test_a_named_old_number_is_the_labelled_value_its_key_names_cut_short() -> None:
    ledger = absorbed(("user", "Run config: batch 16, gradient accumulation 16."),
                      ("user", "grad accum is 32 not 16"))
    assert value_of(ledger, entry(ledger, "16", "accumulation").replaced_by) == "32"


def test_a_named_old_number_leaves_the_same_number_under_another_label() -> None:
    ledger = absorbed(("user", "Run config: batch 16, gradient accumulation 16."),
                      ("user", "grad accum is 32 not 16"))
    batch = entry(ledger, "16", "batch")  # the same number under another label
    assert batch.status == "current" and batch.possibly_replaced_by is None


def test_a_named_old_number_leaves_another_labels_value_of_that_number() -> None:
    ledger = absorbed(("user", "LoRA: rank 16, alpha 16."), ("user", "alpha is 32 not 16"))
    assert value_of(ledger, entry(ledger, "16", "alpha").replaced_by) == "32"


def test_a_named_old_number_keeps_another_labels_entry_of_that_number() -> None:
    ledger = absorbed(("user", "LoRA: rank 16, alpha 16."), ("user", "alpha is 32 not 16"))
    assert entry(ledger, "16", "rank").status == "current"


def test_a_labelled_restatement_of_the_number_replaces_nothing() -> None:
    ledger = absorbed(("user", "The port is 9090."),
                      ("user", "Change the port to default 9090."),
                      ("user", "Port 8080 please."))
    port = fact_of(ledger, "9090")  # restated, not replaced by its own number
    assert port.status == "current" and port.replaced_by is None
    assert value_of(ledger, port.possibly_replaced_by) == "8080"
