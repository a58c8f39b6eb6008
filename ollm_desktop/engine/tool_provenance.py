"""Who stated what a tool returned: identifiers in tool output rank like the assistant's.

A tool's output is untrusted text the model asked for, not something the user said: a port in
a config file the model read is no more the user's fact than a port the model wrote. So a
tool result is read with the assistant's provenance everywhere facts and references rank
their sources, and is sent again only when the user uses it.

Where this holds today (the facts modules are being rewritten on another branch, so this
module is the one place to hook into):

- ``facts.absorb`` reads only user and assistant messages: a tool result adds no fact and
  corrects none (``tests/test_engine_tools.py`` checks it).
- ``references.extract_ranked`` ranks any role other than "user" and "summary" as the
  assistant's.
- A compaction's material carries a result's outcome line, not its output
  (``tool_results.summary_material``), so identifiers deep in an output never reach a
  checkpoint's references by way of the summary.

The rewrite should call :func:`fact_source` where it maps a message's role to a fact's
source, so that "tool" keeps ranking as the assistant's.
"""

from __future__ import annotations

from typing import Literal

FactSource = Literal["user", "assistant"]


def fact_source(role: str) -> FactSource:
    """The provenance a message's identifiers get: the user's only for the user's words."""
    return "user" if role == "user" else "assistant"


def reads_facts(role: str) -> bool:
    """Whether a message of ``role`` may state or correct the user's facts."""
    return role == "user"
