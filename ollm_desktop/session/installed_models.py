"""The models a server has, as the model picker and Preferences ▸ Models show them: each with
its size, trained context and capabilities (vision, tools, thinking), and deleting one.

A listing (Ollama's ``/api/tags``) is quick and says nothing of context or capabilities; each
model's details (``/api/show``) are asked once per model file (host, name, digest) in a task
of their own, a few at a time, after the listing was shown, so a refresh never waits for them.
A server whose listing is all it says (``ModelInfo.described``) is never asked again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from ollm_desktop.backend import BackendError
from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import Change, ModelsChanged

log = logging.getLogger(__name__)

AT_ONCE = 3  # /api/show calls in flight: a server with 40 models is not flooded
CANNOT_DELETE = ("The server at {0} ({1}) cannot delete models from here: remove {2} on the "
                 "server itself.")
IN_USE = ("{0} is answering or summarising right now: wait for it to finish (or Stop it), "
          "then delete it.")

Key = tuple[str, str, str | None]


class InstalledModels:
    """Details of the listed models (cached per model file) and deletion."""

    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._described: dict[Key, ModelInfo] = {}
        self._task: asyncio.Task[None] | None = None

    def _key(self, model: ModelInfo) -> Key:
        return self._core.backend.host, model.name, model.digest

    def with_details(self, models: Iterable[ModelInfo]) -> list[ModelInfo]:
        """The listing with the details already known for each model."""
        return [self._described.get(self._key(m), m) for m in models]

    def describe_later(self) -> None:
        """Ask for the details the current listing lacks, in a task (one at a time)."""
        if self._task is not None and not self._task.done():
            return
        if any(not m.described for m in self._core.models):
            self._task = self._core.spawn(self.describe(), "describe-models")

    async def describe(self) -> None:
        """Fill in each undescribed model's details, then publish the listing once."""
        core = self._core
        host = core.backend.host
        wanted = [m for m in core.models if not m.described]
        gate = asyncio.Semaphore(AT_ONCE)

        async def one(model: ModelInfo) -> None:
            async with gate:
                try:
                    details = await core.backend.show(model.name)
                except BackendError as exc:  # left undescribed: the next refresh asks again
                    log.info("no details for %s: %s", model.name, exc.message)
                    return
            self._described[(host, model.name, model.digest)] = model.described_by(details)

        await asyncio.gather(*(asyncio.create_task(one(m), name=f"describe-model-{m.name}")
                               for m in wanted))  # named: gather would make "Task-N"s
        if core.backend.host != host:  # the chat moved to another server meanwhile
            return
        core.models = self.with_details(core.models)
        core.publish(ModelsChanged(tuple(core.models)))

    def forget(self, name: str) -> None:
        for key in [k for k in self._described if k[1] == name]:
            del self._described[key]

    def refusal(self, model: str) -> Change | None:
        """Why ``model`` cannot be deleted now: the server cannot, or it is in use."""
        core = self._core
        backend = core.backend
        if not backend.actions.delete:
            return Change.problem("invalid", CANNOT_DELETE.format(
                backend.host, backend.label, model))
        in_use = {core.model, core.settings.summarization_model or core.model}
        if core.busy and model in in_use:
            return Change.problem("busy", IN_USE.format(model))
        return None

    async def delete(self, model: str) -> bool:
        """Delete ``model`` from the server; True when it went. The listing is asked again
        either way (a failed delete may mean it had already gone)."""
        core = self._core
        refused = self.refusal(model)
        if refused is not None:
            core.publish(refused)
            return False
        try:
            await core.backend.delete(model)
        except BackendError as exc:
            core.publish(Change.problem(str(exc.kind), exc.message))
            return False
        self.forget(model)
        core.publish(Change.notice(f"{model} was deleted from the server."))
        return True
