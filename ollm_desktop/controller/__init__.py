"""Async orchestration: engine, store and Ollama on the qasync loop, Qt signals for the UI."""

from ollm_desktop.controller.chat_controller import ChatController
from ollm_desktop.controller.status import OllamaStatus, ReplyInfo

__all__ = ["ChatController", "OllamaStatus", "ReplyInfo"]
