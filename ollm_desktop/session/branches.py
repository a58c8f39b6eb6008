"""Branches and forks of the open chat, and a message's alternatives: a service the session
holds.

A branch is a chat of the same family (``ChatRecord.root_id``) holding a copy of the history
up to a point (``engine.branching.state_up_to``); switching branch opens that chat, so the
whole state (messages, checkpoints, pins, goal) switches with it. Edit and resend branches
before the edited message; Regenerate keeps the earlier reply in a branch of its own, so it
is an alternative the user can page back to. A fork is a new chat of its own, carrying the
checkpoints and pins up to a message.

A message's alternatives are the family's chats that share the history before it and hold a
different message at its place (origins tell copies apart from new messages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ollm_desktop.engine.branching import state_up_to
from ollm_desktop.session.core import WARNED_MARK, SessionCore
from ollm_desktop.session.events import Change
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.export import with_fresh_ids
from ollm_desktop.storage.models import ChatRecord

EDIT_LABEL = "Edited: {0}"
EARLIER_REPLY = "Earlier reply"
ONLY_USER = "Only your own messages can be edited and sent again."
NO_MESSAGE = "That message is no longer in this chat."


@dataclass(frozen=True)
class Alternatives:
    """The versions of one message: ``chats[i]`` opens version ``i + 1``; ``index`` is this
    chat's (0-based)."""

    index: int
    chats: tuple[str, ...]
    message_ids: tuple[str, ...]  # each version's message, in its chat

    @property
    def count(self) -> int:
        return len(self.chats)

    @property
    def label(self) -> str:
        return f"{self.index + 1}/{self.count}"


_FORK = re.compile(r" \(fork(?: (\d+))?\)$")


def fork_title(title: str) -> str:
    """"Title (fork)"; a fork of a fork is "Title (fork 2)", not "Title (fork) (fork)"."""
    found = _FORK.search(title)
    if found is None:
        return f"{title} (fork)"
    return f"{title[:found.start()]} (fork {int(found.group(1) or 1) + 1})"


def _short(text: str, limit: int = 40) -> str:
    line = " ".join(text.split())
    return line[:limit] + ("…" if len(line) > limit else "")


