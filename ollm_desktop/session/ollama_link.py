"""The session's side of the server (Ollama or another): status and models, starting Ollama,
pulling, model details and the server's window, exact counts before a send, and the engine's
summarizer call. What a server lacks (pulling, starting it) is offered only where its
``actions`` say it has it; nothing here asks which kind it is."""

from __future__ import annotations

import asyncio
import logging

from ollm_desktop.backend import CONTEXT_OVERFLOW, BackendError
from ollm_desktop.engine import PinsOverBudget
from ollm_desktop.session.calibrations import ApiMessages
from ollm_desktop.session.chat_settings import keep_alive_for
from ollm_desktop.session.connections import Connections
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import (
    NOTHING,
    Change,
    ModelsChanged,
    OllamaStatus,
    PullProgress,
    StatusChanged,
)
from ollm_desktop.session.installed_models import InstalledModels

log = logging.getLogger(__name__)

SUMMARY_PREDICT_CAP = 1024  # num_predict of a summary when the engine names no target
DETAILS_WAIT = 5.0  # seconds a send waits for the model's details (its trained context)
CANNOT_PULL = ("The server at {0} ({1}) cannot download models from here: add {2} on the "
               "server, or choose a model it serves.")


class OllamaLink:
    def __init__(self, core: SessionCore, connections: Connections | None = None) -> None:
        self._core = core
        self._connections = connections
        self._auto_start_tried = False
        self._noted: set[tuple[str, str]] = set()  # (host, model) whose note was shown
        self.installed = InstalledModels(core)

    @property
    def host(self) -> str:
        return self._core.backend.host

    def can_start(self) -> bool:
        return self._core.backend.actions.start and \
            self._core.managed.find_executable() is not None

    async def refresh(self) -> OllamaStatus:
        """Ask the server; publishes the status and the models it serves."""
        core = self._core
        backend = core.backend
        if self._connections is not None:
            core.publish(self._connections.take_pending())
        try:
            version = await backend.version()
            models = await backend.list_models()
        except BackendError as exc:
            can_start = self.can_start()
            if (can_start and core.settings.start_ollama == "always"
                    and not self._auto_start_tried):
                # The user chose once to let the app start Ollama; do it without asking.
                self._auto_start_tried = True
                if await core.managed.start(backend.host):
                    return await self.refresh()
            status = OllamaStatus(reachable=False, host=backend.host, error=exc.message,
                                  can_start=can_start, server=backend.label,
                                  can_pull=backend.actions.pull, error_kind=exc.kind,
                                  can_delete=backend.actions.delete)
            core.publish(StatusChanged(status))
            return status
        core.models = self.installed.with_details(models)
        names = [m.name for m in models]
        if core.model is None and names and core.choose_model(names[0]):
            core.spawn(self.load_model_details_published(names[0]), "model-details")
        elif core.model in names and core.model_details is None:
            # New chats take the model's trained context into account from the first one.
            core.spawn(self.load_model_details_published(core.model), "model-details")
        status = OllamaStatus(reachable=True, host=backend.host, version=version, models=names,
                              model_missing=bool(core.model and core.model not in names),
                              server=backend.label, can_pull=backend.actions.pull,
                              can_delete=backend.actions.delete)
        core.publish(ModelsChanged(tuple(core.models)))
        core.publish(StatusChanged(status))
        self.installed.describe_later()
        return status

    async def start(self) -> None:
        core = self._core
        if not core.backend.actions.start:
            core.publish(Change.problem("unreachable", f"{core.backend.label} at "
                                        f"{core.backend.host} cannot be started from here."))
            return
        if not await core.managed.start(core.backend.host):
            reason = core.managed.error or "unknown reason"
            core.publish(Change.problem("unreachable", f"Ollama could not be started: {reason}"))
        await self.refresh()

    async def pull(self, model: str) -> bool:
        """Download ``model`` with progress events; True when it arrived. Cancelling the
        task closes the download's stream (Ollama keeps the finished layers for next time)."""
        core = self._core
        if not core.backend.actions.pull:
            core.publish(Change.problem("model_not_found", CANNOT_PULL.format(
                core.backend.host, core.backend.label, model)))
            return False
        try:
            async for progress in core.backend.pull(model):
                core.publish(PullProgress(progress.status, progress.completed, progress.total,
                                          model))
        except BackendError as exc:
            core.publish(Change.problem(str(exc.kind), exc.message))
            return False
        core.publish(Change.notice(f"{model} is ready."))
        await self.refresh()
        if core.model == model:
            await self.load_model_details_published(model)
        return True

    async def delete(self, model: str) -> bool:
        """Delete ``model`` from the server (``InstalledModels.delete``), then list again."""
        deleted = await self.installed.delete(model)
        await self.refresh()
        return deleted

    async def load_model_details_published(self, model: str) -> None:
        self._core.publish(await self.load_model_details(model))

    async def load_model_details(self, model: str) -> Change:
        """What the model is (size, trained context); the engine's reliability uses it."""
        core = self._core
        try:
            details = await core.backend.show(model)
        except BackendError as exc:
            if exc.kind == "model_not_found":
                return Change.problem("model_not_found", exc.message)
            return NOTHING
        if model != core.model:
            return NOTHING
        core.model_details = details
        note = NOTHING
        if details.note and (core.backend.host, model) not in self._noted:
            self._noted.add((core.backend.host, model))
            note = Change.notice(details.note)
        engine = core.engine
        if engine is None:
            return note
        engine.set_model_info(core.parameter_billions())
        return note | Change(context=True) | core.fit_to_trained()

    async def before_send(self) -> None:
        """Before a request: know the model's trained context (bounded wait), fit to it; the
        system prompt catches up with a Preferences change made while the chat was busy."""
        core = self._core
        core.publish(core.sync_system_prompt())
        if core.model and core.model_details is None:
            try:
                change = await asyncio.wait_for(self.load_model_details(core.model),
                                                DETAILS_WAIT)
            except TimeoutError:
                change = NOTHING
            core.publish(change)
        await self._follow_window()
        core.publish(core.fit_to_trained(in_turn=True))
        await self._count_exactly()

    async def _follow_window(self) -> None:
        """The server's window may have changed (a restart with another -c, LM Studio having
        loaded the model on the first send): read it again (cached briefly by the backend)."""
        core = self._core
        details, model = core.model_details, core.model
        if core.backend.actions.sets_window or details is None or not model:
            return
        try:
            window = await asyncio.wait_for(core.backend.window(model), DETAILS_WAIT)
        except (BackendError, TimeoutError):
            return
        if window != details.window and model == core.model:
            core.model_details = details.model_copy(
                update={"window": window, "note": details.note if window is None else None})

    async def _count_exactly(self) -> None:
        """Where the server counts, count the request it is about to get: an estimate below
        that count is raised at once, so the room made before the send is made for the real
        size (the server's count of every sent request is learned after it, as for Ollama)."""
        core = self._core
        engine, model = core.engine, core.model
        if not core.backend.actions.count or engine is None or not model:
            return
        try:
            messages = engine.api_messages()
            exact = await asyncio.wait_for(core.backend.count(model, messages), DETAILS_WAIT)
        except (PinsOverBudget, BackendError, TimeoutError) as exc:
            log.info("no exact count before the send: %s", exc)
            return
        if not exact or exact <= engine.api_tokens():
            return
        core.calibrations.learn_exact(model, messages, exact)
        core.sync_calibration(force=True)
        core.publish(Change(context=True))

    def reconnect_if_moved(self) -> None:
        """Preferences changed: follow the connection in use (a new backend when its URL,
        kind, key or CA file moved, or the chat's connection changed)."""
        if self._connections is not None and self._connections.follow_settings():
            self._core.spawn(self.refresh(), "refresh-ollama")

    async def summarize(self, prompt: ApiMessages, max_tokens: int | None = None) -> str:
        """The engine's summarizer: one capped, never-truncated request to Ollama.

        ``max_tokens`` (the engine's output budget for this summary) becomes ``num_predict``:
        without it a small model can write thousands of tokens for minutes.

        Of the chat's own settings a summary takes the context size (the same num_ctx as its
        turns: a different one would reload the model) and keep_alive, never the sampling
        ones: a summary must be faithful, not creative, so a high temperature or top_p chosen
        for the chat's replies would only make it invent; a fixed seed would make the retry
        of a refused summary likely to give the same refused answer again; and the chat's
        num_predict is sized for replies, while a summary has its own target (above).
        """
        core = self._core
        model = core.settings.summarization_model or core.model
        if not model:
            raise RuntimeError("no model selected")
        num_ctx = core.engine.config.context_size if core.engine else \
            core.context_size_for_new_chat()
        predict = max_tokens if max_tokens and max_tokens > 0 else SUMMARY_PREDICT_CAP
        messages = [dict(m) for m in prompt]
        try:
            # A thinking model is asked not to think for a summary: its reasoning would spend
            # the output cap (num_predict) and could leak into the checkpoint text.
            no_thinking = False if model == core.model and core.thinks() else None
            done = await core.backend.chat(model, messages, num_ctx=num_ctx,
                                           options={"num_predict": int(predict)},
                                           keep_alive=keep_alive_for(core), think=no_thinking)
        except BackendError as exc:
            if exc.kind == CONTEXT_OVERFLOW:
                core.calibrations.learn_overflow(model, messages, exc, num_ctx)
            raise
        core.calibrations.observe(model, messages, None, done.prompt_eval_count, num_ctx,
                                  cached=done.prompt_eval_cached_count)
        return done.content
