"""Which kind of server answers at an address, found by asking, in a fixed order.

1. Ollama: ``/api/version``;
2. llama.cpp: ``/props`` (llama-server also serves ``/tokenize``, so it is asked before vLLM);
3. LM Studio: ``/api/v0/models``;
4. vLLM: ``max_model_len`` in ``/v1/models``, and ``/tokenize``;
5. otherwise a generic OpenAI-compatible server, if ``/v1/models`` answers.

Each answer must have its kind's shape, not only status 200: LM Studio answers unknown paths
with 200 and an error text. A URL may be given with or without ``/v1``.
"""

from __future__ import annotations

import ssl
import urllib.parse
from dataclasses import dataclass
from typing import Any

from ollm_desktop.backend.errors import BackendError
from ollm_desktop.backend.openai_errors import Where, http_error, map_transport
from ollm_desktop.backend.protocol import KIND_LABELS, ServerKind

_API_SUFFIXES = ("/chat/completions", "/v1")


def api_root(url: str) -> str:
    """The server's root from a base URL: ``http://h:8000/v1/`` -> ``http://h:8000``."""
    text = url.strip()
    if "://" not in text:
        text = f"http://{text}"
    split = urllib.parse.urlsplit(text)
    path = split.path.rstrip("/")
    for suffix in _API_SUFFIXES:
        if path.endswith(suffix):
            path = path[: -len(suffix)].rstrip("/")
    return urllib.parse.urlunsplit((split.scheme.lower(), split.netloc, path, "", ""))


@dataclass(frozen=True, slots=True)
class Probed:
    kind: ServerKind
    root: str
    version: str = ""

    @property
    def label(self) -> str:
        return KIND_LABELS[self.kind]


async def probe(url: str, *, api_key: str | None = None, ca_file: str | None = None,
                timeout: float = 10.0) -> Probed:
    """The kind at ``url``; raises ``BackendError`` (unreachable, unauthorized, or not an
    API this app speaks) with a sentence for the user."""
    import httpx

    root = api_root(url)
    where = Where(root, "server", bool(api_key))
    verify: ssl.SSLContext | bool = True
    if ca_file:
        try:
            verify = ssl.create_default_context(cafile=ca_file)
        except (OSError, ssl.SSLError) as exc:
            raise BackendError("invalid", f"The CA file {ca_file} could not be read: {exc}",
                               detail=str(exc)) from exc
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        async with httpx.AsyncClient(base_url=root, headers=headers, verify=verify,
                                     trust_env=False, timeout=timeout) as client:
            return await _ask(client, root, where)
    except BackendError:
        raise
    except Exception as exc:
        raise map_transport(exc, where, timeout) from exc


async def _get(client: Any, path: str, where: Where) -> Any:
    """The JSON at ``path``; None when the path is not there (or not JSON)."""
    response = await client.get(path)
    if response.status_code in (401, 403):
        raise http_error(response.status_code, response.text, where)
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except ValueError:
        return None


async def _ask(client: Any, root: str, where: Where) -> Probed:
    answer = await _get(client, "/api/version", where)
    if isinstance(answer, dict) and isinstance(answer.get("version"), str):
        return Probed("ollama", root, answer["version"])
    answer = await _get(client, "/props", where)
    if isinstance(answer, dict) and isinstance(answer.get("default_generation_settings"), dict):
        return Probed("llama.cpp", root, str(answer.get("build_info") or ""))
    answer = await _get(client, "/api/v0/models", where)
    if isinstance(answer, dict) and isinstance(answer.get("data"), list):
        return Probed("lmstudio", root)
    models = await _get(client, "/v1/models", where)
    if not (isinstance(models, dict) and isinstance(models.get("data"), list)):
        raise BackendError("invalid", f"The server at {root} does not speak Ollama's API or "
                           "the OpenAI-compatible API (no model list at /v1/models). Check the "
                           "address.")
    entries = [e for e in models["data"] if isinstance(e, dict)]
    if any("max_model_len" in e for e in entries):
        tokenize = await client.post("/tokenize", json={"prompt": ""})
        if tokenize.status_code not in (404, 405):
            return Probed("vllm", root)
    return Probed("generic", root)
