"""A send that got no reply: its message leaves the chat and its text goes back to the input."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.engine import Message
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import Change, SendFailed

if TYPE_CHECKING:
    from ollm_desktop.session.compactions import Compactions


def take_back(core: SessionCore, user: Message) -> bool:
    """Remove a just-sent user message that got no reply; its text goes back to the input."""
    engine, chat = core.engine, core.chat
    if engine is None or chat is None or not engine.remove_last(user.id):
        return False
    core.store.delete_message(user.id)
    core.publish(Change(history=True, context=True))
    return True


async def give_back(core: SessionCore, compactions: Compactions, user: Message, reason: str,
                    kind: str = "send") -> None:
    """A send that got no reply: its message leaves the chat, its text goes back to the input.

    A running compaction holds the history (the engine refuses to take a message back
    then), so it is waited for, bounded; if the message still cannot be taken back it
    stays in the chat and the reason is shown as an error instead.
    """
    engine = core.engine
    if engine is not None and engine.compacting:
        await compactions.wait(engine.config.compaction_timeout_s)
    if take_back(core, user):
        core.publish(SendFailed(user.content, reason))
    else:
        core.publish(Change.problem(kind, reason))
