#!/usr/bin/env bash
# Makes .venv in the current folder with a Python 3.12+ found under any usual name (see
# find-python.sh), so the README's commands paste as they are on a pyenv, uv or Debian 13
# machine. An existing .venv on a good Python is kept; one on an older Python is replaced.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=packaging/find-python.sh
source "$HERE/find-python.sh"

venv="${1:-.venv}"
if [[ -x "$venv/bin/python" ]] && _python_ok "$venv/bin/python"; then
    echo "Using $venv ($("$venv/bin/python" --version))"
    exit 0
fi
python="$(find_python)"
echo "Making $venv with $python ($("$python" --version))"
"$python" -m venv --clear "$venv"
