"""``bench.memory --kind corrections --perturb``: its variants are value-safe, deterministic,
and dropped where they would change what the message means."""

from __future__ import annotations

from typing import Any

from bench.memory import perturb


def _case(text: str, forms: tuple[str, ...] = ("x-not-y",), current: str = "9443",
          replaced: tuple[str, ...] = ("8443",)) -> dict[str, Any]:
    return {"id": "x1", "half": "dev", "forms": list(forms), "polarity": "correction",
            "shared_word": False, "history": [{"role": "user", "text": "The API port is 8443."}],
            "message": {"role": "user", "text": text},
            "expect": {"supersedes": True, "keys": [
                {"key": "api port", "current": current, "replaced": list(replaced),
                 "not_current": []}]}}


def test_variants_keep_every_expected_value_and_are_deterministic() -> None:
    case = _case("Actually the API port is now 9443, not 8443.")
    made = perturb.variants(case)
    assert made == perturb.variants(case)
    assert made["lower"]["message"]["text"] == "actually the api port is now 9443, not 8443."
    assert made["not-paren"]["message"]["text"] == "Actually the API port is now 9443 (not 8443)."
    assert len(made) > 10
    for variant in made.values():
        assert "9443" in variant["message"]["text"] and "8443" in variant["message"]["text"]
    assert case["message"]["text"] == "Actually the API port is now 9443, not 8443."


def test_a_variant_that_would_touch_a_value_or_change_nothing_is_dropped() -> None:
    case = _case("We moved Heroku -> Render.", forms=("from-y-to-x",), current="Render",
                 replaced=("Heroku",))
    made = perturb.variants(case)
    assert made["arrow-to-from"]["message"]["text"] == "We moved from Heroku to Render."
    assert "not-paren" not in made and "arrow-ascii" not in made  # nothing to rewrite
    named = _case("Set it to Mr. Bello.", current="Mr. Bello", replaced=())
    assert "lower" in perturb.variants(named)
    assert "Mr. Bello" in perturb.variants(named)["lower"]["message"]["text"]


def test_text_placed_before_a_message_that_refers_back_is_dropped() -> None:
    case = _case("Scratch that, it's 9443.", forms=("scratch-that",), replaced=())
    made = perturb.variants(case)
    assert "after-other" not in made and "history-last" not in made
    assert "history-first" in made  # (far before it: the message still follows its fact)


def test_the_extra_history_value_is_scored_as_a_key_that_stays_current() -> None:
    made = perturb.variants(_case("The API port is now 9443, not 8443."))
    extra = made["history-first"]["expect"]["keys"][-1]
    assert extra["replaced"] == [] and extra["current"] in made["history-first"]["history"][0][
        "text"]
    two = made["two-keys"]
    assert two["expect"]["keys"][-1]["replaced"] == [extra["current"]]
