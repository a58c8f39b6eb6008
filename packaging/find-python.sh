# shellcheck shell=bash
# Sourced by the packaging scripts: find_python prints a Python >= 3.12 that really runs.
#
# Why the care: on some machines `python3.12` is a pyenv shim that exists on PATH but fails
# ("command not found" from pyenv), so every candidate is executed before it is trusted.
# Order: $PYTHON, python3.13, python3.12, python3, then pyenv's own version folders
# (a broken $PYTHON gives a warning and the search goes on).
# PySide6 on 3.11 aborts after a few hundred signal emits, hence the 3.12 floor.

_python_ok() {
    "$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

find_python() {
    local candidate resolved
    local -a candidates=()
    if [[ -n "${PYTHON:-}" ]]; then
        if _python_ok "$PYTHON"; then
            command -v "$PYTHON" || printf '%s\n' "$PYTHON"
            return 0
        fi
        # A pyenv shim may be handed in as PYTHON; say so, then look further.
        echo "warning: PYTHON=$PYTHON is not a working Python 3.12 or newer; searching" >&2
    fi
    candidates+=(python3.13 python3.12 python3)
    local root="${PYENV_ROOT:-$HOME/.pyenv}"
    for root in "$root" /root/.pyenv; do
        for candidate in "$root"/versions/3.1[2-9]*/bin/python3 "$root"/versions/3.[2-9][0-9]*/bin/python3; do
            [[ -x "$candidate" ]] && candidates+=("$candidate")
        done
    done
    for candidate in "${candidates[@]}"; do
        resolved="$(command -v "$candidate" 2>/dev/null)" || continue
        if _python_ok "$resolved"; then
            printf '%s\n' "$resolved"
            return 0
        fi
    done
    echo "error: ollm-desktop needs Python 3.12 or newer (with the venv module)." >&2
    echo "       Install python3.12 (e.g. 'apt install python3.12-venv' or from python.org)," >&2
    echo "       or point PYTHON=/path/to/python3.12 at one." >&2
    return 1
}
