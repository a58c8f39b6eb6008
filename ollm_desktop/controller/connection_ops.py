"""Connections (servers) and their keys: the controller's side (the session does the work)."""

from __future__ import annotations

import asyncio
from typing import Any

from ollm_desktop.backend import BackendError, Connection
from ollm_desktop.backend.probe import Probed, probe
from ollm_desktop.controller.ops_base import OpsBase


class ConnectionOps(OpsBase):
    @property
    def connections(self) -> list[Connection]:
        """Every connection (Local Ollama first); the one in use is ``connection``."""
        return self.session.connections.all()

    @property
    def connection(self) -> Connection:
        return self.session.connections.current

    @property
    def host_from_command_line(self) -> bool:
        """The address in use came from ``--host`` (messages name it so, not Preferences)."""
        return self.session.connections.command_line is not None

    def server_choices(self) -> list[tuple[str | None, str]]:
        """(what a chat stores, name) of each server a chat may talk to; none while
        ``--host`` decides for the run."""
        connections = self.session.connections
        if connections.command_line is not None:
            return []
        return [(connections.stored_id(c), c.name) for c in connections.all()]

    def set_api_key(self, connection_id: str, key: str | None) -> bool:
        """Keep a connection's API key in the system keyring (blank: forget it); False, with
        an ``error`` saying why, when no keyring can keep it."""
        return self._op(self.session.connections.set_key, connection_id, key)

    def test_connection(self, url: str, api_key: str | None = None,
                        ca_file: str | None = None) -> asyncio.Task[Any]:
        """Ask ``url`` what it is (Preferences' Test button); the task's result is a
        ``Probed`` or the ``BackendError`` that says what is wrong (never raised)."""
        async def ask() -> Probed | BackendError:
            try:
                return await probe(url, api_key=api_key, ca_file=ca_file,
                                   timeout=self.session.settings.request_timeout)
            except BackendError as exc:
                return exc

        return self._spawn(ask(), "refresh-ollama")