class Branches:
    def __init__(self, core: SessionCore) -> None:
        self._core = core

    def _copy(self, message_id: str, *, keep: bool, title: str, kind: str,
              label: str) -> ChatRecord | Change:
        core = self._core
        chat, engine = core.chat, core.engine
        assert chat is not None and engine is not None
        try:
            state = with_fresh_ids(state_up_to(engine.state(), message_id, keep_message=keep))
        except KeyError:
            return Change.problem("input", NO_MESSAGE)
        try:
            copy = core.store.create_chat(title, model=chat.model,
                                          context_size=chat.context_size,
                                          settings=chat.settings)
            fork = kind == "fork"
            core.store.set_family(copy.id, parent_id=chat.id,
                                  root_id=None if fork else chat.family_id, kind=kind,
                                  label=label)
            core.store.replace_chat_state(copy.id, state)
            core.store.copy_documents(chat.id, copy.id)  # the attached documents go along
            if core.store.has_chat_mark(chat.id, WARNED_MARK):  # warned once per conversation
                core.store.set_chat_mark(copy.id, WARNED_MARK)
        except StorageError as exc:
            return core.storage_failed(exc)
        record = core.store.get_chat(copy.id)
        assert record is not None
        return record

    def branch_for_edit(self, message_id: str, new_text: str) -> ChatRecord | Change:
        """A branch holding the history before ``message_id``; the caller opens it and sends
        ``new_text`` there. The original chat is left as it was."""
        refused = self._core.idle_chat_refusal()
        if refused is not None:
            return refused
        assert self._core.engine is not None and self._core.chat is not None
        message = self._core.engine.message(message_id)
        if message is None:
            return Change.problem("input", NO_MESSAGE)
        if message.role != "user":
            return Change.problem("input", ONLY_USER)
        return self._copy(message_id, keep=False, title=self._core.chat.title, kind="branch",
                          label=EDIT_LABEL.format(_short(new_text)))

    def fork(self, message_id: str) -> ChatRecord | Change:
        """A new chat with the history, checkpoints and pins up to ``message_id``."""
        refused = self._core.idle_chat_refusal()
        if refused is not None:
            return refused
        chat = self._core.chat
        assert chat is not None
        return self._copy(message_id, keep=True, title=fork_title(chat.title), kind="fork",
                          label=f"Forked from “{_short(chat.title)}”")

    def keep_reply(self, message_id: str) -> ChatRecord | None:
        """Before Regenerate replaces the newest reply: the chat as it is, as a branch, so the
        earlier reply stays an alternative. None if it could not be stored (the regenerate
        still runs; only the alternative is lost, and that is logged by the store)."""
        chat = self._core.chat
        if chat is None:
            return None
        made = self._copy(message_id, keep=True, title=chat.title, kind="branch",
                          label=EARLIER_REPLY)
        return made if isinstance(made, ChatRecord) else None

    def discard(self, chat_id: str) -> None:
        """A kept reply that came back (the regenerate got nothing): its copy is not needed."""
        self._core.store.delete_chat(chat_id)

    # ----------------------------------------------------------- alternatives
    def alternatives(self) -> dict[str, Alternatives]:
        """Per message id of the open chat that has other versions: its versions.

        Another chat of the family is a version at the first message of ours it does not
        hold, if its own next message after the last one we share is not ours either. Matching
        by origin, not by position, keeps a message deleted in one chat (but not in the other)
        from making a wrong version appear.
        """
        core = self._core
        chat = core.chat
        if chat is None:
            return {}
        family = core.store.family_ids(chat.family_id)
        if len(family) < 2 or chat.id not in family:
            return {}
        lines = core.store.lineages(family)
        mine = lines.get(chat.id, [])
        mine_origins = [origin for _, origin, _ in mine]
        mine_set = set(mine_origins)
        # our position -> origin -> (created_at, [(chat id, its message id)])
        found: dict[int, dict[str, tuple[str, list[tuple[str, str]]]]] = {}
        for other in family:
            if other == chat.id:
                continue
            theirs = lines.get(other, [])
            their_origins = [origin for _, origin, _ in theirs]
            their_set = set(their_origins)
            k = next((i for i, o in enumerate(mine_origins) if o not in their_set), None)
            if k is None:
                continue  # all of ours is in theirs: it continues us, no other version
            j = their_origins.index(mine_origins[k - 1]) if k > 0 else -1
            if j + 1 >= len(theirs) or their_origins[j + 1] in mine_set:
                continue
            message_id, origin, created = theirs[j + 1]
            entry = found.setdefault(k, {}).setdefault(origin, (created, []))
            entry[1].append((other, message_id))
        result = {}
        for k, options in found.items():
            message_id, origin, created = mine[k]
            options[origin] = (created, [(chat.id, message_id)])
            ordered = sorted(options.items(), key=lambda item: item[1][0])
            picked = [self._newest(holders) for _, (_, holders) in ordered]
            index = next(i for i, (o, _) in enumerate(ordered) if o == origin)
            result[message_id] = Alternatives(index, tuple(c for c, _ in picked),
                                              tuple(m for _, m in picked))
        return result

    def _newest(self, holders: list[tuple[str, str]]) -> tuple[str, str]:
        """Of the chats holding one version, the one used most recently (and its message)."""
        if len(holders) == 1:
            return holders[0]
        records = {r.id: r for r in (self._core.store.get_chat(c) for c, _ in holders) if r}
        known = [h for h in holders if h[0] in records]
        return max(known, key=lambda h: records[h[0]].updated_at) if known else holders[0]
