"""The tools' schemas in the budget: only the chat's chosen tools, counted, in one stable order,
and refused when they would take more than their share of the window.

Tool definitions alone can fill a context (claude-code #13717: 49 % of a 200K window;
mcp-agent #77). The schemas travel in the request's ``tools`` field, which the server's chat
template writes at the front of the prompt, before the system message: the one stable place
where the server's KV cache keeps them from one send to the next. So they are sorted (server,
then name) and written with sorted keys; a request changes there only when the user changes
the chat's tools.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ollm_desktop.engine import budget
from ollm_desktop.engine.models import EngineConfig
from ollm_desktop.engine.tool_types import ToolSpec

SCHEMA_SHARE = 0.25  # of the usable window: the most all chosen schemas may take
PER_TOOL = 4  # what a template adds around each definition, about
NAMED = 3  # the biggest schemas a refusal names


class ToolsOverBudget(ValueError):
    """The chosen tools' schemas would take more than their share of the window."""

    def __init__(self, check: SchemaCheck) -> None:
        super().__init__(check.message)
        self.check = check


@dataclass(frozen=True, slots=True)
class SchemaCheck:
    tokens: int  # all chosen schemas, in the model's units
    limit: int
    sizes: tuple[tuple[str, int], ...]  # (tool, tokens), biggest first

    @property
    def fits(self) -> bool:
        return self.tokens <= self.limit

    @property
    def message(self) -> str:
        if self.fits:
            return ""
        biggest = ", ".join(f"{name} ({tokens:,})" for name, tokens in self.sizes[:NAMED])
        return (f"The chosen tools' descriptions take {self.tokens:,} tokens, more than the "
                f"{self.limit:,} this context allows them (a quarter of what may be sent). "
                f"The biggest: {biggest}. Choose fewer tools, or a larger context size.")


def ordered(specs: Sequence[ToolSpec]) -> list[ToolSpec]:
    """One order for a set, whatever order the user picked them in; one tool per name."""
    unique = {spec.name: spec for spec in sorted(specs, key=lambda s: (s.server, s.name))}
    return sorted(unique.values(), key=lambda s: (s.server, s.name))


def schema_limit(config: EngineConfig) -> int:
    return int(budget.usable_tokens(config) * SCHEMA_SHARE)


def check(specs: Sequence[ToolSpec], config: EngineConfig,
          count: Callable[[str], int]) -> SchemaCheck:
    sizes = sorted(((s.name, count(s.wire_text()) + PER_TOOL) for s in ordered(specs)),
                   key=lambda item: (-item[1], item[0]))
    return SchemaCheck(sum(t for _, t in sizes), schema_limit(config), tuple(sizes))


def wire(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """The ``tools`` field as sent: a copy each time (the caller may not change ours)."""
    return [json.loads(spec.wire_text()) for spec in ordered(specs)]
