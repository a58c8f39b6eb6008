#!/usr/bin/env bash
# Build the standalone one-folder bundle with PyInstaller: packaging/dist/ollm-desktop/.
#
# Uses its own venv (packaging/build/venv, reused between runs) so the developer's venv
# is never touched; VENV=/path/to/venv uses an existing one that has '.[package]' installed;
# PYTHON=/path/to/python3.12 chooses the interpreter for a new venv.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
cd "$ROOT"
# shellcheck source=packaging/find-python.sh
source "$HERE/find-python.sh"

VENV="${VENV:-$HERE/build/venv}"
if [[ ! -x "$VENV/bin/python" ]]; then
    py="$(find_python)"
    echo "build-bundle: creating $VENV with $py"
    "$py" -m venv "$VENV"
fi
echo "build-bundle: installing the app and PyInstaller into $VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$ROOT[package]"

rm -rf "$HERE/dist/ollm-desktop"
"$VENV/bin/python" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$HERE/dist" --workpath "$HERE/build/pyinstaller" \
    "$HERE/ollm-desktop.spec"

bundle="$HERE/dist/ollm-desktop"
if ! find "$bundle" -name cl100k_base.tiktoken -path '*ollm_desktop/resources/*' | grep -q .; then
    echo "build-bundle: the tokenizer vocabulary is missing from the bundle" >&2
    exit 1
fi
echo "build-bundle: $bundle ($(du -sh "$bundle" | cut -f1))"
