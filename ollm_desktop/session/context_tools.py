"""The model's own context tools (seed 004, phase 5), off by default, switched per chat
(``ChatTools.context_tools``): ``get_context_stats`` (tokens in use, the window, compactions so
far) and ``compact_context`` (a compaction the user sees as if they had asked for it: the same
progress, checkpoint, snapshot and undo). Both are approved like any tool.
"""

from __future__ import annotations

import json
from typing import Any

from ollm_desktop.backend.mcp_connection import ToolFailure, ToolOutcome
from ollm_desktop.engine.tool_types import ToolSpec
from ollm_desktop.session.tool_loop import ToolRunner

CONTEXT_SERVER = "ollm-desktop"  # the app itself, not an MCP server
NO_ARGUMENTS: dict[str, Any] = {"type": "object", "properties": {}}
STATS = ToolSpec(name="get_context_stats", server=CONTEXT_SERVER, read_only=True,
                 description="How full this conversation's context window is: tokens in use, "
                             "the window's size, and how many compactions have run.",
                 parameters=NO_ARGUMENTS)
COMPACT = ToolSpec(name="compact_context", server=CONTEXT_SERVER,
                   description="Compact the earlier conversation into a checkpoint now, to "
                               "free room; 'focus' says what the checkpoint must keep.",
                   parameters={"type": "object", "properties": {
                       "focus": {"type": "string", "description": "what to keep in detail"}}})
SPECS = (STATS, COMPACT)


class WithContextTools:
    """A ``ToolRunner``: the app's own two tools, every other call to ``inner``."""

    def __init__(self, core: Any, inner: ToolRunner) -> None:
        self._core = core
        self._inner = inner

    async def call(self, server: str, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if server != CONTEXT_SERVER:
            return await self._inner.call(server, name, arguments)
        engine = self._core.engine
        if engine is None:
            raise ToolFailure("No chat is open.")
        if name == STATS.name:
            usage = engine.usage()
            return ToolOutcome(json.dumps({
                "tokens_in_use": usage.total, "window": usage.context_size,
                "usable": usage.usable, "percent_used": round(usage.percent * 100, 1),
                "compactions": usage.compaction_count, "checkpoints": usage.checkpoint_count,
                "tools_schema_tokens": usage.tools}))
        if name == COMPACT.name:
            focus = arguments.get("focus")
            report = await self._core.compactions.run(
                focus=str(focus) if isinstance(focus, str) and focus.strip() else None,
                force=True)
            if report.status in ("compacted", "truncated"):
                return ToolOutcome(f"Compacted: {report.tokens_before:,} -> "
                                   f"{report.tokens_after:,} tokens in use.")
            return ToolOutcome(f"Not compacted: {report.reason}", is_error=True)
        raise ToolFailure(f"There is no tool named {name}.")
