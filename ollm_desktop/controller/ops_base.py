"""What the controller's feature mixins may use of :class:`ChatController` (typed for mypy)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from ollm_desktop.session import Change, ChatSession
    from ollm_desktop.storage.models import ChatRecord


class OpsBase:
    """Plain mixin base (no Qt): the controller provides these."""

    session: ChatSession
    _reply_task: asyncio.Task[Any] | None
    pendingImagesChanged: SignalInstance

    if TYPE_CHECKING:
        def _op(self, operation: Callable[..., Change], *args: Any, idle: bool = False,
                **kwargs: Any) -> bool: ...

        def _apply(self, change: Change) -> None: ...

        def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]: ...

        def _open_new(self, result: ChatRecord | Change) -> ChatRecord | None: ...

        def stop(self) -> None: ...

        def open_chat(self, chat_id: str) -> None: ...
