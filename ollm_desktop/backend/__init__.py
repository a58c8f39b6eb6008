"""Server access without Qt: one protocol (``ChatServer``) with a module per server API
(Ollama's own, OpenAI-compatible), connections and their keys, error kinds, calibration, the
managed Ollama."""

from ollm_desktop.backend.calibration import (
    TokenCalibration,
    load_calibration,
    save_calibration,
)
from ollm_desktop.backend.client import DEFAULT_HOST, OllamaBackend
from ollm_desktop.backend.connection import (
    LOCAL_OLLAMA_ID,
    NO_KEYRING,
    Connection,
    KeyringMissing,
    command_line,
    local_ollama,
    read_key,
    store_key,
)
from ollm_desktop.backend.errors import CONTEXT_OVERFLOW, BackendError, ErrorKind
from ollm_desktop.backend.managed import ManagedOllama
from ollm_desktop.backend.models import (
    ChatChunk,
    ChatDone,
    ModelDetails,
    ModelInfo,
    PullProgress,
    RunningModel,
)
from ollm_desktop.backend.protocol import KIND_LABELS, ChatServer, ServerActions, ServerKind
from ollm_desktop.backend.server import open_server

__all__ = [
    "CONTEXT_OVERFLOW",
    "DEFAULT_HOST",
    "KIND_LABELS",
    "LOCAL_OLLAMA_ID",
    "NO_KEYRING",
    "BackendError",
    "ChatChunk",
    "ChatDone",
    "ChatServer",
    "Connection",
    "ErrorKind",
    "KeyringMissing",
    "ManagedOllama",
    "ModelDetails",
    "ModelInfo",
    "OllamaBackend",
    "PullProgress",
    "RunningModel",
    "ServerActions",
    "ServerKind",
    "TokenCalibration",
    "command_line",
    "load_calibration",
    "local_ollama",
    "open_server",
    "read_key",
    "save_calibration",
    "store_key",
]
