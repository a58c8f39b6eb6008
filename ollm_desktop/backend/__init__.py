"""Ollama access without Qt: async client wrapper, error kinds, calibration, managed server."""

from ollm_desktop.backend.calibration import (
    TokenCalibration,
    load_calibration,
    save_calibration,
)
from ollm_desktop.backend.client import DEFAULT_HOST, OllamaBackend
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

__all__ = [
    "CONTEXT_OVERFLOW",
    "DEFAULT_HOST",
    "BackendError",
    "ChatChunk",
    "ChatDone",
    "ErrorKind",
    "ManagedOllama",
    "ModelDetails",
    "ModelInfo",
    "OllamaBackend",
    "PullProgress",
    "RunningModel",
    "TokenCalibration",
    "load_calibration",
    "save_calibration",
]
