"""The command line is a contract (packaging checks use it): ``ollm-desktop --version``,
``--self-test`` and ``python -m ollm_desktop`` in fresh processes, offscreen; ``--host`` for
one run only; one running copy per data folder; start-up failures logged and explained."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from ollm_desktop import __version__, single_instance
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import APPLICATION_ID
from tests.test_ui_widgets import _answer_modal

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    env.pop("OLLM_DATA_DIR", None)
    if data_dir is not None:
        env["OLLM_DATA_DIR"] = str(data_dir)
    return _ended_cleanly(subprocess.run(
        [sys.executable, "-m", "ollm_desktop", *args], capture_output=True, text=True, env=env,
        cwd=ROOT, timeout=120, check=False))


def _ended_cleanly(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """The app's last resort (os._exit with tasks left, said on stderr) fails any test."""
    assert "would not stop" not in result.stderr, result.stderr
    return result


def test_version_prints_the_package_version() -> None:
    result = _run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"ollm-desktop {__version__}"


def test_self_test_opens_the_window_and_the_snapshot_browser_and_exits_0(tmp_path) -> None:
    result = _run("--self-test", "--host", "http://127.0.0.1:9", data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for check in ("tokenizer offline", "main window shown", "snapshot browser shown"):
        assert f"  ok: {check}" in lines
    assert lines[-1] == "ollm-desktop self-test: ok"
    assert (tmp_path / "data" / "ollm-desktop.sqlite3").is_file()  # the given folder was used


def test_self_test_without_a_data_folder_leaves_nothing_behind(tmp_path) -> None:
    env_tmp = tmp_path / "tmp"
    env_tmp.mkdir()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT),
           "TMPDIR": str(env_tmp), "HOME": str(tmp_path / "home")}
    env.pop("OLLM_DATA_DIR", None)
    result = subprocess.run([sys.executable, "-m", "ollm_desktop", "--self-test", "--host",
                             "http://127.0.0.1:9"], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert list(env_tmp.iterdir()) == []  # its scratch data folder was removed
    assert not (tmp_path / "home").exists()  # the user's real folders were never touched


# ----------------------------------------------------------------------------- --host
def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT),
           "TMPDIR": str(tmp_path), "HOME": str(tmp_path / "home")}
    for name in ("OLLM_DATA_DIR", "OLLAMA_HOST", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    env.update(extra)
    return env


def _app(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return _ended_cleanly(subprocess.run(
        [sys.executable, "-m", "ollm_desktop", *args], capture_output=True, text=True, env=env,
        cwd=ROOT, timeout=timeout, check=False))


def _host_used(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    [line] = [x for x in result.stdout.splitlines() if x.startswith("  info: Ollama at ")]
    return line.removeprefix("  info: Ollama at ")


def test_a_bad_host_is_refused_like_preferences_does_and_nothing_is_written(tmp_path) -> None:
    data = tmp_path / "data"
    result = _app(_env(tmp_path), "--data-dir", str(data), "--host", "not a url")
    assert result.returncode == 2
    assert "--host 'not a url'" in result.stderr and "http://127.0.0.1:11434" in result.stderr
    assert not data.exists()  # refused before anything was created or saved
    for bad in ("ftp://x", "localhost:notaport"):
        assert _app(_env(tmp_path), "--data-dir", str(data), "--host", bad).returncode == 2


def test_host_lasts_one_run_and_the_documented_precedence_holds(tmp_path) -> None:
    """--host, then settings, then $OLLAMA_HOST, then 127.0.0.1 (the --help text)."""
    data = tmp_path / "data"
    settings = data / "config" / "settings.json"
    once, env_host, saved = "http://127.0.0.1:9", "http://127.0.0.1:7", "http://127.0.0.1:8"
    first = _app(_env(tmp_path, OLLAMA_HOST=env_host), "--self-test", "--data-dir", str(data),
                 "--host", once)
    assert _host_used(first) == once
    assert json.loads(settings.read_text(encoding="utf-8"))["ollama_host"] is None
    # The next run without --host: the one-off address is gone, $OLLAMA_HOST applies.
    second = _app(_env(tmp_path, OLLAMA_HOST=env_host), "--self-test", "--data-dir", str(data))
    assert _host_used(second) == env_host
    # A host chosen in Preferences (saved) comes before $OLLAMA_HOST, --host before both.
    values = json.loads(settings.read_text(encoding="utf-8"))
    settings.write_text(json.dumps({**values, "ollama_host": saved}), encoding="utf-8")
    third = _app(_env(tmp_path, OLLAMA_HOST=env_host), "--self-test", "--data-dir", str(data))
    assert _host_used(third) == saved
    fourth = _app(_env(tmp_path, OLLAMA_HOST=env_host), "--self-test", "--data-dir", str(data),
                  "--host", once)
    assert _host_used(fourth) == once
    assert json.loads(settings.read_text(encoding="utf-8"))["ollama_host"] == saved


# ------------------------------------------------------------------ one copy per folder
def _start_first(tmp_path: Path, data: Path) -> subprocess.Popen[str]:
    """A real, normal start (no self-test) that stays open; returns once it listens."""
    first = subprocess.Popen([sys.executable, "-m", "ollm_desktop", "--data-dir", str(data),
                              "--host", "http://127.0.0.1:9"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, text=True, env=_env(tmp_path), cwd=ROOT)
    deadline = time.monotonic() + 60
    while "server" not in single_instance.owner(data):  # a condition, polled: not a fixed wait
        assert first.poll() is None, "the first copy exited"
        assert time.monotonic() < deadline, "the first copy never listened"
        time.sleep(0.05)
    return first


def test_a_second_launch_brings_the_first_forward_and_exits_0(tmp_path) -> None:
    data = tmp_path / "data"
    first = _start_first(tmp_path, data)
    try:
        second = _app(_env(tmp_path), "--data-dir", str(data), timeout=60)
        assert second.returncode == 0, second.stderr
        assert "already running" in second.stderr and str(data) in second.stderr
        assert "brought to the front" in second.stderr
        log = (data / "logs" / "ollm-desktop.log").read_text(encoding="utf-8")
        assert "window brought forward for a second launch" in log
        # The packaging check is never blocked by a running copy.
        check = _app(_env(tmp_path), "--self-test", "--data-dir", str(data), "--host",
                     "http://127.0.0.1:9")
        assert check.returncode == 0, check.stderr
        assert first.poll() is None  # the first copy runs on
    finally:
        first.kill()  # SIGKILL: like a crash, nothing is cleaned up
        first.wait(timeout=30)
    # A crashed copy leaves no stale lock: the folder can be claimed again at once.
    claim = single_instance.Instance.claim(data)
    assert claim is not None
    claim.release()


def test_a_copy_that_holds_the_folder_but_does_not_answer_is_explained(tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    holder = single_instance.Instance.claim(data)  # holds the lock, never listens
    assert holder is not None
    try:
        second = _app(_env(tmp_path), "--data-dir", str(data), timeout=60)
    finally:
        holder.release()
    assert second.returncode == 1
    assert "already running" in second.stderr and "does not answer" in second.stderr
    assert not (data / "ollm-desktop.sqlite3").exists()  # it never opened the chats


# ------------------------------------------------------------------ start-up failures
def _failure_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [x for x in result.stderr.splitlines()
            if x.startswith("ollm-desktop") and "start-up" not in x]


def test_a_data_folder_that_is_a_file_is_logged_and_explained(tmp_path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    result = _app(_env(tmp_path), "--data-dir", str(blocker))
    assert result.returncode == 2
    [line] = _failure_lines(result)
    assert str(blocker) in line and "logged in" in line
    log = tmp_path / "ollm-desktop-startup-failure.log"  # its log folder cannot exist
    text = log.read_text(encoding="utf-8")
    assert f"cannot create the data folder {blocker}" in text and "Traceback" in text


def test_a_database_that_cannot_be_opened_is_logged_in_the_log_folder(tmp_path) -> None:
    """Found after the window painted (the store opens in the loop): the app still stops
    cleanly, with the reason in its log folder."""
    data = tmp_path / "data"
    paths = app_paths(data)
    paths.ensure()
    conn = sqlite3.connect(paths.database)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    result = _app(_env(tmp_path), "--data-dir", str(data), "--host", "http://127.0.0.1:9")
    assert result.returncode == 2
    assert "newer ollm-desktop" in _failure_lines(result)[0]
    log = (paths.log_dir / "ollm-desktop.log").read_text(encoding="utf-8")
    assert "start-up failed: The chat database" in log and "newer" in log


def test_qt_that_cannot_start_is_logged(tmp_path) -> None:
    """No usable Qt platform plugin ends the process inside Qt; the reason reaches the log."""
    data = tmp_path / "data"
    result = _app(_env(tmp_path, QT_QPA_PLATFORM="no-such-platform"), "--data-dir", str(data))
    assert result.returncode != 0
    log = (data / "logs" / "ollm-desktop.log").read_text(encoding="utf-8")
    assert "Qt could not start" in log and "no-such-platform" in result.stderr


def test_qt_libraries_that_do_not_load_are_logged_and_explained(tmp_path) -> None:
    fake = tmp_path / "fake" / "PySide6"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise ImportError('libEGL.so.1: cannot open shared object file')\n")
    env = _env(tmp_path, PYTHONPATH=f"{fake.parent}{os.pathsep}{ROOT}")
    data = tmp_path / "data"
    result = _app(env, "--data-dir", str(data))
    assert result.returncode == 1
    [line] = _failure_lines(result)
    assert "libEGL.so.1" in line and "Debian/Ubuntu" in line
    log = (data / "logs" / "ollm-desktop.log").read_text(encoding="utf-8")
    assert "libEGL.so.1" in log


def test_with_a_display_the_failure_is_shown_in_a_dialog(tmp_path, qtbot, monkeypatch) -> None:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from ollm_desktop import app, startup_failure

    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    monkeypatch.setattr(startup_failure, "has_display", lambda: True)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    shown: list[str] = []

    def close(widget) -> None:
        assert isinstance(widget, QMessageBox) and widget.objectName() == "startupFailure"
        shown.append(widget.text())
        widget.accept()

    _answer_modal(qtbot, close)
    assert app.main(["--data-dir", str(blocker)]) == 2
    assert QApplication.activeModalWidget() is None
    [text] = shown
    assert f"cannot create the data folder {blocker}" in " ".join(text.split())  # wrapped
    assert str(tmp_path / "ollm-desktop-startup-failure.log") in text
