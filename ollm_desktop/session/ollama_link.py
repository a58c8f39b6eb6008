"""The session's side of Ollama: status and models, starting it, pulling, model details, and
the engine's summarizer call."""

from __future__ import annotations

import asyncio

from ollm_desktop.backend import CONTEXT_OVERFLOW, BackendError, OllamaBackend
from ollm_desktop.session.calibrations import ApiMessages
from ollm_desktop.session.chat_settings import keep_alive_for
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import (
    NOTHING,
    Change,
    ModelsChanged,
    OllamaStatus,
    PullProgress,
    StatusChanged,
)

SUMMARY_PREDICT_CAP = 1024  # num_predict of a summary when the engine names no target
DETAILS_WAIT = 5.0  # seconds a send waits for the model's details (its trained context)


class OllamaLink:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._auto_start_tried = False

    @property
    def host(self) -> str:
        return self._core.backend.host

    def can_start(self) -> bool:
        return self._core.managed.find_executable() is not None

    async def refresh(self) -> OllamaStatus:
        """Probe Ollama; publishes the status and the installed models."""
        core = self._core
        host = core.backend.host
        try:
            version = await core.backend.version()
            models = await core.backend.list_models()
        except BackendError as exc:
            can_start = self.can_start()
            if (can_start and core.settings.start_ollama == "always"
                    and not self._auto_start_tried):
                # The user chose once to let the app start Ollama; do it without asking.
                self._auto_start_tried = True
                if await core.managed.start(host):
                    return await self.refresh()
            status = OllamaStatus(reachable=False, host=host, error=exc.message,
                                  can_start=can_start)
            core.publish(StatusChanged(status))
            return status
        core.models = list(models)
        names = [m.name for m in models]
        if core.model is None and names and core.choose_model(names[0]):
            core.spawn(self.load_model_details_published(names[0]), "model-details")
        elif core.model in names and core.model_details is None:
            # New chats take the model's trained context into account from the first one.
            core.spawn(self.load_model_details_published(core.model), "model-details")
        status = OllamaStatus(reachable=True, host=host, version=version, models=names,
                              model_missing=bool(core.model and core.model not in names))
        core.publish(ModelsChanged(tuple(models)))
        core.publish(StatusChanged(status))
        return status

    async def start(self) -> None:
        core = self._core
        if not await core.managed.start(core.backend.host):
            reason = core.managed.error or "unknown reason"
            core.publish(Change.problem("unreachable", f"Ollama could not be started: {reason}"))
        await self.refresh()

    async def pull(self, model: str) -> None:
        core = self._core
        try:
            async for progress in core.backend.pull(model):
                core.publish(PullProgress(progress.status, progress.completed, progress.total))
        except BackendError as exc:
            core.publish(Change.problem(str(exc.kind), exc.message))
            return
        core.publish(Change.notice(f"{model} is ready."))
        await self.refresh()
        if core.model == model:
            await self.load_model_details_published(model)

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
        engine = core.engine
        if engine is None:
            return NOTHING
        engine.set_model_info(core.parameter_billions())
        return Change(context=True) | core.fit_to_trained()

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
        core.publish(core.fit_to_trained(in_turn=True))

    def reconnect_if_moved(self) -> None:
        """Preferences changed: a new backend when the host moved (the old one is closed)."""
        core = self._core
        if core.host_override:
            return  # the command line chose the host for this run
        settings = core.settings
        if OllamaBackend.resolve_host(settings.ollama_host) != core.backend.host:
            old = core.backend
            core.backend = OllamaBackend(settings.ollama_host, timeout=settings.request_timeout,
                                         keep_alive=settings.keep_alive)
            core.spawn(old.close(), "close-backend")

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
        core.calibrations.observe(model, messages, None, done.prompt_eval_count, num_ctx)
        return done.content
