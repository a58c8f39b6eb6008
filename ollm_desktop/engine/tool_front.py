"""The engine's tool calls (mixed into ``ContextEngine``): the chat's chosen tools, counted in
the budget, and what each tool result is sent as (``tool_results``, ``tool_schemas``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ollm_desktop.engine import tool_results, tool_schemas
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.tool_types import ToolSpec


class ToolFront:
    _data: Conversation
    _invalidate: Callable[..., None]
    _assembly: Callable[[], Any]
    _region_now: Callable[[], Any]

    @property
    def tools(self) -> list[ToolSpec]:
        return list(self._data.tools)

    def check_tools(self, specs: Sequence[ToolSpec]) -> tool_schemas.SchemaCheck:
        """What ``specs`` would cost, and whether they fit their share (nothing changes)."""
        return tool_schemas.check(specs, self._data.config, self._data.count)

    def set_tools(self, specs: Sequence[ToolSpec]) -> tool_schemas.SchemaCheck:
        """Choose the tools every request offers; raises ``ToolsOverBudget`` (naming the
        biggest schemas) when they would take more than their share of the window, and then
        keeps the previous choice."""
        result = self.check_tools(specs)
        if not result.fits:
            raise tool_schemas.ToolsOverBudget(result)
        self._data.tools = tool_schemas.ordered(specs)
        self._data.tools_tokens = result.tokens
        self._invalidate()
        return result

    def api_tools(self) -> list[dict[str, Any]]:
        """The request's ``tools`` field (empty: send none)."""
        return tool_schemas.wire(self._data.tools)

    def tool_result_states(self) -> dict[str, tool_results.ResultState]:
        """Per tool result of the recent turns: sent whole, cut, or pruned (for its row)."""
        data = self._data
        recent = data.messages[self._region_now().boundary:]
        return {mid: sent.state for mid, sent in
                tool_results.plan(recent, data.config, data.count).items()}
