"""packaging/find-python.sh and make-venv.sh, which the README's two commands start with,
on machines with fake PATHs (issue 32 point 10): only ``python3.13`` on PATH; only pyenv's
3.12 behind broken shims (``python3.12`` on PATH answers "command not found"); nothing usable
(they say what to install). Each candidate is a link to this test's own Python (3.12+), or a
script that fails the way a pyenv shim or an old Python does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIND = ROOT / "packaging" / "find-python.sh"
MAKE_VENV = ROOT / "packaging" / "make-venv.sh"
BASH = "/bin/bash"
SHIM = '#!/bin/sh\necho "pyenv: $(basename "$0"): command not found" >&2\nexit 127\n'
TOOLS = ("cat", "dirname")  # what the scripts call besides Python and bash's builtins


def real_python() -> str:
    """A Python 3.12+ with venv and ensurepip, not a venv's (so it can make venvs)."""
    return getattr(sys, "_base_executable", sys.executable)


def machine(tmp_path: Path, on_path: dict[str, str | None]) -> dict[str, str]:
    """An environment whose PATH holds only ``on_path`` (name -> a Python to link, or None for
    a failing shim) and a few tools; HOME without pyenv's or uv's folders."""
    bin_dir, home = tmp_path / "bin", tmp_path / "home"
    bin_dir.mkdir()
    home.mkdir(exist_ok=True)
    for tool in TOOLS:
        found = next(p for p in (Path("/usr/bin") / tool, Path("/bin") / tool) if p.exists())
        (bin_dir / tool).symlink_to(found)
    for name, target in on_path.items():
        link = bin_dir / name
        if target is None:
            link.write_text(SHIM)
            link.chmod(0o755)
        else:
            link.symlink_to(target)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHON", "PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV",
                        "UV_PYTHON_INSTALL_DIR", "XDG_DATA_HOME")}
    env.update(PATH=str(bin_dir), HOME=str(home))
    return env


def find_python(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BASH, "-c", f'source "{FIND}" && find_python'], env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_only_python3_13_on_path(tmp_path: Path) -> None:
    env = machine(tmp_path, {"python3.13": real_python(), "python3": None})
    found = find_python(env)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == str(tmp_path / "bin" / "python3.13")


def test_only_pyenv_s_3_12_behind_broken_shims(tmp_path: Path) -> None:
    env = machine(tmp_path, {"python3.13": None, "python3.12": None, "python3": None})
    pyenv_python = tmp_path / "home" / ".pyenv" / "versions" / "3.12.1" / "bin" / "python3"
    pyenv_python.parent.mkdir(parents=True)
    pyenv_python.symlink_to(real_python())
    found = find_python(env)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == str(pyenv_python)


def test_a_broken_python_variable_is_passed_over_with_a_warning(tmp_path: Path) -> None:
    env = machine(tmp_path, {"python3.13": real_python()})
    env["PYTHON"] = str(tmp_path / "bin" / "missing-python")
    found = find_python(env)
    assert found.returncode == 0 and found.stdout.strip().endswith("python3.13")
    assert "is not a working Python 3.12 or newer" in found.stderr


def test_with_none_it_says_what_to_install(tmp_path: Path) -> None:
    env = machine(tmp_path, {"python3.12": None, "python3": None})
    found = find_python(env)
    assert found.returncode == 1 and found.stdout == ""
    assert "needs Python 3.12 or newer" in found.stderr
    assert "sudo apt install python3 python3-venv" in found.stderr


@pytest.mark.slow
def test_make_venv_with_only_python3_13(tmp_path: Path) -> None:
    """The README's first command, as pasted, on the python3.13-only machine: a venv on it."""
    env = machine(tmp_path, {"python3.13": real_python(), "python3": None})
    venv = tmp_path / "project" / ".venv"
    venv.parent.mkdir()
    made = subprocess.run([BASH, str(MAKE_VENV)], cwd=venv.parent, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    assert f"with {tmp_path / 'bin' / 'python3.13'}" in made.stdout
    version = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "import sys, pip; print(sys.version_info >= (3, 12))"],
                             capture_output=True, text=True, timeout=60, check=False)
    assert version.stdout.strip() == "True", version.stderr


def test_run_as_a_command_it_prints_the_python(tmp_path: Path) -> None:
    """``bash packaging/find-python.sh`` (the README's pipx line) prints what it found."""
    env = machine(tmp_path, {"python3.13": real_python()})
    found = subprocess.run([BASH, str(FIND)], env=env, capture_output=True, text=True,
                           timeout=60, check=False)
    assert found.returncode == 0 and found.stdout.strip() == str(tmp_path / "bin" / "python3.13")
