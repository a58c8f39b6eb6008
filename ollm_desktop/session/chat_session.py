"""ChatSession: every operation on the open chat, without Qt.

Synchronous operations return a :class:`Change`; the caller (the Qt adapter's operation
helper, or a test) saves when ``change.save`` and refreshes what it names. Long operations
(a turn, a compaction, an Ollama probe) are coroutines that publish events as they go.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools

from ollm_desktop.backend import ChatServer, ManagedOllama
from ollm_desktop.backend.mcp_config import Parsed
from ollm_desktop.engine import CompressedGroup, ContextEngine, GoalState, Message
from ollm_desktop.session.branches import Branches
from ollm_desktop.session.chat_list import ChatList
from ollm_desktop.session.chat_settings import ChatSettingsService
from ollm_desktop.session.chat_tools import ChatToolsService
from ollm_desktop.session.compactions import Compactions
from ollm_desktop.session.connections import Connections
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.documents import DocumentsService
from ollm_desktop.session.events import NOTHING, Change
from ollm_desktop.session.facts import Facts
from ollm_desktop.session.images import ImageAttachments
from ollm_desktop.session.message_deletes import MessageDeletes
from ollm_desktop.session.ollama_link import OllamaLink
from ollm_desktop.session.reply_edits import EditKind, ReplyEdits
from ollm_desktop.session.settings import Settings
from ollm_desktop.session.snapshots import Snapshots
from ollm_desktop.session.turns import Turns
from ollm_desktop.storage import ChatStore, StorageError
from ollm_desktop.storage.models import ChatRecord, ChatSettings, SearchHit

NEW_CHAT = "New chat"
STILL_EMPTY = "This chat has no messages yet, so it is the new chat."


def title_from(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else NEW_CHAT
    return line[:60] + ("…" if len(line) > 60 else "")


class ChatSession(SessionCore):
    """The open chat and everything done to it; see the module docstring."""

    def __init__(self, store: ChatStore, settings: Settings, backend: ChatServer | None = None,
                 *, model: str | None = None, host: str | None = None,
                 managed: ManagedOllama | None = None, api_key_env: str | None = None,
                 mcp_config: Parsed | None = None) -> None:
        super().__init__(store, settings, backend, model=model, host=host, managed=managed)
        self.tools = ChatToolsService(self, mcp_config)  # MCP servers, per-chat tool choice
        # Which server each chat talks to; ``backend`` given (tests): that one, for every chat.
        self.connections = Connections(self, host=host, api_key_env=api_key_env)
        if backend is None:
            self.backend = self.connections.backend_for(self.connections.current)
        self.ollama = OllamaLink(self, self.connections)
        self.before_send = self.ollama.before_send
        self.compactions = Compactions(self)
        self.turns = Turns(self, self.compactions)
        self.snapshots = Snapshots(self)
        self.chat_settings = ChatSettingsService(self, self.connections, self.ollama.refresh)
        self.images = ImageAttachments(self)  # for the next message: its turn takes them
        self.turns.take_images = self.images.take
        self.turns.pending_tokens = self.images.pending_tokens
        self.chat_list = ChatList(self)  # pins, delete with undo; purges the old trash
        self.branches = Branches(self)
        self.message_deletes = MessageDeletes(self)
        self.facts = Facts(self)  # the user's changes to the facts ledger, with undo
        self.recall = self.turns.recall
        self.documents = DocumentsService(self)  # attached to the chat; their passages
        self.turns.with_documents = self.documents.into_request
        self.compactions.documents_ahead = self.documents.ahead_tokens

    # ------------------------------------------------------------------ chats
    def list_chats(self) -> list[ChatRecord]:
        return self.store.list_chats()

    def search(self, text: str) -> list[SearchHit]:
        if not text.strip():
            return []
        return self.store.search(text, prefer=self.chat.id if self.chat else None)

    def new_chat(self, title: str | None = None) -> Change:
        if self._open_chat_is_empty():
            return self._reuse_empty_chat(title)
        connection = self.connections.for_new_chat()
        same_server = connection == self.connections.current
        try:
            chat = self.store.create_chat(
                title or NEW_CHAT, model=self.model if same_server else None,
                context_size=self.context_size_for_new_chat(),
                system_prompt=self.settings.system_prompt or None,
                settings=ChatSettings(connection=self.connections.stored_id(connection),
                                      recall=self.settings.recall_new_chats))
        except StorageError as exc:
            return self.storage_failed(exc)
        return Change(chats=True) | self.open_chat(chat.id)

    def open_chat(self, chat_id: str) -> Change:
        """Open a stored chat (a streaming reply of the previous one is the caller's to stop)."""
        chat = self.store.get_chat(chat_id)
        if chat is None:
            return Change.problem("storage", "That chat no longer exists.")
        state = self.store.load_engine_state(chat_id)
        config = self.config_for(chat)
        summarize = self.ollama.summarize
        prompt = self.system_prompt_for(chat)  # the chat's own, or the Preferences' default
        if state is not None:
            state.system_prompt = prompt
        engine = (ContextEngine(config, summarize, prompt) if state is None
                  else ContextEngine.from_state(state, config, summarize))
        self.attach(engine)
        self.chat = chat
        if self.connections.use(self.connections.for_chat(chat)):
            # Another server: its models are asked for; the chat's own model, if it has one.
            self.model = chat.model or self.settings.default_model
            self.spawn(self.ollama.refresh(), "refresh-ollama")
        elif chat.model and chat.model != self.model:
            self.model = chat.model
            self.model_details = None
        self.settings.last_chat_id = chat.id
        if self.model:
            self.spawn(self.ollama.load_model_details_published(self.model), "model-details")
        self.recall.schedule_embedding()
        self.documents.opened()
        return Change(opened=chat, history=True, context=True)

    def rename_chat(self, chat_id: str, title: str) -> Change:
        title = title.strip()
        if not title:
            return Change.problem("input", "A chat needs a name.")
        self.store.rename_chat(chat_id, title)
        if self.chat and self.chat.id == chat_id:
            self.chat = self.store.get_chat(chat_id)
        return Change(chats=True)

    def delete_chat(self, chat_id: str) -> Change:
        """To the trash (the window offers Undo; ``chat_list.purge`` deletes it for good)."""
        return self.chat_list.trash(chat_id)

    # ------------------------------------------------------------------ model
    def set_model(self, model: str) -> Change:
        if self.choose_model(model):
            self.spawn(self.ollama.load_model_details_published(self.model or model),
                       "model-details")
            return Change(context=True)
        return NOTHING

    def set_context_size(self, size: int, *, apply_now: bool = False) -> Change:
        """New chats use ``size``; the open chat changes only when asked (the model reloads)."""
        self.settings.context_size = size
        if not (apply_now and self.chat and self.engine):
            return NOTHING
        if self.busy:
            return self.busy_problem()
        self.store.set_chat_context_size(self.chat.id, size)
        self.chat = self.store.get_chat(self.chat.id)
        self.engine.config.context_size = size
        self.engine.load_state(self.engine.state())
        return Change(save=True, context=True)

    def apply_settings(self, new: Settings | None = None) -> Change:
        """Preferences changed: reconnect if the host moved; the open chat's engine follows.

        The time limits are read at the start of each call and run, so they are simply set;
        the verbatim window changes what is sent, so the engine rebuilds its context (only
        when idle: a running compaction or reply keeps the old window until the next open).
        """
        if new is not None:
            for name in type(new).model_fields:
                setattr(self.settings, name, getattr(new, name))
        self.ollama.reconnect_if_moved()
        self.tools.servers_changed()  # an edited or removed server starts again when used
        engine, settings = self.engine, self.settings
        if engine is None:
            return NOTHING
        prompt = NOTHING if self.busy else self.sync_system_prompt()  # a default prompt moved
        config = engine.config
        config.summary_timeout_s = settings.summary_timeout_s
        config.compaction_timeout_s = settings.compaction_timeout_s
        window = (settings.preserve_recent_tokens, settings.keep_recent_turns)
        if window != (config.preserve_recent_tokens, config.keep_recent_turns) and not (
                self.busy or engine.compacting):
            config.preserve_recent_tokens, config.keep_recent_turns = window
            engine.load_state(engine.state())
            return Change(context=True) | prompt
        return prompt

    # ------------------------------------------------------------ pins, goal
    def set_pinned(self, message_id: str, pinned: bool) -> Change:
        if self.engine is None:
            return NOTHING
        try:
            message = self.engine.set_pinned(message_id, pinned)
        except KeyError:
            return NOTHING  # a reply still streaming: pin it once it is complete
        try:
            self.store.set_pinned(message_id, pinned)
        except StorageError as exc:
            return self.storage_failed(exc)
        return Change(updated=(message.model_copy(),), context=True)

    def toggle_pin(self, message_id: str) -> Change:
        message = self.engine.message(message_id) if self.engine else None
        return NOTHING if message is None else self.set_pinned(message_id, not message.pinned)

    def set_goal(self, goal: GoalState) -> Change:
        if self.engine is None:
            return NOTHING
        self.engine.set_goal(goal)
        return Change(save=True, context=True)

    def set_goal_description(self, text: str) -> Change:
        if self.engine is None:
            return NOTHING
        goal = self.engine.goal.model_copy(deep=True)
        goal.description = text.strip()
        return self.set_goal(goal)

    # ------------------------------------------------------------------ turns
    def start_turn(self, text: str) -> tuple[Change, str | None]:
        """Validate a send and prepare its chat (created, or named after its first message).

        Returns what preparing changed and, when the text cannot be sent, why (it then goes
        back to the input). When the reason is None the turn has begun: the caller runs
        ``turns.run(text)`` as a task and calls ``turns.ended()`` when that task is over.
        """
        reason = self.turns.check(text)
        if reason is not None:
            return NOTHING, reason
        change = Change(save=True, context=True) if self.images.recount() else NOTHING
        title = title_from(text or "Image: " + ", ".join(i.name for i in self.images.pending))
        if self.chat is None:
            change = self.new_chat(title)
        elif self.engine is not None and not self.engine.display_messages():
            change = self.rename_chat(self.chat.id, title)
        if self.engine is None:
            return change, "The chat could not be opened."
        reason = self.turns.check(text)  # a new chat's context may be smaller
        if reason is not None:
            return change, reason
        self.turns.begin(text)
        return change, None

    # ------------------------------------------------------------- read side
    def group_view(self, group_id: str) -> tuple[CompressedGroup, list[Message], bool] | None:
        """A compressed group, its original messages and whether it is the newest undoable."""
        engine = self.engine
        if engine is None:
            return None
        groups = engine.groups
        group = next((g for g in groups if g.id == group_id), None)
        if group is None:
            return None
        originals = [m.model_copy() for mid in (group.span_ids or group.message_ids)
                     if (m := engine.message(mid)) is not None]
        newest = group.id == groups[-1].id and engine.can_undo
        return group.model_copy(deep=True), originals, newest

    # ------------------------------------------------------------------ close
    async def close(self) -> None:
        """Close the tool servers, the backend, the Ollama this app started, and the store."""
        with contextlib.suppress(Exception):
            await self.tools.close()  # no MCP owner task or child process is left
        with contextlib.suppress(Exception):
            await self.recall.close()
        with contextlib.suppress(Exception):
            await self.documents.meaning.close()
        with contextlib.suppress(Exception):
            await self.compactions.cache.close()
        with contextlib.suppress(Exception):
            await self.backend.close()
        with contextlib.suppress(Exception):
            await self.managed.stop()
        self.store.close()

    async def drain(self, timeout: float = 3.0) -> None:
        """Tests and scripts without an adapter: wait for the session's own background tasks."""
        if self._own_tasks:
            await asyncio.wait(set(self._own_tasks), timeout=timeout)

    # ------------------------------------------- regenerate, continue (issue 14)
    @functools.cached_property
    def reply_edits(self) -> ReplyEdits:
        return ReplyEdits(self, self.turns, self.compactions, self.branches)

    def start_reply_edit(self, kind: EditKind) -> Change:
        """Begin a Regenerate or a Continue of the newest reply, or say why not (a problem).

        Without a problem it has begun: the caller runs ``reply_edits.regenerate()`` or
        ``reply_edits.continue_reply()`` as a task and calls ``turns.ended()`` after it.
        """
        refusal = self.reply_edits.check(kind)
        if refusal is not None:
            return Change.problem(*refusal)
        self.turns.begin(None)
        return NOTHING

    # ------------------------------------------------ an empty chat is reused
    def _open_chat_is_empty(self) -> bool:
        return (self.chat is not None and self.engine is not None and not self.busy
                and not self.engine.display_messages())

    def _reuse_empty_chat(self, title: str | None) -> Change:
        """New chat while the open chat has no message: that chat becomes the new one (a
        second empty row would only be clutter), with the size a new chat would get."""
        chat, engine = self.chat, self.engine
        assert chat is not None and engine is not None
        change = Change(history=True, context=True, notices=(STILL_EMPTY,))
        size = self.context_size_for_new_chat()
        try:
            if size != chat.context_size:
                self.store.set_chat_context_size(chat.id, size)
                engine.config.context_size = size
                engine.load_state(engine.state())
                change = change | Change(save=True, chats=True)
        except StorageError as exc:
            return self.storage_failed(exc)
        if title and title != chat.title:
            change = change | self.rename_chat(chat.id, title)
        self.chat = self.store.get_chat(chat.id) or chat
        return change | Change(opened=self.chat)
