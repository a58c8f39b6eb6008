"""The one check of an Ollama address, shared by Preferences and ``--host`` (stdlib only, so
the command line can check it before anything heavy is imported).

What is accepted is what ``OllamaBackend.resolve_host`` understands: a URL (``http://`` or
``https://``) or the short forms people put in ``OLLAMA_HOST`` (``localhost:11434``,
``:11434``, ``0.0.0.0``). Empty means "the default".
"""

from __future__ import annotations

import re
import urllib.parse

EXAMPLE = "http://127.0.0.1:11434"
_SCHEME = re.compile(r"^https?://", re.IGNORECASE)


def host_problem(text: str) -> str | None:
    """Why ``text`` is not an Ollama address, in words for the user; None if it is one."""
    host = text.strip()
    if not host:
        return None
    if any(ch.isspace() for ch in host):
        return "an address has no spaces"
    if "://" in host and not _SCHEME.match(host):
        return "only http:// and https:// addresses are supported"
    url = host if "://" in host else f"http://{host}"
    try:
        port = urllib.parse.urlsplit(url).port  # raises on a port that is not a number
    except ValueError:
        port = 0
    if port == 0:
        return "the port must be a number from 1 to 65535"
    return None
