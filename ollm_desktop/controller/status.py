"""Small value types the controller's signals carry."""

from __future__ import annotations

from pydantic import BaseModel, Field


class OllamaStatus(BaseModel):
    reachable: bool
    host: str
    version: str | None = None
    models: list[str] = Field(default_factory=list)
    model_missing: bool = False
    can_start: bool = False
    error: str | None = None


class ReplyInfo(BaseModel):
    stopped: bool = False
    error: str | None = None
    removed: bool = False  # nothing arrived; the empty reply was discarded
    user_message_id: str | None = None
    prompt_tokens: int | None = None
    reply_tokens: int | None = None
    truncated: bool = False  # Ollama's prompt count suggests it dropped context
    retried: bool = False  # refused as too long: fitted again and resent (a new reply follows)
