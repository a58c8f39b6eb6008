"""A loopback MCP server for the tests, on the official SDK's server side: over stdio
(``python -m tests.mcp_server stdio``) or Streamable HTTP (``... http PORT``).

Its tools cover what a client must survive: ``echo``; ``big`` (a 50,000-token result);
``picture`` (an image); ``fail`` (the tool fails: ``is_error``); ``hang`` (never answers);
``die`` (the process exits in the middle of the call); ``env`` (the environment the process
got, to check what a stdio child is given); ``read_note`` (marked read-only).
"""

from __future__ import annotations

import asyncio
import base64
import os
import sys

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ImageContent, TextContent, ToolAnnotations

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==")
BIG_LINES = 5_000  # about 10 tokens a line: 50,000 tokens


def build() -> MCPServer:
    server = MCPServer("ollm-test-tools")

    @server.tool(description="Echo the text back.")
    def echo(text: str) -> str:
        return f"echo: {text}"

    @server.tool(description="A result of about 50,000 tokens (numbered log lines).")
    def big() -> str:
        return "\n".join(f"line {n:05d}: service api-{n % 7} answered in {n % 97} ms"
                         for n in range(BIG_LINES))

    @server.tool(description="A 1x1 picture and a caption.")
    def picture() -> list[TextContent | ImageContent]:
        return [TextContent(text="a red dot"),
                ImageContent(data=base64.b64encode(PNG).decode(), mime_type="image/png")]

    @server.tool(description="Always fails.")
    def fail(reason: str = "broken") -> str:
        raise ToolError(f"the tool failed: {reason}")

    @server.tool(description="Never answers.")
    async def hang() -> str:
        await asyncio.sleep(3600)
        return "late"

    @server.tool(description="The server dies during the call.")
    def die() -> str:
        sys.stdout.flush()
        os._exit(3)

    @server.tool(description="The names of this process's environment variables.")
    def env() -> str:
        return "\n".join(sorted(os.environ))

    @server.tool(description="Read a note.", annotations=ToolAnnotations(read_only_hint=True))
    def read_note(name: str) -> str:
        return f"note {name}: the deploy port is 8443"

    @server.tool(description="Read a file of the project.",
                 annotations=ToolAnnotations(read_only_hint=True))
    def read_file(path: str) -> str:
        return project_file(path)

    @server.tool(description="Search the project for a word.",
                 annotations=ToolAnnotations(read_only_hint=True))
    def search(query: str) -> str:
        return "\n".join(f"src/mod_{n}.py:{n * 7}: {query} = settings.get('{query}_{n}')"
                         for n in range(40))

    @server.tool(description="Run a shell command in the project.")
    def run(command: str) -> str:
        return f"$ {command}\n" + "\n".join(
            f"[{n:04d}] ok test_case_{n} ({n % 13} ms)" for n in range(300)) + "\n300 passed"

    return server


def project_file(path: str) -> str:
    """A deterministic file of about 3,000 tokens whose middle names a port of its own."""
    seed = sum(path.encode())
    lines = [f"# {path}"]
    lines += [f"def handler_{n}(request):  # route /api/v{n % 3}/items/{n}" for n in range(120)]
    lines.insert(60, f"SERVICE_PORT = {7000 + seed % 997}  # the port of {path}")
    lines += [f"    return respond({n})" for n in range(60)]
    return "\n".join(lines)


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    server = build()
    if mode == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))


if __name__ == "__main__":
    main()
