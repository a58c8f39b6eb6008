"""Issue 25: a summary quoting our own prompt markup never becomes a checkpoint."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.models import GoalState, Message
from ollm_desktop.engine.prompts import summary_prompt
from ollm_desktop.engine.summary_gate import inspect_summary
from tests.engine_fakes import ScriptedSummarizer, compact

MATERIAL = ("The server-side configuration lives in /etc/kestrel/config.toml.\n"
            "Use port 8443 for the admin API and keep TLS on.")
BODY = ("The server-side configuration lives in /etc/kestrel/config.toml; the admin API "
        "uses port 8443 with TLS kept on.\n\n## Key Information\n- Config: "
        "/etc/kestrel/config.toml\n- Port 8443, TLS on")


def _check(raw: str, material: str = MATERIAL) -> str | None:
    messages = [Message(role="user", content=material)]
    prompt = "\n".join(m["content"] for m in summary_prompt(
        messages, verbatim_ids={messages[0].id}, target=160, level=2, goal=GoalState(),
        focus=None))
    verdict = inspect_summary(raw, material=material, prompt=prompt, target=160)
    return None if verdict.ok else verdict.detail


@pytest.mark.parametrize("raw", [
    '<user kept="verbatim">' + BODY,  # what the newcomer's Summary tab showed
    '‹user kept="verbatim">' + BODY,  # the look-alike the neutraliser makes of it
    "## Context\n" + BODY + "\n</assistant> The admin API is ready.",
    "## Context\n&lt;chat_history&gt;\n" + BODY,
    "## Context\n＜assistant＞ " + BODY,
    "## Context\n" + BODY + '\n- (messages marked kept="verbatim")',
    "## Context\n‹previous_checkpoint›\n" + BODY,
])
def test_our_markup_outside_code_is_refused(raw: str) -> None:
    detail = _check(raw)
    assert detail is not None and ("markup" in detail or "kept=" in detail)


@pytest.mark.parametrize(("raw", "material"), [
    # The user's own XML, inside code spans: allowed.
    ("## Context\nThe feed uses `<user id=\"7\">` elements.\n" + BODY,
     MATERIAL + "\nOur feed has <user id=\"7\"> elements."),
    ("## Code & Technical\n```xml\n<user kept=\"yes\"><assistant/></user>\n```\n"
     "## Context\n" + BODY, MATERIAL),
    # A tag the chat itself uses outside code may be named in the summary.
    ("## Context\nThe template's <goal> element holds the target.\n" + BODY,
     MATERIAL + "\nIn the template, <goal> holds the target."),
])
def test_the_users_own_code_and_xml_stay_allowed(raw: str, material: str) -> None:
    assert _check(raw, material) is None


def test_a_leaking_model_gets_a_retry_and_the_checkpoint_is_clean() -> None:
    leak = '<user kept="verbatim">The server-side configuration is discussed.\n- a\n- b'
    good = "## Context\nThe user set up the kestrel server configuration and its admin port."
    summarizer = ScriptedSummarizer(lambda p: leak, lambda p: good)
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer)
    for turn in range(8):
        engine.add("user", f"Question {turn} about the kestrel server configuration?")
        engine.add("assistant", f"Answer {turn}: the configuration is read at start. " * 8)
    report = compact(engine, force=True)
    assert report.status == "compacted" and not report.extractive
    assert report.gate_rejections == ["echo"]
    summary = engine.groups[-1].summary
    assert "user kept" not in summary and "‹user" not in summary
    assert "markup" in summarizer.prompts[1][-1]["content"]  # the retry names the problem
