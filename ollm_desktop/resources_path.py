"""Locate shipped resources in a source checkout, an installed wheel or a PyInstaller bundle."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache
def resources_dir() -> Path:
    """The folder holding ``cl100k_base.tiktoken`` and the icons.

    Order: PyInstaller bundle, installed package ``ollm_desktop.resources``,
    then the repository's top-level ``resources/`` (editable installs, tests).
    """
    candidates: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(Path(bundle) / "ollm_desktop" / "resources")
        candidates.append(Path(bundle) / "resources")
    try:
        import ollm_desktop.resources as res

        candidates.extend(Path(p) for p in res.__path__)
    except ImportError:
        pass
    candidates.append(Path(__file__).resolve().parent.parent / "resources")
    for candidate in candidates:
        if (candidate / "cl100k_base.tiktoken").is_file():
            return candidate
    raise FileNotFoundError(
        "ollm-desktop resources not found (looked in: "
        + ", ".join(str(c) for c in candidates)
        + "). Reinstall the app."
    )


def resource(name: str) -> Path:
    return resources_dir() / name
