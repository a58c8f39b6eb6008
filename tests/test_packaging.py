"""Packaging files: desktop entry, AppStream metainfo, icons, install scripts, PyInstaller spec.

Fast checks for the normal suite; packaging/ci-check.sh builds and installs for real.
"""

from __future__ import annotations

import configparser
import fnmatch
import shutil
import struct
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ollm_desktop import APP_ID, APP_NAME, __version__

ROOT = Path(__file__).resolve().parent.parent
RES = ROOT / "resources"
PACKAGING = ROOT / "packaging"
DESKTOP = RES / f"{APP_ID}.desktop"
METAINFO = RES / f"{APP_ID}.metainfo.xml"
PNG_SIZES = (16, 32, 48, 64, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment, method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def _png_header(data: bytes) -> tuple[int, int, int]:
    """(width, height, colour type) from a PNG's IHDR chunk."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height, _depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, colour


def test_desktop_entry_launches_the_app_with_its_icon() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Version"] == "1.0"
    assert entry["Exec"].split()[0] == APP_NAME
    assert entry["Icon"] == APP_ID
    assert entry["Terminal"] == "false"
    # Qt's X11 WM_CLASS is the application name; the window must match its menu entry.
    assert entry["StartupWMClass"] == APP_NAME
    for key in ("Categories", "Keywords"):
        assert entry[key].endswith(";")
    assert "Chat" in entry["Categories"].split(";")


def test_metainfo_names_the_app_and_its_desktop_entry() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("project_license") == "MIT"
    assert root.findtext("metadata_license")
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    assert root.findtext("provides/binary") == APP_NAME
    releases = [rel.get("version") for rel in root.iter("release")]
    assert __version__ in releases
    rating = root.find("content_rating")
    assert rating is not None and rating.get("type") == "oars-1.1"


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils")
def test_desktop_entry_passes_desktop_file_validate() -> None:
    result = subprocess.run(
        ["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in (result.stdout + result.stderr).lower()


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_passes_appstreamcli() -> None:
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("size", PNG_SIZES)
def test_hicolor_png_has_its_size_and_an_opaque_centre(size: int) -> None:
    from PySide6.QtGui import QImage

    path = RES / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    assert _png_header(path.read_bytes()) == (size, size, 6)  # 6 = RGBA
    image = QImage(str(path))
    assert not image.isNull()
    centre = image.pixelColor(size // 2, size // 2)
    corner = image.pixelColor(0, 0)
    assert centre.alpha() == 255, "the icon's body must be drawn"
    assert corner.alpha() < 64, "the rounded tile leaves the corners transparent"


def test_scalable_icon_is_the_svg_source() -> None:
    source = RES / "icons" / "ollm-desktop.svg"
    scalable = RES / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    assert scalable.read_bytes() == source.read_bytes(), "run packaging/make-icons.py"
    assert ET.parse(source).getroot().tag.endswith("svg")


def test_ico_holds_png_images_up_to_256() -> None:
    data = (PACKAGING / "icons" / "ollm-desktop.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1) and count >= 4
    sizes = set()
    for index in range(count):
        width, height, _c, _r, _planes, _bits, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * index : 22 + 16 * index]
        )
        size = width or 256
        assert width == height
        image = data[offset : offset + length]
        assert _png_header(image)[:2] == (size, size)
        sizes.add(size)
    assert {16, 32, 48, 256} <= sizes


def test_icns_holds_png_entries_with_consistent_lengths() -> None:
    data = (PACKAGING / "icons" / "ollm-desktop.icns").read_bytes()
    assert data[:4] == b"icns"
    assert struct.unpack(">I", data[4:8])[0] == len(data)
    found: dict[bytes, int] = {}
    pos = 8
    while pos < len(data):
        kind, length = struct.unpack(">4sI", data[pos : pos + 8])
        found[kind] = _png_header(data[pos + 8 : pos + length])[0]
        pos += length
    assert pos == len(data)
    assert found[b"ic07"] == 128 and found[b"ic08"] == 256 and found[b"ic09"] == 512
    assert found[b"ic10"] == 1024


@pytest.mark.parametrize("script", sorted(p.name for p in PACKAGING.glob("*.sh")))
def test_shell_scripts_parse_and_are_strict(script: str) -> None:
    path = PACKAGING / script
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    text = path.read_text(encoding="utf-8")
    if not text.startswith("# shellcheck shell=bash"):  # sourced helpers have no shebang
        assert "set -euo pipefail" in text


def test_user_scripts_honour_xdg_data_home_and_keep_user_data() -> None:
    install = (PACKAGING / "install-user.sh").read_text(encoding="utf-8")
    uninstall = (PACKAGING / "uninstall-user.sh").read_text(encoding="utf-8")
    paths = (PACKAGING / "user-paths.sh").read_text(encoding="utf-8")
    assert '${XDG_DATA_HOME:-$HOME/.local/share}' in paths
    for text in (install, uninstall):
        assert 'source "$HERE/user-paths.sh"' in text
    # The data folder holds the user's chats: only the venv inside it may be deleted wholesale.
    assert 'rm -rf -- "$VENV"' in uninstall
    assert 'rm -rf -- "$APP_DIR"' not in uninstall


def test_spec_bundles_the_vocabulary_where_resources_path_looks() -> None:
    spec = (PACKAGING / "ollm-desktop.spec").read_text(encoding="utf-8")
    compile(spec, "ollm-desktop.spec", "exec")
    assert "cl100k_base.tiktoken" in spec
    assert '"ollm_desktop/resources"' in spec
    assert (RES / "cl100k_base.tiktoken").is_file()
    assert "ollm_desktop_entry.py" in spec and (PACKAGING / "ollm_desktop_entry.py").is_file()
    assert "bundle_identifier=APP_ID" in spec and f'APP_ID = "{APP_ID}"' in spec
    resources_path = (ROOT / "ollm_desktop" / "resources_path.py").read_text(encoding="utf-8")
    assert '"ollm_desktop" / "resources"' in resources_path


def _declared_packages(setuptools_cfg: dict) -> set[str]:
    """The packages a wheel would hold: an explicit list, or find's include patterns."""
    packages = setuptools_cfg.get("packages")
    if isinstance(packages, list):
        return set(packages)
    find = (packages or {}).get("find", {})
    include = find.get("include", ["*"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in ROOT.glob("**/__init__.py")
        if ".venv" not in init.parts and "packaging" not in init.parts
    }
    return {name for name in found if any(fnmatch.fnmatch(name, pat) for pat in include)}


def test_wheel_ships_the_resources_package_with_every_icon() -> None:
    """An installed (non-editable) copy needs the vocabulary and icons inside the wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools_cfg = config["tool"]["setuptools"]
    assert setuptools_cfg["package-dir"]["ollm_desktop.resources"] == "resources"
    packages = _declared_packages(setuptools_cfg)
    assert "ollm_desktop.resources" in packages, (
        "pyproject.toml: packages.find(include=['ollm_desktop*']) never finds resources/; "
        "list the packages explicitly"
    )
    subpackages = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "ollm_desktop").glob("**/__init__.py")
    }
    assert subpackages <= packages
    patterns = config["tool"]["setuptools"]["package-data"]["ollm_desktop.resources"]
    shipped = {path for pattern in patterns for path in RES.glob(pattern) if path.is_file()}
    needed = [p for p in (RES / "icons").rglob("*") if p.is_file()]
    needed += [RES / "cl100k_base.tiktoken", DESKTOP, METAINFO]
    assert needed and set(needed) <= shipped


def _self_test_step() -> str:
    """install-user.sh's last step, from the --version line to "self-test passed"."""
    text = (PACKAGING / "install-user.sh").read_text(encoding="utf-8")
    start = text.index('version="$("$APP_BIN" --version')
    end = text.index('echo "install-user: self-test passed"')
    return text[start:end] + 'echo "install-user: self-test passed"\n'


@pytest.mark.parametrize("passes", [True, False])
def test_install_user_runs_the_self_test_and_fails_the_install_when_it_fails(
        tmp_path: Path, passes: bool) -> None:
    """--version only proves Python imports; a missing Qt library shows in the self-test."""
    app = tmp_path / "ollm-desktop"
    app.write_text("#!/usr/bin/env bash\n"
                   'echo "$1" >> "$(dirname "$0")/calls"\n'
                   '[[ "$1" == --version ]] && { echo "ollm-desktop 0.1.0"; exit 0; }\n'
                   'echo "libxcb-cursor.so.0: cannot open shared object file" >&2\n'
                   f"exit {0 if passes else 1}\n")
    app.chmod(0o755)
    script = f"set -euo pipefail\nAPP_BIN={app}\n" + _self_test_step()
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                            check=False)
    assert (tmp_path / "calls").read_text().split() == ["--version", "--self-test"]
    if passes:
        assert result.returncode == 0, result.stderr
        assert "self-test passed" in result.stdout
    else:
        assert result.returncode == 1
        assert "libxcb-cursor.so.0" in result.stderr  # the app's own words are shown
        assert "System libraries" in result.stderr and "self-test passed" not in result.stdout
