"""Which server each chat talks to: the connections, their keys, the open chat's backend.

A connection has a name, URL, kind and an optional API key, and there can be several; they
live in the Preferences (``Settings.connections``), and each chat names its connection in its
own settings (``ChatSettings.connection``; None: "Local Ollama", made from the host setting,
which every chat made before connections existed belongs to). ``--host URL`` makes one
connection for the run that every chat uses (never saved). Keys live in the system keyring;
with none available the app says so and takes the key from ``--api-key-env NAME`` only.
"""

from __future__ import annotations

import os

from ollm_desktop.backend import (
    LOCAL_OLLAMA_ID,
    NO_KEYRING,
    ChatServer,
    Connection,
    KeyringMissing,
    ServerKind,
    command_line,
    local_ollama,
    open_server,
    read_key,
    store_key,
)
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import NOTHING, Change
from ollm_desktop.storage.models import ChatRecord

NO_ENV_KEY = ("--api-key-env {0}: the environment variable {0} is not set, so no API key is "
              "sent.")


class Connections:
    """The connections and the backend of the one in use (``core.backend``)."""

    def __init__(self, core: SessionCore, *, host: str | None = None,
                 api_key_env: str | None = None) -> None:
        self._core = core
        self._command_line = command_line(host) if host else None
        self._env_name = api_key_env
        self._env_key = os.environ.get(api_key_env, "").strip() or None if api_key_env else None
        self._keyring_told = self._env_told = False
        self._kinds: dict[tuple[str, str], ServerKind] = {}  # found by asking, this run
        self._pending = NOTHING
        self.current = self._command_line or self.for_new_chat()
        core.calibrations.scope = self.scope(self.current)

    # ------------------------------------------------------------------ which
    @property
    def command_line(self) -> Connection | None:
        """``--host``'s connection for this run (it then serves every chat)."""
        return self._command_line

    def all(self) -> list[Connection]:
        """Local Ollama first, then the user's (and ``--host``'s for this run)."""
        found = [local_ollama(self._core.settings.ollama_host),
                 *[c for c in self._core.settings.connections if c.id != LOCAL_OLLAMA_ID]]
        listed = [self._command_line, *found] if self._command_line else found
        return [self._known(c) for c in listed]

    def _known(self, connection: Connection) -> Connection:
        """With the kind found by asking, when it was not given."""
        kind = self._kinds.get((connection.id, connection.url))
        return connection.model_copy(update={"kind": kind}) if (
            connection.kind is None and kind) else connection

    def by_id(self, connection_id: str | None) -> Connection | None:
        return next((c for c in self.all() if c.id == (connection_id or LOCAL_OLLAMA_ID)), None)

    def for_chat(self, chat: ChatRecord | None) -> Connection:
        """The chat's connection (``--host`` wins for the run; an unknown one: the default)."""
        if self._command_line is not None:
            return self._known(self._command_line)
        if chat is not None and (found := self.by_id(chat.settings.connection)) is not None:
            return found
        return self.for_new_chat()

    def for_new_chat(self) -> Connection:
        if self._command_line is not None:
            return self._known(self._command_line)
        return self.by_id(self._core.settings.default_connection) or self._known(
            local_ollama(self._core.settings.ollama_host))

    def stored_id(self, connection: Connection) -> str | None:
        """What a chat stores: None for Local Ollama (as every older chat has) and for the
        run's ``--host`` (not saved, so a later run opens the chat with its default)."""
        if connection.id == LOCAL_OLLAMA_ID or (
                self._command_line is not None and connection.id == self._command_line.id):
            return None
        return connection.id

    @staticmethod
    def scope(connection: Connection) -> str:
        """Calibrations are per connection and model; Local Ollama's predate connections."""
        return "" if connection.id == LOCAL_OLLAMA_ID else connection.id

    # -------------------------------------------------------------------- use
    def backend_for(self, connection: Connection) -> ChatServer:
        settings = self._core.settings
        return open_server(connection, api_key=self.api_key(connection),
                           timeout=settings.request_timeout, keep_alive=settings.keep_alive,
                           on_probed=lambda kind: self._probed(connection, kind))

    def use(self, connection: Connection, *, force: bool = False) -> bool:
        """Talk to ``connection`` from now on; True when the backend changed (the caller
        refreshes the models). The old backend is closed in the background."""
        core = self._core
        if not force and connection == self.current:
            return False
        old = core.backend
        core.backend = self.backend_for(connection)
        self.current = connection
        core.calibrations.scope = self.scope(connection)
        core.models, core.model_details = [], None
        core.spawn(old.close(), "close-backend")
        return True

    def follow_settings(self) -> bool:
        """Preferences changed: reconnect when the connection in use moved (its URL, kind, key
        or CA file), and follow the open chat's (or the default's) connection."""
        wanted = self.for_chat(self._core.chat)
        return self.use(wanted)

    def _probed(self, connection: Connection, kind: ServerKind) -> None:
        """A connection's kind was found: kept for the run, and in the Preferences' list
        (shown there) for a saved connection."""
        settings = self._core.settings
        self._kinds[(connection.id, connection.url)] = kind
        if self.current.id == connection.id and self.current.kind is None:
            self.current = self.current.model_copy(update={"kind": kind})
        updated = [c.model_copy(update={"kind": kind})
                   if c.id == connection.id and c.url == connection.url and c.kind is None
                   else c for c in settings.connections]
        if updated != settings.connections:
            settings.connections = updated

    # -------------------------------------------------------------------- keys
    def api_key(self, connection: Connection) -> str | None:
        """The key for a request: the keyring's, else ``--api-key-env``'s for this run."""
        if connection.has_key:
            try:
                if key := read_key(connection.id):
                    return key
            except KeyringMissing:
                self._tell_keyring_missing()
        if self._env_name and self._env_key is None and not self._env_told:
            self._env_told = True
            self._pending = self._pending | Change.notice(NO_ENV_KEY.format(self._env_name))
        return self._env_key

    def _tell_keyring_missing(self) -> None:
        """Said once, with the next status (a backend is made before anyone listens)."""
        if not self._keyring_told:
            self._keyring_told = True
            self._pending = self._pending | Change.problem("keyring", NO_KEYRING)

    def take_pending(self) -> Change:
        """What the user should be told about keys since the last status."""
        pending, self._pending = self._pending, NOTHING
        return pending

    def set_key(self, connection_id: str, key: str | None) -> Change:
        """Keep (or, blank, forget) a connection's key in the keyring; the connection in
        use reconnects with it."""
        try:
            store_key(connection_id, key)
        except KeyringMissing:
            return Change.problem("keyring", NO_KEYRING)
        if self.current.id == connection_id:
            self.use(self.current, force=True)
        return NOTHING



