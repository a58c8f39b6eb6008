"""Issue 28: a keyless correction that names the value it replaces ("It starts at 11:00, not
10:00") replaces that value's key only, never another key's one value of the same unit
(``fact_named_olds``). Found by ``bench.memory --kind corrections --perturb`` (one more value
of another key in the history)."""

from __future__ import annotations

from ollm_desktop.engine.context import ContextEngine
from ollm_desktop.engine.models import EngineConfig
from tests.engine_fakes import absorbed, fact_of


async def _summarize(*args: object, **kwargs: object) -> str:
    return "## Context\nSmall talk.\n"


def test_the_named_old_value_decides_not_the_one_value_of_its_unit() -> None:
    """The correction is read as soon as it is added (``_take_corrections``), before the
    statement it corrects: the owner-named standup's 9:15 is then the one time in the
    ledger, and the keyless 11:00 took it."""
    engine = ContextEngine(EngineConfig(context_size=4096, preserve_user_messages=False),
                           _summarize, "")
    for role, text in (("user", "Our team standup is at 9:15 every morning."),
                       ("assistant", "Noted."),
                       ("user", "The workshop starts at 14:00."),
                       ("assistant", "Noted."),
                       ("user", "It starts at 14:30, not 14:00.")):
        engine.add(role, text)
    standup = [f for f in engine.facts if f.value == "9:15"]
    assert all(f.status == "current" and not f.possibly_replaced_by for f in standup)


def test_a_keyless_correction_takes_the_key_of_the_value_it_names() -> None:
    ledger = absorbed(("user", "Our team standup is at 9:15 every morning."),
                      ("user", "The quiz night starts at 19:00."),
                      ("user", "It starts at 19:30, not 19:00."))
    assert fact_of(ledger, "9:15").status == "current"
    assert fact_of(ledger, "19:00").status == "replaced"
    assert fact_of(ledger, "19:30").key == fact_of(ledger, "19:00").key
