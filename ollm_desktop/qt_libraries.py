"""Which system libraries Qt's X11 platform plugin is missing, named as apt packages.

When the xcb plugin cannot load, Qt's own message blames ``libxcb-cursor0`` whatever is
missing (a newcomer had it installed; icccm4, keysyms1 and xinerama0 were missing). So before
Qt starts on X11 the app asks ``ldd`` which libraries of the plugin cannot be found, and says
which packages to install. Nothing here imports Qt: it must work when Qt cannot.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

# Library file -> Debian/Ubuntu package, where the usual naming rule does not give it.
PACKAGES = {
    "libX11-xcb.so.1": "libx11-xcb1", "libX11.so.6": "libx11-6", "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0", "libGLX.so.0": "libglx0", "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0",
    "libxcb-util.so.1": "libxcb-util1", "libfreetype.so.6": "libfreetype6",
}
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)
_SONAME = re.compile(r"(lib[\w.+-]+\.so(?:\.\d+)*)")
Run = Callable[[Sequence[str]], str]


def package_for(soname: str) -> str:
    """``libxcb-icccm.so.4`` -> ``libxcb-icccm4``; ``libxkbcommon-x11.so.0`` ->
    ``libxkbcommon-x11-0`` (Debian's rule: a hyphen when the name ends in a digit)."""
    if soname in PACKAGES:
        return PACKAGES[soname]
    name, _, version = soname.partition(".so")
    major = version.lstrip(".").split(".")[0]
    if not major:
        return name.lower()
    return f"{name}{'-' if name[-1].isdigit() else ''}{major}".lower()


def xcb_plugin() -> Path | None:
    """The X11 platform plugin of the installed PySide6 (found without loading Qt)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def _ldd(command: Sequence[str]) -> str:
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=20,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return ""  # no ldd (not glibc, say): nothing can be said, Qt will speak for itself
    return done.stdout


def missing_libraries(plugin: Path | None = None, run: Run = _ldd) -> list[str]:
    """The libraries ``ldd`` cannot find for the xcb plugin, each once, in its order."""
    plugin = plugin or xcb_plugin()
    if plugin is None:
        return []
    return list(dict.fromkeys(_NOT_FOUND.findall(run(["ldd", str(plugin)]))))


def missing_message(sonames: Sequence[str]) -> str:
    """What to tell the user, with the command that installs what is missing."""
    packages = " ".join(dict.fromkeys(package_for(s) for s in sonames))
    listed = ", ".join(sonames)
    return (f"Qt cannot open its window: these system libraries are missing: {listed}.\n"
            f"Install them with:\n    sudo apt install {packages}")


def library_in(error: str) -> str | None:
    """The library an import error could not open ("libEGL.so.1: cannot open ...")."""
    found = _SONAME.search(error)
    return found.group(1) if found else None


def uses_xcb(environ: os._Environ[str] | dict[str, str] | None = None) -> bool:
    """Whether Qt will start on X11 here (so the xcb plugin must load)."""
    env = os.environ if environ is None else environ
    if not sys.platform.startswith("linux"):
        return False
    platform = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip().lower()
    if platform:
        return platform == "xcb"
    return bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY")


def check(run: Run = _ldd) -> str | None:
    """The message for the user when Qt's X11 plugin lacks libraries; None when it does not
    (or when Qt will not use X11 here)."""
    if not uses_xcb():
        return None
    missing = missing_libraries(run=run)
    return missing_message(missing) if missing else None
