"""The command line is a contract (packaging checks use it): ``ollm-desktop --version``,
``--self-test`` and ``python -m ollm_desktop`` in fresh processes, offscreen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ollm_desktop import __version__

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    env.pop("OLLM_DATA_DIR", None)
    if data_dir is not None:
        env["OLLM_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "ollm_desktop", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120, check=False)


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
