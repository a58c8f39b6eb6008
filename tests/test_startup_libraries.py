"""Issue 25, point 10: a start that fails for missing system libraries names them.

Qt's own message blamed ``libxcb-cursor0``, which was installed; icccm4, keysyms1 and
xinerama0 were missing. The app asks ``ldd`` about Qt's X11 plugin itself and names the
packages with the apt command; its failure dialog is wrapped to a readable width.
"""

from __future__ import annotations

import ctypes
import os
import stat
import sys
from pathlib import Path

import pytest

from ollm_desktop import qt_libraries, startup_failure
from tests.test_app_cli import _answer_modal, _app, _env, _failure_lines

NEWCOMER_LDD = """\
\tlinux-vdso.so.1 (0x00007ffd1b7f2000)
\tlibQt6XcbQpa.so.6 => /opt/venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f6a0c600000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f6a0c5f0000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-xinerama.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f6a0c200000)
"""
EXPECTED = "sudo apt install libxcb-icccm4 libxcb-keysyms1 libxcb-xinerama0"


def test_the_missing_libraries_are_named_with_their_packages() -> None:
    found = qt_libraries.missing_libraries(Path("/plugin/libqxcb.so"),
                                           run=lambda command: NEWCOMER_LDD)
    assert found == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-xinerama.so.0"]
    message = qt_libraries.missing_message(found)
    assert EXPECTED in message and "cursor" not in message
    assert [qt_libraries.package_for(s) for s in (
        "libxkbcommon-x11.so.0", "libxcb-render-util.so.0", "libEGL.so.1",
        "libglib-2.0.so.0")] == ["libxkbcommon-x11-0", "libxcb-render-util0", "libegl1",
                                 "libglib2.0-0"]


def test_the_real_plugin_is_checked_with_ldd() -> None:
    """On this machine: whatever ldd calls missing really does not load."""
    plugin = qt_libraries.xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    for soname in qt_libraries.missing_libraries(plugin):
        with pytest.raises(OSError):
            ctypes.CDLL(soname)


def test_qt_is_only_checked_where_it_will_use_x11() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("X11 is checked on Linux")
    uses = qt_libraries.uses_xcb
    assert uses({"DISPLAY": ":0"}) and uses({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"})
    assert not uses({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"})
    assert not uses({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"})
    assert not uses({})


def test_a_start_on_x11_without_them_names_them_and_exits(tmp_path) -> None:
    """The app, started on X11 where ldd finds libraries missing, says which and how to get
    them (one line on stderr, the log), and never lets Qt abort."""
    tools = tmp_path / "bin"
    tools.mkdir()
    ldd = tools / "ldd"
    output = tmp_path / "ldd-output.txt"
    output.write_text(NEWCOMER_LDD)
    ldd.write_text(f"#!/bin/sh\nexec /bin/cat '{output}'\n")  # nothing else on PATH
    ldd.chmod(ldd.stat().st_mode | stat.S_IEXEC)
    data = tmp_path / "data"
    env = _env(tmp_path, QT_QPA_PLATFORM="xcb", DISPLAY=":99", PATH=str(tools))
    result = _app(env, "--data-dir", str(data))
    assert result.returncode == 1, result.stderr
    [line] = _failure_lines(result)
    assert EXPECTED in line and "libxcb-icccm.so.4" in line and "cursor" not in line
    log = (data / "logs" / "ollm-desktop.log").read_text(encoding="utf-8")
    assert EXPECTED in log
    assert "Aborted" not in result.stderr and "core dumped" not in result.stderr


def test_a_library_qt_cannot_import_is_named_with_its_package(tmp_path) -> None:
    fake = tmp_path / "fake" / "PySide6"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise ImportError('libEGL.so.1: cannot open shared object file')\n")
    root = Path(__file__).resolve().parent.parent
    env = _env(tmp_path, PYTHONPATH=f"{fake.parent}{os.pathsep}{root}")
    result = _app(env, "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 1
    [line] = _failure_lines(result)
    assert "sudo apt install libegl1" in line


def test_the_failure_dialog_is_wrapped_to_a_readable_width(tmp_path, qtbot,
                                                           monkeypatch) -> None:
    from ollm_desktop import app

    blocker = tmp_path / ("a-rather-long-folder-name-for-the-data " * 3).strip()
    blocker.write_text("not a folder")
    monkeypatch.setattr(startup_failure, "has_display", lambda: True)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    shown: list[tuple[str, int]] = []

    def close(widget) -> None:
        shown.append((widget.text(), widget.width()))
        widget.accept()

    _answer_modal(qtbot, close)
    assert app.main(["--data-dir", str(blocker)]) == 2
    [(text, width)] = shown
    lines = text.splitlines()
    assert len(lines) > 2
    assert all(len(line) <= startup_failure.WRAP or " " not in line.strip() for line in lines)
    assert width < 900
